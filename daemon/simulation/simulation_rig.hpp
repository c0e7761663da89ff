// The simulation rig: the sensing pipeline and the referee on one clock that
// the caller drives, fed by a castle's scans. Whatever the castle
// (daemon/castle/castle.hpp), each of its scans comes in through scan(): the
// real and the simulated one's from the table loop of `vivaref serve`
// (daemon/server/table_core.hpp), the trace castle's
// (daemon/castle/trace_castle.hpp) from the rig itself, which owns one and
// steps it on its virtual clock when `vivaref simulate` replays a trace.
//
// It consumes referee trace lines in time order: the clock first runs to the
// line's `t` (every scan the trace castle's board takes before it goes
// through the pipeline into the referee, and the deadlines are honoured
// exactly when due), then the line acts: a put, a lift, a scan or a reader
// fault on the trace castle, a key press or a host request to the referee.
// A reader named by a scan line holds that line's tags, exactly, until the
// next scan or reader-fault line names it (a reader-fault: it fails until
// then); the board keeps scanning it on its own schedule, as it does for
// put/lift, and those scans go through the pipeline. The board's schedule is
// its model's (RigOptions::castleModel): round robin, one reader every scan
// interval, each scan into the pipeline; or the castle model, as the
// simulated castle scans, at whole microseconds, its scans fed as a
// castle's (repeats left out) but not recorded. A `once` line is one scan of
// a castle that scans on its own, taken at its `t`.
//
// The rig records nothing itself: it tells its observers (rig_observer.hpp)
// every line it consumes, every scan of a castle that scans on its own it
// takes or leaves out, and every chance decision the referee made from its
// own generator. The game's trace is written beside by one of them, the
// trace recorder (trace_recorder.hpp), which whoever gives the rig a log
// attaches.
//
// Time is whatever the caller says: `vivaref simulate` runs a trace as fast
// as it can, `vivaref serve` advances the same rig on its loop's clock.
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

#include "daemon/castle/loop_clock.hpp"
#include "daemon/castle/trace_castle.hpp"
#include "daemon/referee/referee.hpp"
#include "daemon/simulation/rig_observer.hpp"
#include "daemon/simulation/scan_runs.hpp"
#include "daemon/store/game_store.hpp"
#include "daemon/trace/trace_line.hpp"
#include "drivers/sensing/sensing_config.hpp"
#include "drivers/sensing/sensing_pipeline.hpp"

namespace vivaref::simulation {

using drivers::Timestamp;

struct RigOptions {
    referee::RefereeOptions referee;
    drivers::SimulatedBoardConfig board;
    drivers::SensingConfig sensing;
    // The castle's readers and places; none: the standard board (one reader
    // per place, named as REFEREE-TRACE says). The rig gives the referee
    // this layout (`referee.layout` is overwritten): a real castle's reader
    // names (floor0-a) are found there, so its failing and faulty readers
    // blind their places.
    std::optional<drivers::BoardLayout> layout;
    // Which tag is which character; none: every slug of both editions by its
    // simulated tag. A new game's custom roster adds its slugs' simulated
    // tags to either.
    std::optional<drivers::TagRegistry> registry;
    // finish() runs the clock on past the last input for this long at least
    // (the in-hand grace and a settle), and while the referee still has a
    // deadline, at most `finishLimit`.
    Timestamp settleFor{5000};
    Timestamp finishLimit{60000};
    // The castle scans on its own (a real or simulated castle of `vivaref
    // serve`): the trace castle's board never scans, every scan comes in
    // through scan(), and the ones that only repeat the last are left out. A
    // trace's first `once` line puts the rig in the same mode.
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
    // Called with each scan of each reader as the pipeline gets it (what the
    // trace holds for a reader it speaks for): the host's tag enrolment reads them.
    std::function<void(drivers::ReaderIndex, const drivers::ScanResult&, Timestamp)> onRawScan;
    // For benchmarks only: called after each update that holds changes, with
    // the wall time the referee took to judge it (observe(), with any log
    // write) and decide the LEDs (leds()), and how many actions it accepted
    // doing so. The only clock the rig reads.
    std::function<void(const drivers::SensingUpdate&, std::chrono::nanoseconds, int accepted)> onJudged;
};

// Counts the rig keeps besides the referee's own.
struct RigCounters {
    std::int64_t linesConsumed = 0;           // trace lines consumed and castle scans taken (`once` lines)
    std::int64_t scans = 0;                   // board scans and scan lines through the pipeline
    std::int64_t repeatedScans = 0;           // scans of a castle or the castle model left out: repeats
    std::map<std::string, int> hostRefusals;  // refused host requests by code
    std::int64_t ownChance = 0;               // deals and piles the referee made from its own generator
    std::set<std::int64_t> games;             // ids of the games the trace touched
};

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

