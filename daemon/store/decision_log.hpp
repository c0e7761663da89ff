// What the referee writes a game into, and reads it back from to resume:
// the decisions, the referee's own events, the game's start and end. An
// interface, so that the referee knows nothing of how the log is kept;
// GameStore (game_store.hpp) keeps it in SQLite. The value types here are
// the game log's, shared by everything that reads it.
//
// The promises are GameStore's (game_store.hpp): an append returns once
// its row is committed; when it cannot be, nothing of it is kept and its
// WriteStatus says so, so the caller decides nothing it could lose.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/action.hpp"
#include "engine/rules.hpp"

namespace vivaref::store {

// Wall-clock time, given by the caller (time is an input).
using WallTime = std::chrono::sys_time<std::chrono::milliseconds>;

struct GameId {
    std::int64_t value = 0;
    friend auto operator<=>(GameId, GameId) = default;
};

// WriteStatus::reason when the disk is full: the referee says that one in
// the table's language (log.disk-full); any other reason is SQLite's words.
inline constexpr std::string_view kDiskFullReason = "disk full";

struct WriteStatus {
    bool durable = true;      // what was appended is on disk (trace lines may wait for flushDue)
    std::string problem;      // why not, as a sentence naming the file
    std::size_t waiting = 0;  // trace lines held in memory until the disk takes them
    std::string reason;       // why not, in a few words for a player ("disk full")
    bool committed = false;   // this call wrote something to disk (a flush with nothing to write did not)
};

struct NewGame {
    engine::RulesSpec spec;
    std::vector<std::string> players;   // one name per player; empty: "Player 1", ...
    std::optional<std::uint64_t> seed;  // when the referee deals from its generator
    WallTime at;
    // By player, the club member seated there (none: a guest or a bot);
    // empty: nobody is a member.
    std::vector<std::optional<std::int64_t>> members;
};

struct SeatedPlayer {
    int player = 0;
    int seat = 0;
    std::string name;
    std::optional<std::int64_t> member;  // the club member, if one sat there
};

struct GameSummary {
    GameId id;
    std::string uid;  // 32 lowercase hex digits, unique across tables (schema 3)
    WallTime started;
    std::optional<WallTime> ended;
    std::string edition;
    std::string setupLine;  // GAME-RECORD
    std::optional<std::uint64_t> seed;
    std::vector<SeatedPlayer> players;
    std::optional<nlohmann::json> result;  // GAME-RECORD result, once finished
    bool complete = false;
    bool abandoned = false;
};

struct StoredEvent {
    std::int64_t seq = 0;
    WallTime at;
    int round = 0;
    std::optional<int> seat;
    std::string kind;     // setup, deal, keep, place, move, vote, pass, reshuffle, undo, ...
    std::string payload;  // the GAME-RECORD line for a decision; JSON otherwise
};

// True for the kinds that are GAME-RECORD lines.
inline bool isDecisionKind(std::string_view kind) {
    for (std::string_view k : {"setup", "keep", "place", "move", "vote", "pass", "deal", "reshuffle"})
        if (kind == k) return true;
    return false;
}

class DecisionLog {
public:
    virtual ~DecisionLog() = default;

    // A new game with its setup line as event 0. Throws (StoreError) when it
    // cannot be written: a game starts on disk.
    virtual GameId createGame(const NewGame& game) = 0;
    virtual WriteStatus appendDeal(GameId game, const engine::Deal& deal, WallTime at) = 0;
    virtual WriteStatus appendAction(GameId game, const engine::Action& action, WallTime at) = 0;
    virtual WriteStatus appendReshuffle(GameId game, const engine::Reshuffle& reshuffle, WallTime at) = 0;
    // The last decision in effect is taken back (an event of its own).
    virtual WriteStatus appendUndo(GameId game, WallTime at) = 0;
    // What the referee said or decided besides the record (refusals,
    // guidance, notices): `payload` is JSON.
    virtual WriteStatus appendRefereeEvent(GameId game, std::string_view kind, std::string_view payload,
                                           WallTime at) = 0;
    virtual WriteStatus finishGame(GameId game, const nlohmann::json& result, WallTime at) = 0;
    virtual WriteStatus abandonGame(GameId game, WallTime at) = 0;
    // The appends from beginBatch() to endBatch() are committed together.
    virtual void beginBatch() = 0;
    virtual WriteStatus endBatch() = 0;
    // Trace lines held in memory until the disk takes them.
    virtual std::size_t waiting() const = 0;
    // Writes what is waiting in memory now (the referee's retry timer).
    virtual WriteStatus flush() = 0;

    // Reading a game back (resuming it after a restart).
    virtual std::optional<GameSummary> game(GameId id) = 0;
    virtual std::vector<StoredEvent> events(GameId id) = 0;
};

}  // namespace vivaref::store
