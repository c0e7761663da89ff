// The options that describe a random game (edition, seats, options,
// variant, seed), shared by `vivaref bench` and `vivaref random-record`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <boost/program_options.hpp>

#include "engine/rules.hpp"

namespace vivaref::daemon {

struct GameOptions {
    std::string edition = "classic";
    int seats = 4;
    bool ambition = false;
    bool banished = false;
    std::string variant = "none";
    std::uint64_t seed = 1;
};

// Adds --edition, --seats, --ambition, --banished, --variant and --seed.
void addGameOptions(boost::program_options::options_description& options, GameOptions& game);

// The rules spec the options describe; with teams, every seat is a team of
// two (players 2s and 2s+1 at seat s). On a bad combination, returns nothing
// and sets `error` to the engine's reason.
std::optional<engine::RulesSpec> rulesSpecFor(const GameOptions& game, std::string& error);

}  // namespace vivaref::daemon
