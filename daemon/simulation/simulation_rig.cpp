#include "daemon/simulation/simulation_rig.hpp"

#include <algorithm>

#include "daemon/trace/trace_check.hpp"

namespace vivaref::simulation {

namespace {

// No layout given: the standard board's.
RigOptions onCastleLayout(RigOptions options) {
    if (!options.layout) options.layout = drivers::standardBoardLayout();
    return options;
}

// The trace castle's board model and its options: the castle model's on the rig's board.
castle::BoardModel boardModel(const RigOptions& options) {
    return options.castleModel ? castle::BoardModel::SimulatedCastle : castle::BoardModel::RoundRobin;
}
castle::SimulatedCastleOptions traceCastleOptions(const RigOptions& options) {
    castle::SimulatedCastleOptions out = options.castleModel.value_or(castle::SimulatedCastleOptions{});
    out.board = options.board;
    return out;
}

// How the table takes the trace castle's scans: a castle's own (the trace
// says so from its first line), the castle model's (taken as a castle's,
// not recorded), or the round-robin board's (every one).
table::ScanFeed firstFeed(const RigOptions& options) {
    if (options.castleScans) return table::ScanFeed::OwnScans;
    return options.castleModel ? table::ScanFeed::OwnScansDerived : table::ScanFeed::EveryScan;
}

}  // namespace

SimulationRig::SimulationRig(RigOptions options, store::GameStore* store)
    : options_(onCastleLayout(std::move(options))),
      castle_(*options_.layout, castleClock_, boardModel(options_), traceCastleOptions(options_)),
      table_(*options_.layout, options_, store, castleClock_, firstFeed(options_)) {
    castle_.start(*this);
    hooks_.onNotice = options_.onNotice;
    hooks_.onRawScan = options_.onRawScan;
    if (hooks_.onNotice || hooks_.onRawScan) table_.attach(hooks_);
}

namespace {

// A `once` scan or reader-fault line: one inventory of a castle that scans on its own.
bool isOnce(const trace::TraceInput& input) {
    if (const auto* scan = std::get_if<trace::ScanLine>(&input)) return scan->once;
    if (const auto* fault = std::get_if<trace::ReaderFaultLine>(&input)) return fault->once;
    return false;
}

// What the trace castle's board stands in for: puts, lifts, and readers' holdings.
bool needsBoard(const trace::TraceInput& input) {
    return std::holds_alternative<trace::PutLine>(input) || std::holds_alternative<trace::LiftLine>(input) ||
           ((std::holds_alternative<trace::ScanLine>(input) ||
             std::holds_alternative<trace::ReaderFaultLine>(input)) &&
            !isOnce(input));
}

}  // namespace

std::optional<std::string> SimulationRig::consume(const trace::TraceLine& line) {
    lastHostAnswer_.reset();
    if (auto problem = trace::lineProblem(layout(), line)) return problem;
    if (table_.feed() == table::ScanFeed::OwnScans && needsBoard(line.input))
        return "this trace records a castle's own scans (\"once\" lines): a put, a lift or a scan "
               "without \"once\" needs the simulated board, which no longer scans";
    // From the first `once` line on the trace speaks for every reader: the
    // board scans nothing more, not even before the line.
    const bool once = isOnce(line.input);
    if (once) table_.setFeed(table::ScanFeed::OwnScans);
    const Timestamp t{line.t};
    runUntil(t);
    table_.moveTo(t);
    apply(line, once);
    return std::nullopt;
}

void SimulationRig::apply(const trace::TraceLine& line, bool once) {
    const Timestamp t = table_.now();
    if (castle::TraceCastle::takes(line.input)) {
        // A put, a lift, what a reader holds (lineProblem() saw the place or
        // the reader), told before it acts; or one scan, which comes back
        // through scanned() at once (the table tells of it, or counts it
        // as a repeat).
        if (!once) table_.takeBoardLine(line);
        castleClock_.set(t);
        castle_.take(line.input);
    } else if (const auto* host = std::get_if<trace::HostLine>(&line.input)) {
        lastHostAnswer_ = table_.host(*host, t);
    } else {
        const auto& button = std::get<trace::ButtonLine>(line.input);
        table_.pressAt(button.station, button.key, t);
    }
}

void SimulationRig::runUntil(Timestamp end) {
    using castle::Microseconds;
    // The castle model's board scans when it does, at whole microseconds:
    // everything is compared in microseconds (a millisecond's due time at its start).
    const Microseconds never = Microseconds::max();
    const Microseconds endAt(end);
    for (;;) {
        const auto due = table_.nextDue();
        const Microseconds dueAt = due ? Microseconds(*due) : never;
        // The trace castle's board scans on its model's schedule; a castle
        // that scans on its own scans when its trace says, and the table
        // honours its own deadlines.
        const Microseconds scanAt =
            table_.feed() == table::ScanFeed::OwnScans ? never : castle_.nextDue().value_or(never);
        // At the same time: a scan (an input) first, then the table's dues.
        if (scanAt < endAt && scanAt <= dueAt) {
            // Its scans come back through scanned().
            castleClock_.set(scanAt);
            (void)castle_.step();
        } else if (dueAt < endAt) {
            table_.runDue(*due);
        } else {
            break;
        }
    }
}

void SimulationRig::scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result) {
    table_.scanAt(reader, result, castleClock_.now());
}

void SimulationRig::scan(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at) {
    const Timestamp t = std::max(at, table_.now());
    runUntil(t);
    table_.scanAt(reader, result, t);
}

Timestamp SimulationRig::finish() {
    const Timestamp settled = table_.now() + options_.settleFor;
    runUntil(settled);
    const Timestamp limit = settled + options_.finishLimit;
    while (const auto next = table_.pastNextDeadline()) {
        if (*next > limit) break;
        runUntil(*next);
    }
    return table_.now();
}

}  // namespace vivaref::simulation
