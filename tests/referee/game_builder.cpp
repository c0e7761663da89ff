#include "tests/referee/game_builder.hpp"

#include <doctest/doctest.h>

#include "engine/players/random_player.hpp"

namespace vivaref::referee::testing {

namespace {

struct Recorder {
    engine::State& state;
    const std::function<bool(const engine::State&)>& stop;
    std::vector<Decision>& out;
    bool stopped = false;
    bool keep(Decision d) {
        if (stop(state)) {
            stopped = true;
            return false;
        }
        out.push_back(std::move(d));
        return true;
    }
    bool drawn(const engine::State&, const engine::Decision& d) { return keep(d); }
    // A player's action comes as an Action (random_player.hpp): made into the
    // kept Decision in place, not copied through a temporary variant (GCC 12
    // at -O1 with ASan saw that copy's Deal vector as maybe uninitialized).
    bool drawn(const engine::State&, const engine::Action& a) {
        if (stop(state)) {
            stopped = true;
            return false;
        }
        out.emplace_back(std::in_place_type<engine::Action>, a);
        return true;
    }
};

}  // namespace

std::optional<BuiltGame> playUntil(const engine::RulesSpec& spec, std::uint64_t seed,
                                   const std::function<bool(const engine::State&)>& stop) {
    BuiltGame game;
    game.spec = spec;
    game.seed = seed;
    engine::State state(std::make_shared<const engine::Rules>(spec));
    engine::Rng rng(seed);
    Recorder recorder{state, stop, game.decisions};
    auto error = engine::players::playRandomly(state, rng, recorder);
    REQUIRE_FALSE(error.has_value());
    if (!recorder.stopped) return std::nullopt;
    game.state.emplace(std::move(state));
    return game;
}

std::optional<BuiltGame> playUntil(const engine::RulesSpec& spec, std::uint64_t seed,
                                   const std::function<bool(const engine::State&)>& stop,
                                   const Chooser& choose) {
    BuiltGame game;
    game.spec = spec;
    game.seed = seed;
    engine::State state(std::make_shared<const engine::Rules>(spec));
    engine::Rng rng(seed);
    for (int step = 0; step < 5000 && !state.isOver(); ++step) {
        if (stop(state)) {
            game.state.emplace(std::move(state));
            return game;
        }
        const Decision d =
            state.awaitsChance() ? engine::players::randomDecision(state, rng) : Decision{choose(state, rng)};
        game.decisions.push_back(d);
        REQUIRE_FALSE(state.apply(d).has_value());
    }
    return std::nullopt;
}

std::optional<BuiltGame> findGame(const engine::RulesSpec& spec,
                                  const std::function<bool(const engine::State&)>& stop, int tries,
                                  std::uint64_t firstSeed) {
    for (int i = 0; i < tries; ++i)
        if (auto game = playUntil(spec, firstSeed + static_cast<std::uint64_t>(i), stop)) return game;
    return std::nullopt;
}

store::GameId logGame(store::GameStore& log, const BuiltGame& game) {
    const store::WallTime at{std::chrono::milliseconds(1'700'000'000'000)};
    auto id = log.createGame(store::NewGame{game.spec, {}, game.seed, at, {}});
    for (const auto& d : game.decisions) {
        store::WriteStatus status;
        if (auto* deal = std::get_if<engine::Deal>(&d)) status = log.appendDeal(id, *deal, at);
        if (auto* action = std::get_if<engine::Action>(&d)) status = log.appendAction(id, *action, at);
        if (auto* pile = std::get_if<engine::Reshuffle>(&d)) status = log.appendReshuffle(id, *pile, at);
        REQUIRE(status.durable);
    }
    return id;
}

}  // namespace vivaref::referee::testing
