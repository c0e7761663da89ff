// One loop driver for every castle: it steps the castle (castle/castle.hpp)
// and the table core (table_core.hpp) on the loop's clock, and is the
// castle's sink. What the castle saw goes straight to the table: a scan into
// the sensing pipeline and the referee, a key press as a button line; the
// referee's LEDs go back to the castle at every step.
//
// The loop is the caller's: step() does what is due at the clock's now and
// says when it is next due; keyReadable() is called when one of the
// castle's descriptors is readable. `vivaref serve` binds them to a
// steady_timer and stream_descriptors (serve_daemon.cpp); the tests call
// them on a ManualClock.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "daemon/castle/castle.hpp"
#include "daemon/castle/loop_clock.hpp"
#include "daemon/server/table_core.hpp"

namespace vivaref::server {

struct TableLoopOptions {
    // A hardware problem the castle met (a reader failing, a key line
    // unreadable, an LED write failing), for the daemon's log; each distinct
    // message once in a row.
    std::function<void(const std::string&)> onProblem;
};

struct TableLoopCounters {
    std::int64_t steps = 0;
    std::int64_t scans = 0;    // every scan the castle took (ok or failed)
    std::int64_t presses = 0;  // button lines
};

class TableLoop final : private castle::CastleSink {
public:
    // The castle's layout must be the table's rig's. All three must outlive the loop.
    TableLoop(castle::Castle& castle, TableCore& table, const castle::LoopClock& clock,
              TableLoopOptions options = {});

    // Once, before the first step(): the castle speaks to the loop from now
    // on, its readers reset and checked.
    void start();

    // Everything due at the clock's now: the castle's step, the table's
    // deadlines, the LEDs. The next time something is due, in microseconds
    // on the loop's clock.
    std::chrono::microseconds step();

    std::vector<int> keyDescriptors() const { return castle_.keyDescriptors(); }
    bool keyReadable(int fd) { return castle_.keyReadable(fd); }

    const TableLoopCounters& counters() const { return counters_; }

private:
    void scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result) override;
    void pressed(drivers::StationId station, drivers::VoteKey key) override;
    void problem(const std::string& message) override;

    castle::Castle& castle_;
    TableCore& table_;
    const castle::LoopClock& clock_;
    TableLoopOptions options_;
    std::string lastProblem_;
    TableLoopCounters counters_;
};

}  // namespace vivaref::server
