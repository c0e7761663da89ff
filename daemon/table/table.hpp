// The table: the sensing pipeline and the referee on one clock, fed by
// whatever castle stands under the board (daemon/castle/castle.hpp). It is
// the castle's sink: `vivaref serve` starts its real or simulated castle on
// it, and every scan and key press goes straight in, stamped at the loop's
// clock; `vivaref simulate` drives the same table from a trace's replay
// (daemon/simulation/simulation_rig.hpp), at the trace's times.
//
// Scans come in two ways (ScanFeed):
// - a castle that scans on its own (a real or simulated castle, a trace's
//   `once` lines): a scan that only repeats the reader's last ones is left
//   out (ScanRuns), and the pipeline's own deadlines (a stability window
//   ending, an in-hand grace) are honoured exactly when due;
// - a replayed board (a board's trace: its puts and lifts) scanned as the
//   simulated castle scans it: the same, but the scans are not recorded
//   (the trace's lines are the record);
// - a replayed board scanned round robin (the old premise): every scan goes
//   in, and the pipeline is updated at each.
//
// The table records nothing itself: it tells its observers
// (table_observer.hpp) what it takes, and the trace recorder
// (trace_recorder.hpp), one of them, writes the game's trace beside, so a
// live game's trace replayed gives the same decisions at the same times.
//
// Time is whatever the caller says: each input comes with its time (live:
// stamp()), and runUntil() runs what is due before a time. Nothing in it
// sleeps or reads a real clock (but TableOptions::onJudged's, for benches).
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

#include "daemon/castle/castle.hpp"
#include "daemon/referee/referee.hpp"
#include "daemon/store/game_store.hpp"
#include "daemon/table/scan_runs.hpp"
#include "daemon/table/table_observer.hpp"
#include "daemon/trace/trace_line.hpp"
#include "drivers/sensing/sensing_config.hpp"
#include "drivers/sensing/sensing_pipeline.hpp"
#include "drivers/time/loop_clock.hpp"

namespace vivaref::table {

struct TableOptions {
    // The table gives the referee its castle's layout (`referee.layout` is
    // overwritten): a real castle's reader names (floor0-a) are found there,
    // so its failing and faulty readers blind their places.
    referee::RefereeOptions referee;
    drivers::SensingConfig sensing;
    // Which tag is which character; none: every slug of both editions by its
    // simulated tag. A new game's custom roster adds its slugs' simulated
    // tags to either.
    std::optional<drivers::TagRegistry> registry;
    // A hardware problem the castle met (a reader failing, a key line
    // unreadable, an LED write failing), for the daemon's log; each distinct
    // message once in a row.
    std::function<void(const std::string&)> onProblem;
    // For benchmarks only: called after each update that holds changes, with
    // the wall time the referee took to judge it (observe(), with any log
    // write) and decide the LEDs (leds()), and how many actions it accepted
    // doing so. The only clock the table reads.
    std::function<void(const drivers::SensingUpdate&, std::chrono::nanoseconds, int accepted)> onJudged;
};

// How the castle's scans come in (see the top of this file).
enum class ScanFeed {
    OwnScans,         // a castle that scans on its own: repeats left out, pipeline deadlines honoured
    OwnScansDerived,  // the same for a replayed board scanned as the simulated castle scans, but not
                      //   told to the observers (not recorded: the trace's puts and lifts are the record)
    EveryScan,        // a replayed board scanned round robin: every scan in, the pipeline updated at each
};

// Counts the table keeps besides the referee's own.
struct TableCounters {
    std::int64_t linesConsumed = 0;           // inputs taken and castle scans taken
    std::int64_t scans = 0;                   // scans through the pipeline
    std::int64_t repeatedScans = 0;           // a castle's scans left out: they only repeated the last ones
    std::int64_t presses = 0;                 // key presses taken
    std::map<std::string, int> hostRefusals;  // refused host requests by code
    std::int64_t ownChance = 0;               // deals and piles the referee made from its own generator
    std::set<std::int64_t> games;             // ids of the games the table played
};

class Table final : public castle::CastleSink {
public:
    // `store` may be null (no log); otherwise it must outlive the table, as
    // `clock` must (the castle's: what stamp() reads). The referee logs its
    // decisions there; the trace is the recorder's, which the caller attaches.
    // Throws std::invalid_argument on contradictory sensing knobs.
    Table(drivers::BoardLayout layout, TableOptions options, store::GameStore* store,
          const drivers::LoopClock& clock, ScanFeed feed = ScanFeed::OwnScans);
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    // Tells `observer` what happens from now on, after the observers
    // attached before it. It must outlive the table.
    void attach(TableObserver& observer) { observers_.push_back(&observer); }

