// The castle of a referee trace, as `vivaref simulate` replays it: the
// trace's put, lift, scan and reader-fault lines are what happens on it,
// and it tells its sink what its readers saw, as the real and the simulated
// castle do. A trace is of one of two kinds (daemon/simulation/NOTES.md,
// "Running a trace"):
//
// - a board's trace: tags put on places and lifted (a drivers/sim
//   SimulatedBoard, with its seed), one reader scanned every scan interval,
//   round robin from t = 0; a reader a scan or reader-fault line names
//   reads what the line said (its tags, or a failure) until another names it;
// - a castle's trace (`once` lines, what `vivaref serve` records): each line
//   is one inventory of a castle that scans on its own, told to the sink
//   when the line is taken; from the first such line on, the board scans
//   nothing (the trace speaks for every reader).
//
// Time is virtual: take() acts at the clock's now, step() delivers the
// board's scan due now, and nextScanAt() says when the board scans next,
// so that the caller can run everything else due before it first (the
// simulation rig, daemon/simulation/simulation_rig.hpp).
#pragma once

#include <optional>
#include <vector>

#include "daemon/castle/castle.hpp"
#include "daemon/castle/loop_clock.hpp"
#include "daemon/trace/trace_line.hpp"
#include "drivers/sim/simulated_board.hpp"

namespace vivaref::castle {

class TraceCastle final : public Castle {
public:
    // `clock` must outlive it.
    TraceCastle(drivers::BoardLayout layout, const LoopClock& clock,
                drivers::SimulatedBoardConfig board = {});

    // Whether a line is the castle's to take: a put, a lift, a scan or a reader fault.
    static bool takes(const trace::TraceInput& input);

    const drivers::BoardLayout& layout() const override { return board_.layout(); }
    void start(CastleSink& sink) override { sink_ = &sink; }
    // The board's scan due at the clock's now (the next reader's, round
    // robin), if any; then when the board next scans (Microseconds::max()
    // once the trace gave a `once` line: never).
    Microseconds step() override;
    // A trace has no lights: what the referee decides is only its log's.
    void show(const drivers::LedStates& /*leds*/, Timestamp /*now*/) override {}
    std::optional<Timestamp> nextLedChange() const override { return std::nullopt; }

    // A line the castle takes (takes()), at the clock's now (after start()).
    // A put or a lift moves a tag on the board, a scan or reader-fault line
    // sets what its reader reads from now on; all of them are seen by the
    // readers' next scans. A `once` line is one scan, told to the sink at
    // once. The line's reader and place exist (trace::lineProblem).
    void take(const trace::TraceInput& input);

    // When the board's next scan is due; none once the trace gave a `once` line.
    std::optional<Timestamp> nextScanAt() const;
    // Whether a `once` line came: the trace speaks for every reader.
    bool scansGiven() const { return scansGiven_; }

    // What a scan or reader-fault line last said `reader` holds; none: the board's own contents.
    const std::optional<drivers::ScanResult>& held(drivers::ReaderIndex reader) const {
        return held_[reader];
    }
    // The tags on the places, their faults and noise.
    drivers::SimulatedBoard& board() { return board_; }

private:
    const LoopClock& clock_;
    CastleSink* sink_ = nullptr;  // start()'s
    drivers::SimulatedBoard board_;
    Timestamp scanInterval_;
    std::vector<std::optional<drivers::ScanResult>> held_;
    Timestamp nextScanAt_{0};
    drivers::ReaderIndex nextReader_ = 0;
    bool scansGiven_ = false;
};

}  // namespace vivaref::castle
