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
// The timings leave the sensing pipeline time to settle (a scan cycle or
// two and the stability window after a put; past the in-hand grace after a
// tag leaves the board) and keep a move's lift-to-put gap well under the
// in-hand grace. Character tags are named by slug.
#pragma once

#include <cstdint>
#include <optional>
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
    std::int64_t liftGap = 50;     // between the lifts of one tidy-up
    std::int64_t offBoard = 4000;  // after a tag leaves the board: past the in-hand grace, it is gone
    std::int64_t pressGap = 150;   // between vote key presses
};

struct TableScriptOptions {
    TableTiming timing;
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