    // Tells `observer` what happens from now on (rig_observer.hpp), after
    // the observers attached before it. It must outlive the rig.
    void attach(RigObserver& observer) { observers_.push_back(&observer); }

    // Runs the clock to line.t (not before the current time), then applies
    // the line and tells the observers. A sentence for a line the board
    // cannot take (trace::lineProblem, daemon/trace/trace_check.hpp: then
    // nothing is applied, but time has passed).
    std::optional<std::string> consume(const trace::TraceLine& line);

    // One scan of the castle's, at `at` (not before the current time): the
    // clock runs to `at`, then the scan goes through the pipeline to the
    // referee. A castle that scans on its own (castle mode): a scan that only
    // repeats the reader's last ones is left out (ScanRuns: it would change
    // nothing the pipeline decides, a full window of the same tags or a
    // reader already faulty failing again); the observers hear of each, taken
    // or not (the recorder writes the taken ones as `once` lines, and
    // replaying those gives the pipeline the same scans at the same times).
    // The trace castle's board (a board's trace): every scan goes in, and the
    // observers hear only of the trace's lines (its puts and lifts).
    void scan(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at);

    // When runUntil() last handled something due (a scan of the trace
    // castle's board, a stability window or in-hand grace ending, a referee deadline).
    // An input stamped at or before it would be replayed before that, so a
    // live caller stamps it a millisecond later (TableCore::stamp).
    std::optional<Timestamp> lastDueAt() const { return lastDueAt_; }

    // The referee's answer to the host line the last consume() applied
    // (nothing when that line was not a host request).
    const std::optional<referee::HostAnswer>& lastHostAnswer() const { return lastHostAnswer_; }

    // Gives a setup's custom roster characters their simulated tags (a
    // new-game line does it itself; a game resumed from the log needs it).
    void enrolSetup(const nlohmann::json& setup);

    // Time passes with no input: everything due strictly before `end`.
    void runUntil(Timestamp end);
    // After the last line: runs on until the referee is settled (bounded by
    // the options), and returns the clock.
    Timestamp finish();

    Timestamp now() const { return clock_; }
    referee::Referee& referee() { return referee_; }
    const referee::Referee& referee() const { return referee_; }
    const drivers::BoardLayout& layout() const { return castle_.layout(); }
    // The trace castle's board: its tags, faults and noise.
    drivers::SimulatedBoard& board() { return castle_.board(); }
    const drivers::SensingPipeline& pipeline() const { return *pipeline_; }
    const RigCounters& counters() const { return counters_; }
    const RigOptions& options() const { return options_; }

private:
    // The trace castle's: a scan at the castle clock's now.
    void scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result) override;
    void pressed(drivers::StationId /*station*/, drivers::VoteKey /*key*/) override {}
    void problem(const std::string& /*message*/) override {}
    // The castle model's board scans (RigOptions::castleModel), not yet a castle's own.
    bool derivedScans() const {
        return !castleMode_ && castle_.model() == castle::BoardModel::SimulatedCastle;
    }
    void sense(Timestamp at);
    void tick(Timestamp at);
    void observe(Timestamp at);
    void drain();
    void apply(const trace::TraceLine& line);
    // The referee's game, now that an observer hears of something for it.
    std::optional<store::GameId> gameNow();
    void buildPipeline();

    RigOptions options_;
    castle::ManualClock castleClock_;  // the trace castle's: the rig's clock when it steps it
    castle::TraceCastle castle_;
    std::unique_ptr<drivers::SensingPipeline> pipeline_;
    std::set<std::string> enrolled_;  // character slugs with a tag in the registry
    referee::Referee referee_;
    // Castle mode: the trace castle's board is not scanned, a castle's scans come in.
    bool castleMode_ = false;
    ScanRuns runs_;  // castle mode: which scans only repeat the last ones
    std::vector<RigObserver*> observers_;
    Timestamp clock_{0};
    std::optional<Timestamp> lastDueAt_;
    Timestamp lastSenseAt_{-1};
    Timestamp lastTickAt_{-1};
    int ticksAtSameTime_ = 0;
    RigCounters counters_;
    std::optional<referee::HostAnswer> lastHostAnswer_;
};

}  // namespace vivaref::simulation
