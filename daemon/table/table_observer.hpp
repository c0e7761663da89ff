// What the table (table.hpp) tells those who watch it: the inputs it takes,
// the castle's scans it takes or leaves out, the chance decisions the
// referee makes from its own generator, the referee's public notices, and
// when what the table shows may have changed. Each is told synchronously,
// with the referee's game at that moment where it matters, before or after
// it acts as each event says; an observer acts on nothing of the table's.
// The trace recorder (trace_recorder.hpp) is one; the table core of `vivaref
// serve` is another (it republishes the status and feeds the host's tag
// enrolment).
#pragma once

#include <functional>
#include <optional>

#include "daemon/referee/referee.hpp"
#include "daemon/store/decision_log.hpp"
#include "daemon/trace/trace_line.hpp"
#include "drivers/rfid/tag_reader.hpp"
#include "drivers/sensing/board_layout.hpp"

namespace vivaref::table {

using drivers::Timestamp;

class TableObserver {
public:
    virtual ~TableObserver() = default;

    // An input the table took, in its trace line form: a key press, a host
    // request, or a replayed board's put, lift, scan or reader-fault line
    // (not a `once` line: that is a castle's scan, told by castleScanned()).
    // Told before the input acts, so that a log writes it in the same
    // transaction as any decision it leads to; a new game's request after it
    // acted, so that `game` is the game it made (when accepted).
    virtual void inputTaken(const trace::TraceLine& /*line*/, std::optional<store::GameId> /*game*/) {}

    // A scan of a castle that scans on its own, at `at`, told before it goes
    // in. `taken`: it goes through the pipeline to the referee; false: it
    // only repeated the reader's last ones (ScanRuns) and is left out.
    virtual void castleScanned(drivers::ReaderIndex /*reader*/, const drivers::ScanResult& /*result*/,
                               Timestamp /*at*/, bool /*taken*/, std::optional<store::GameId> /*game*/) {}

    // A deal or pile the referee made from its own generator, after it made it.
    virtual void ownChance(const referee::OwnChance& /*chance*/, std::optional<store::GameId> /*game*/) {}

    // Every scan of every reader as it arrives, repeats too (the host's tag
    // enrolment reads them).
    virtual void rawScan(drivers::ReaderIndex /*reader*/, const drivers::ScanResult& /*result*/,
                         Timestamp /*at*/) {}

    // A public notice of the referee's, as it comes.
    virtual void notice(const referee::Notice& /*notice*/) {}

    // What the table shows may have changed: the board as sensed changed
    // (an update with changes was judged), the referee spoke publicly, or an
    // input acted. Told after it happened; scans that change nothing and
    // deadlines that decide nothing are not told.
    virtual void tableChanged() {}
};

// An observer made of callbacks, for callers that want one or two events
// (a command's notices on the terminal, a test's raw scans).
struct TableHooks final : TableObserver {
    std::function<void(const referee::Notice&)> onNotice;
    std::function<void(drivers::ReaderIndex, const drivers::ScanResult&, Timestamp)> onRawScan;

    void notice(const referee::Notice& n) override {
        if (onNotice) onNotice(n);
    }
    void rawScan(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at) override {
        if (onRawScan) onRawScan(reader, result, at);
    }
};

}  // namespace vivaref::table
