// The trace recorder: each game's trace written to the game log beside the
// simulation rig, by watching it (rig_observer.hpp). The rig drives the
// clock, the castle, the pipeline and the referee; the recorder writes down
// what it consumed and what it took, so that `vivaref simulate` of a game's
// trace (`vivaref trace export`) gives the same decisions at the same times
// as the game did (daemon/simulation/NOTES.md, "Recording"):
//
// - each consumed line, appended to the game the referee had then (a new
//   game's request to the game it made); lines before any game are held for
//   the next game's trace, the oldest dropped past a limit;
// - each scan of a castle that scans on its own that the rig took, as a
//   `once` line (the scans it left out only repeated the last ones);
// - each deal or pile the referee made from its own generator, as the host
//   line that would have made it, so that the trace replays without the seed;
// - when a game starts (or is resumed), after the lines held for it, what
//   each reader held that no held line says: each game replays alone.
//
// Whoever makes a rig with a log attaches one (SimulationRig::attach): the
// table of `vivaref serve`, `vivaref simulate --db`.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/game_store.hpp"
#include "daemon/table/scan_runs.hpp"
#include "daemon/table/table_observer.hpp"
#include "drivers/sensing/sensing_config.hpp"

namespace vivaref::table {

struct RecorderOptions {
    // The rig's sensing knobs: how many alike scans its pipeline's window
    // holds (RigOptions::sensing).
    drivers::SensingConfig sensing;
    // Lines consumed before any game are held for the next game's trace;
    // past this many the oldest are dropped.
    std::size_t heldLinesLimit = 10000;
};

struct RecorderCounters {
    std::int64_t linesWritten = 0;      // appended to a game's trace, the lines of a game's start included
    std::int64_t onceLines = 0;         // castle scans written as `once` lines
    std::int64_t ownChanceLines = 0;    // chance the referee made itself, written as host lines
    std::int64_t heldLinesDropped = 0;  // held past the limit before any game
};

class TraceRecorder final : public TableObserver {
public:
    // `store` must outlive the recorder. `layout`: the rig's board (its readers' names).
    TraceRecorder(store::GameStore& store, drivers::BoardLayout layout, RecorderOptions options = {});

    void inputTaken(const trace::TraceLine& line, std::optional<store::GameId> game) override;
    void castleScanned(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at,
                       bool taken, std::optional<store::GameId> game) override;
    void ownChance(const referee::OwnChance& chance, std::optional<store::GameId> game) override;

    // Lines waiting for a game.
    std::size_t heldLines() const { return heldLines_.size(); }
    const RecorderCounters& counters() const { return counters_; }

    // The `once` line of one castle scan: a `scan` of its tags, or a
    // `reader-fault` whose text reads back as the same kind of failure.
    static trace::TraceLine onceLine(const drivers::ReaderId& reader, const drivers::ScanResult& result,
                                     Timestamp at);

private:
    // `reader`: the reader a scan or reader-fault line names.
    void record(std::optional<store::GameId> game, std::int64_t t, const std::string& text,
                std::optional<drivers::ReaderIndex> reader);
    void writeStart(store::GameId game, std::int64_t t);
    void append(store::GameId game, std::int64_t t, const std::string& text);

    store::GameStore& store_;
    drivers::BoardLayout layout_;
    RecorderOptions options_;
    // A castle's scans came (castle mode): each reader's window is what the
    // runs say; before, what a trace's scan or reader-fault line last said.
    bool castleMode_ = false;
    ScanRuns runs_;
    std::vector<std::optional<trace::TraceInput>> holds_;  // per reader: its last scan or reader-fault line
    struct HeldLine {
        std::int64_t t;
        std::string text;
        std::optional<drivers::ReaderIndex> reader;
    };
    std::deque<HeldLine> heldLines_;  // lines waiting for a game
    std::optional<store::GameId> recordingGame_;
    RecorderCounters counters_;
};

}  // namespace vivaref::table
