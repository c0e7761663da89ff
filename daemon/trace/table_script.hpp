// A game record turned into a table script: the referee trace of what the
// players and the host physically do to play that game on a simulated
// castle. The record is replayed through the engine, and each decision
// becomes its inputs:
//   setup      -> host new-game (the setup and the players' names)
//   deal       -> host deal; between rounds every tag is lifted (the board
//                 cleared), then what the deal puts on the board is put
//                 (the 2024 Jester on floor 3, the online preset)
//   keep       -> host keep;  reshuffle -> host reshuffle
//   place      -> put the character's tag on its place
//   move       -> lift it, put it on its new place a moment later
//   vote       -> the seat's station key (station = seat)
//   pass       -> nothing: the referee passes a seat with no move itself
// and whatever the engine moves on its own (leftovers to floor 0, an
// elected candidate to the box, a dungeon or back to floor 5, the Jester
// back down) is done by the players before the next action, as the referee
// guides. Chance lines (deal, reshuffle) are entered at once, before the
// board is tidied, so the referee never deals by itself.
//
// The timings are a table's pace: the comfortable default leaves the
// sensing pipeline all the time it could want; brisk() and stress() are
// real hands, a new action about every second (0.6 s) and each lift or put
// 0.3 s (0.2 s), never waiting for the in-hand grace. TableNoise adds what
// hands do besides the move. Character tags are named by slug.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/trace/trace_line.hpp"
#include "engine/ids.hpp"

namespace vivaref::trace {

// Milliseconds. The defaults suit the default sensing knobs: a 12-reader
// castle scanned every 10 ms (a 120 ms cycle), a majority of 3 scans, a
// 150 ms stability window, a 3 s in-hand grace.
struct TableTiming {
    std::int64_t hostGap = 100;    // after a host request
    std::int64_t settle = 600;     // after a put, before the next action: seen, then stable
    std::int64_t liftToPut = 400;  // a move: the tag in the hand
    std::int64_t liftGap = 50;     // between the lifts (and puts) of one tidy-up
    std::int64_t offBoard = 1000;  // after a tag leaves the board, before the next action
    std::int64_t pressGap = 150;   // between vote key presses

    // A brisk table: the next player acts 1 s after the last action, each
    // lift or put takes 0.3 s, nobody waits for the in-hand grace.
    static TableTiming brisk() { return {100, 1000, 300, 300, 300, 300}; }
    // Faster still, as a stress: 0.6 s between players, 0.2 s a hand.
    static TableTiming stress() { return {100, 600, 200, 200, 200, 200}; }
};

// What hands do besides the move, each by its probability per put (or per
// move, for a slow hand), from a seeded generator: the same seed and record
// give the same script. The move itself still ends where the record says.
struct TableNoise {
    std::uint64_t seed = 0;          // 0: no noise at all
    double hover = 0.15;             // the tag dips into its place's field and out, then lands
    double graze = 0.15;             // on the way it brushes another place for grazeMs
    double doubleTouch = 0.15;       // it lands, is lifted at once and lands again
    double slowHand = 0.03;          // a move's hand holds the tag for slowHandMs
    std::int64_t hoverMs = 30;       // in the field, then out for as long again
    std::int64_t grazeMs = 40;       // well under two reads of a reader at the default pace
    std::int64_t touchMs = 120;      // landed, then lifted this long, then landed again
    std::int64_t slowHandMs = 3500;  // past the default 3 s in-hand grace
    bool enabled() const { return seed != 0; }
};

struct TableScriptOptions {
    TableTiming timing;
    TableNoise noise;
    std::int64_t start = 0;            // `t` of the first line
    std::vector<std::string> players;  // names; empty: "Player 1", "Player 2", ...
};

struct TableScriptError {
    int line = 0;      // the record's line (1-based, blank lines counted)
    std::string code;  // GAME-RECORD's refusal code
    std::string message;
};

struct TableScript {
    std::vector<TraceLine> lines;
    std::optional<TableScriptError> error;  // the record's first illegal line: no lines then
};

// Never throws but std::bad_alloc.
TableScript tableScriptFromRecord(std::string_view recordText, const TableScriptOptions& options = {});

// Where a character at engine place `p` stands on the board, as a
// GAME-RECORD place name ("0".."6", "wc3", "dungeon1"; the royal couple's
// first King stands on the throne, "6"); nothing for the box and the reserve.
std::optional<std::string> boardPlaceName(engine::Place p);

}  // namespace vivaref::trace
