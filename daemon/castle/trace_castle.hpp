// The castle of a referee trace, as `vivaref simulate` replays it: the
// trace's put, lift, scan and reader-fault lines are what happens on it,
// and it tells its sink what its readers saw, as the real and the simulated
// castle do. A trace is of one of two kinds (daemon/simulation/NOTES.md,
// "Running a trace"):
//
// - a board's trace: tags put on places and lifted (a drivers/sim
//   SimulatedBoard, with its seed); a reader a scan or reader-fault line
//   names reads what the line said (its tags, or a failure) until another
//   names it. The board is scanned by one of two models (BoardModel):
//   - the castle model: as the simulated castle scans (simulated_castle.hpp,
//     the real driver's way for the castle's configuration: the field
//     scheduler's overlapped fields and power-ups, each scan timed as the
//     emulated MFRC522's, a change confirmed out of turn), on a
//     SimulatedCastle of its own on the same layout and clock. Its scans
//     end at whole microseconds (nextDue());
//   - round robin: one reader every scan interval, from t = 0 (the model
//     before issue 32, kept for old traces that need their exact timing);
// - a castle's trace (`once` lines, what `vivaref serve` records): each line
//   is one inventory of a castle that scans on its own, told to the sink
//   when the line is taken; from the first such line on, the board scans
//   nothing (the trace speaks for every reader), in either model.
//
// Time is virtual: take() acts at the clock's now, step() delivers the
// board's scans due now, and nextDue() says when the board is next due
// (a scan, or in the castle model a field's power-up ending), so that the
// caller can run everything else due before it first (the simulation rig,
// daemon/simulation/simulation_rig.hpp).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "daemon/castle/castle.hpp"
#include "daemon/castle/simulated_castle.hpp"
#include "daemon/trace/trace_line.hpp"
#include "drivers/sim/simulated_board.hpp"
#include "drivers/time/loop_clock.hpp"

namespace vivaref::castle {

// How a board's trace is scanned (above).
enum class BoardModel {
    RoundRobin,       // one reader every scan interval
    SimulatedCastle,  // as the simulated castle scans
};

class TraceCastle final : public Castle {
public:
    // Round robin on a board of `board`'s seed and scan interval. `clock`
    // must outlive it.
    TraceCastle(drivers::BoardLayout layout, const drivers::LoopClock& clock,
                drivers::SimulatedBoardConfig board = {});
    // `model`, on a board of `castle.board`'s seed (and scan interval, round
    // robin); the castle model scans as a SimulatedCastle with `castle`.
    TraceCastle(drivers::BoardLayout layout, const drivers::LoopClock& clock, BoardModel model,
                SimulatedCastleOptions castle);

    // Whether a line is the castle's to take: a put, a lift, a scan or a reader fault.
    static bool takes(const trace::TraceInput& input);

    const drivers::BoardLayout& layout() const override;
    void start(CastleSink& sink) override;
    // The board's scans due at the clock's now (round robin: the next
    // reader's, if due; the castle model: what the simulated castle does
    // now), then when the board is next due (Microseconds::max() once the
    // trace gave a `once` line: never).
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

    // When the board is next due, as step() last said (at first: 0); none
    // once the trace gave a `once` line. Round robin: its next scan, at a
    // whole millisecond.
    std::optional<Microseconds> nextDue() const;
    // Whether a `once` line came: the trace speaks for every reader.
    bool scansGiven() const { return scansGiven_; }

    // What a scan or reader-fault line last said `reader` holds; none: the board's own contents.
    const std::optional<drivers::ScanResult>& held(drivers::ReaderIndex reader) const {
        return castle_ ? castle_->held(reader) : held_[reader];
    }
    BoardModel model() const { return castle_ ? BoardModel::SimulatedCastle : BoardModel::RoundRobin; }
    // The tags on the places, their faults and noise.
    drivers::SimulatedBoard& board() { return castle_ ? castle_->board() : *board_; }

private:
    const drivers::LoopClock& clock_;
    CastleSink* sink_ = nullptr;                    // start()'s
    std::unique_ptr<SimulatedCastle> castle_;       // the castle model's; null: round robin
    std::optional<drivers::SimulatedBoard> board_;  // round robin's
    Timestamp scanInterval_;
    std::vector<std::optional<drivers::ScanResult>> held_;  // round robin's
    Microseconds nextDue_{0};
    drivers::ReaderIndex nextReader_ = 0;
    bool scansGiven_ = false;
};

}  // namespace vivaref::castle
