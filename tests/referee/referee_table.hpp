// Tables for the referee's tests. A HandTable shows the referee board
// observations built by hand (where each character stands, which are in a
// hand, which readers are faulty). A SimTable runs the real thing in virtual
// time: a simulated castle, the sensing pipeline over its scans, and the
// referee fed every update, so a put or a lift reaches the referee exactly as
// on the Pi. Both keep every notice the referee gave.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "daemon/referee/referee.hpp"
#include "daemon/store/game_store.hpp"
#include "drivers/sensing/sensing_pipeline.hpp"
#include "drivers/sim/simulated_board.hpp"
#include "engine/chance.hpp"

namespace vivaref::referee::testing {

using namespace std::chrono_literals;
using nlohmann::json;

// The classic edition for four seats, as a new game's "setup".
inline const json kClassic4{{"edition", "classic"}, {"seats", 4}};

inline RefereeOptions seeded(std::uint64_t seed) {
    RefereeOptions options;
    options.seed = seed;
    return options;
}

// A setup of `edition` for `seats`.
engine::RulesSpec specOf(engine::Edition edition, int seats, engine::Variant variant = engine::Variant::None,
                         engine::Options options = {});
// A 2024 setup; the Teams and Team Pawn variants with their teams (seat s:
// players 2s and 2s + 1).
engine::RulesSpec spec2024(int seats, engine::Variant variant = engine::Variant::None,
                           engine::Options options = {});

// A host request from its trace spelling; the test fails if it does not read.
HostRequest request(const json& host);

// The deal randomDeal makes for `state` with `seed`, as a host request payload.
json dealFor(const engine::State& state, std::uint64_t seed);

// Where the engine wants every character on the board: slug -> board place.
std::map<std::string, std::string> expectedBoard(const engine::State& state);
// The board place's name where a character at `p` stands ("6" for the
// throne, and for the royal couple's first King beside it). `p` must be on
// the board.
std::string boardPlaceName(engine::Place p);

// Every notice of `kind` in `notices`.
std::vector<Notice> noticesOf(const std::vector<Notice>& notices, const std::string& kind);

// Fails the test when the public status says more than the engine's public
// view allows: its "view" is exactly record::publicViewJson of the state; no
// key anywhere names a hand, an Ambition card, an own vote or a pile; no
// favourites card that is not yet revealed appears; during an election no
// vote card appears outside a past reveal.
void checkNoSecrets(const json& status, const engine::State& state);

class HandTable {
public:
    explicit HandTable(store::DecisionLog* store = nullptr, RefereeOptions options = {});

    Referee referee;
    Timestamp now{0};
    std::map<std::string, std::string> on;                     // slug -> place
    std::map<std::string, std::optional<std::string>> inHand;  // slug -> lifted from
    std::map<std::string, Timestamp> liftedAt;                 // slug -> when lift() took it
    std::vector<std::string> faulty;                           // reader names
    std::vector<std::string> failing;  // failed a scan lately, not faulty (the faulty are failing too)
    std::vector<Notice> notices;

    const engine::State& state() const;
    HostAnswer host(const json& hostRequest);
    // Starts a game and deals round 1 by the host (favourites from `dealSeed`).
    void start(const json& setup, std::uint64_t dealSeed = 7);
    // The board as it is now, shown to the referee 200 ms later.
    void show();
    void put(const std::string& slug, const std::string& place);
    void lift(const std::string& slug);    // into a hand
    void remove(const std::string& slug);  // gone from the board altogether
    // Puts the board as the engine expects it (the players follow guidance).
    void follow();
    void press(int station, drivers::VoteKey key);
    void wait(Timestamp dt);  // time passes: tick
    // Performs the player action physically (place, move) or by key (vote).
    void perform(const engine::Action& action);
    drivers::LedMode led(const std::string& name) const;
    std::vector<Notice> take();  // the notices since the last take()

private:
    drivers::BoardObservation observation() const;
    std::size_t taken_ = 0;
};

// A character's id by its slug, in the game `t` plays.
engine::CharacterId id(const HandTable& t, const std::string& slug);
// The code of the refusal the public status shows; empty when there is none.
std::string refusalCode(const HandTable& t);

// The twelve classic characters of a started game placed by hand, the
// board followed: floors 1 and 2 full (alighiero to dario, ernesto to
// irina), leonardo and merlino on 3, natale and odessa on 4, piero left on
// 0; the ascent begins.
void placeClassicToAscent(HandTable& t);
// A classic four-seat game so placed; the ascent begins with seat 0.
void toClassicAscent(HandTable& t);

class SimTable {
public:
    explicit SimTable(store::DecisionLog* store = nullptr, RefereeOptions options = {});

    Referee referee;
    drivers::SimulatedBoard board;
    drivers::SensingPipeline pipeline;
    Timestamp now{0};
    std::vector<Notice> notices;

    const engine::State& state() const;
    HostAnswer host(const json& hostRequest);
    // Virtual time passes: every scan goes through the pipeline to the
    // referee, deadlines are ticked.
    void advance(Timestamp dt);
    void put(const std::string& slug, const std::string& place);   // and settle
    void lift(const std::string& slug);                            // and wait out the in-hand grace
    void move(const std::string& slug, const std::string& place);  // lift, carry, put, settle
    void press(int station, drivers::VoteKey key);
    // The players follow the referee's guidance: every character to where the
    // engine wants it (lifts first, then puts).
    void follow();
    void perform(const engine::Action& action);

private:
    void feed(Timestamp until);
};

}  // namespace vivaref::referee::testing
