// The simulation rig: a referee trace replayed on a table. It owns the
// table (daemon/table/table.hpp: the sensing pipeline and the referee on one
// clock), a trace castle (daemon/castle/trace_castle.hpp) and the virtual
// clock both run on, and steps the castle itself when `vivaref simulate`
// replays a trace. Live play has no rig: `vivaref serve` starts its castle
// on a table of its own.
//
// It consumes referee trace lines in time order: the clock first runs to the
// line's `t` (every scan the trace castle's board takes before it goes
// through the pipeline into the referee, and the deadlines are honoured
// exactly when due), then the line acts: a put, a lift, a scan or a reader
// fault on the trace castle, a key press or a host request to the table.
// A reader named by a scan line holds that line's tags, exactly, until the
// next scan or reader-fault line names it (a reader-fault: it fails until
// then); the board keeps scanning it on its own schedule, as it does for
// put/lift, and those scans go through the pipeline. The board's schedule is
// its model's (RigOptions::castleModel): round robin, one reader every scan
// interval, each scan into the pipeline; or the castle model, as the
// simulated castle scans, at whole microseconds, its scans fed as a
// castle's (repeats left out) but not recorded. A `once` line is one scan of
// a castle that scans on its own, taken at its `t`: from the first one on,
// the table takes the trace's scans as a live castle's.
//
// The rig records nothing itself: its table tells the observers attached
// (table_observer.hpp) every input it takes, and the trace recorder
// (daemon/table/trace_recorder.hpp) writes the trace beside.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "daemon/castle/trace_castle.hpp"
#include "daemon/referee/referee.hpp"
#include "daemon/store/game_store.hpp"
#include "daemon/table/table.hpp"
#include "daemon/trace/trace_line.hpp"
#include "drivers/sensing/sensing_config.hpp"
#include "drivers/sensing/sensing_pipeline.hpp"
#include "drivers/time/loop_clock.hpp"

namespace vivaref::simulation {

using drivers::Timestamp;

struct RigOptions : table::TableOptions {
    drivers::SimulatedBoardConfig board;
    // The castle's readers and places; none: the standard board (one reader
    // per place, named as the trace format says).
    std::optional<drivers::BoardLayout> layout;
    // finish() runs the clock on past the last input for this long at least
    // (the in-hand grace and a settle), and while the referee still has a
    // deadline, at most `finishLimit`.
    Timestamp settleFor{5000};
    Timestamp finishLimit{60000};
    // The trace speaks for a castle that scans on its own from its first
    // line: the trace castle's board never scans, every scan comes in through
    // scan(), and the ones that only repeat the last are left out. A trace's
    // first `once` line puts the rig in the same mode.
    bool castleScans = false;
    // How the trace castle scans a board's trace (its puts, lifts and plain
    // scan lines; daemon/castle/trace_castle.hpp). None: round robin, one
    // reader every `board.scanInterval`, each scan into the pipeline (the
    // library's default; old traces' exact timing). Set: the castle model,
    // as a simulated castle with these options scans (its board is
    // `board`'s); its scans are fed as a castle's are (the repeats left out,
    // the pipeline's own deadlines honoured exactly when due) but not
    // recorded: the trace's puts and lifts are the record. `vivaref
    // simulate` sets it (`--board=castle`, its default).
    std::optional<castle::SimulatedCastleOptions> castleModel;
    // Called with each public notice of the referee as it comes (else they are dropped).
    std::function<void(const referee::Notice&)> onNotice;
    // Called with each scan of each reader as the table gets it.
    std::function<void(drivers::ReaderIndex, const drivers::ScanResult&, Timestamp)> onRawScan;
};

using RigCounters = table::TableCounters;

class SimulationRig final : private castle::CastleSink {
public:
    // `store` may be null (no log); otherwise it must outlive the rig. The
    // referee logs its decisions there; the trace is the recorder's, which
    // the caller attaches (attach()).
    // Throws std::invalid_argument on contradictory sensing or board knobs.
    SimulationRig(RigOptions options, store::GameStore* store);
    // Its trace castle runs on its own clock.
    SimulationRig(const SimulationRig&) = delete;
    SimulationRig& operator=(const SimulationRig&) = delete;

    // Tells `observer` what the table does from now on (table_observer.hpp),
    // after the observers attached before it. It must outlive the rig.
    void attach(table::TableObserver& observer) { table_.attach(observer); }

    // Runs the clock to line.t (not before the current time), then applies
    // the line and tells the observers. A sentence for a line the board
    // cannot take (trace::lineProblem, daemon/trace/trace_check.hpp: then
    // nothing is applied, but time has passed).
    std::optional<std::string> consume(const trace::TraceLine& line);

    // One scan of the castle's, at `at` (not before the current time): the
    // clock runs to `at`, then the scan goes into the table
    // (table::Table::scanAt: a castle's own scans leave out the repeats and
    // the observers hear of each; a board's every scan goes in, and the
    // observers hear only of the trace's lines).
    void scan(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at);

    // When runUntil() last handled something due (a scan of the trace
    // castle's board, a stability window or in-hand grace ending, a referee deadline).
    std::optional<Timestamp> lastDueAt() const { return table_.lastDueAt(); }

    // The referee's answer to the host line the last consume() applied
    // (nothing when that line was not a host request).
    const std::optional<referee::HostAnswer>& lastHostAnswer() const { return lastHostAnswer_; }

    // Gives a setup's custom roster characters their simulated tags (a
    // new-game line does it itself; a game resumed from the log needs it).
    void enrolSetup(const nlohmann::json& setup) { table_.enrolSetup(setup); }

    // Time passes with no input: everything due strictly before `end` (the
    // trace castle's board scans, the table's deadlines).
    void runUntil(Timestamp end);
    // After the last line: runs on until the referee is settled (bounded by
    // the options), and returns the clock.
    Timestamp finish();

    Timestamp now() const { return table_.now(); }
    table::Table& table() { return table_; }
    const table::Table& table() const { return table_; }
    referee::Referee& referee() { return table_.referee(); }
    const referee::Referee& referee() const { return table_.referee(); }
    const drivers::BoardLayout& layout() const { return castle_.layout(); }
    // The trace castle's board: its tags, faults and noise.
    drivers::SimulatedBoard& board() { return castle_.board(); }
    const drivers::SensingPipeline& pipeline() const { return table_.pipeline(); }
    const RigCounters& counters() const { return table_.counters(); }
    const RigOptions& options() const { return options_; }

private:
    // The trace castle's: a scan at the castle clock's now.
    void scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result) override;
    void pressed(drivers::StationId /*station*/, drivers::VoteKey /*key*/) override {}
    void problem(const std::string& /*message*/) override {}
    void apply(const trace::TraceLine& line, bool once);

    RigOptions options_;
    drivers::ManualClock castleClock_;  // the trace castle's and the table's
    castle::TraceCastle castle_;
    table::Table table_;
    table::TableHooks hooks_;  // the options' onNotice and onRawScan
    std::optional<referee::HostAnswer> lastHostAnswer_;
};

}  // namespace vivaref::simulation