    // --- the castle's sink: at stamp() ---------------------------------------
    void scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result) override;
    void pressed(drivers::StationId station, drivers::VoteKey key) override;
    void problem(const std::string& message) override;

    // --- inputs at a given time (not before now(): what is due before runs first)
    // One scan of one reader, through ScanRuns (own scans) into the pipeline
    // and the referee.
    void scanAt(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at);
    // A vote key pressed: straight to the referee.
    void pressAt(drivers::StationId station, drivers::VoteKey key, Timestamp at);
    // A host request, in its trace line form (what the trace records).
    referee::HostAnswer host(const trace::HostLine& request, Timestamp at);
    // A replayed board's put, lift, scan or reader-fault line, at now(): the
    // observers hear of it (the replay's castle acts on it, not the table).
    void takeBoardLine(const trace::TraceLine& line);
    // Gives a setup's custom roster characters their simulated tags (a
    // new game's request does it itself; a game resumed from the log needs it).
    void enrolSetup(const nlohmann::json& setup);

    ScanFeed feed() const { return feed_; }
    // A trace's first `once` line: the castle scans on its own from now on.
    void setFeed(ScanFeed feed) { feed_ = feed; }

    // --- time -------------------------------------------------------------------
    // The next time something of the table's is due: a pipeline deadline (own
    // scans) or a referee deadline (overdue: now). None: nothing is.
    std::optional<Timestamp> nextDue() const;
    // What is due at `at` (nextDue()), one item: the pipeline first, then the referee.
    void runDue(Timestamp at);
    // Everything due strictly before `end`.
    void runUntil(Timestamp end);
    // Moves now() on to `at` (nothing due before it is run: runUntil first).
    void moveTo(Timestamp at) { now_ = std::max(now_, at); }
    // The time just past the referee's next deadline, the way to run on to a
    // settled referee; none when it has no deadline or keeps one it cannot honour.
    std::optional<Timestamp> pastNextDeadline() const;

    // The time for an input arriving now: the clock's now, a millisecond
    // later when something due at this very millisecond was already run, so
    // that a replay of the recorded trace applies the input after that too,
    // as it happened here.
    Timestamp stamp() const;
    Timestamp now() const { return now_; }
    // When the table last ran something due (a round-robin scan, a pipeline
    // or referee deadline).
    std::optional<Timestamp> lastDueAt() const { return lastDueAt_; }

    referee::Referee& referee() { return referee_; }
    const referee::Referee& referee() const { return referee_; }
    const drivers::BoardLayout& layout() const { return layout_; }
    const drivers::SensingPipeline& pipeline() const { return *pipeline_; }
    const drivers::SensingConfig& sensing() const { return options_.sensing; }
    const TableCounters& counters() const { return counters_; }

private:
    Timestamp catchUp(Timestamp at);
    void sense(Timestamp at);
    void tick(Timestamp at);
    void observe(Timestamp at);
    void drain();
    void tell(const trace::TraceLine& line);
    trace::TraceLine withTableSeats(const trace::TraceLine& line) const;
    void tellChanged();
    std::optional<store::GameId> gameNow();
    void buildPipeline();
    std::optional<Timestamp> sensingDue() const;
    std::optional<Timestamp> refereeDue() const;

    drivers::BoardLayout layout_;
    TableOptions options_;
    const drivers::LoopClock& clock_;
    std::unique_ptr<drivers::SensingPipeline> pipeline_;
    std::set<std::string> enrolled_;  // character slugs with a tag in the registry
    referee::Referee referee_;
    ScanFeed feed_;
    ScanRuns runs_;  // own scans: which only repeat the last ones
    std::vector<TableObserver*> observers_;
    std::string lastProblem_;
    Timestamp now_{0};
    std::optional<Timestamp> lastDueAt_;
    Timestamp lastSenseAt_{-1};
    Timestamp lastTickAt_{-1};
    int ticksAtSameTime_ = 0;
    TableCounters counters_;
};

}  // namespace vivaref::table
