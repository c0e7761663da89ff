// One loop driver for every castle: it steps the castle (castle/castle.hpp)
// and the table core (table_core.hpp) on the loop's clock. The castle is
// started on the table (table/table.hpp), so what it saw goes straight in:
// a scan into the sensing pipeline and the referee, a key press to the
// referee; the referee's LEDs go back to the castle at every step.
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
#include <optional>
#include <vector>

#include "daemon/castle/castle.hpp"
#include "daemon/server/table_core.hpp"
#include "drivers/time/loop_clock.hpp"

namespace vivaref::server {

struct TableLoopCounters {
    std::int64_t steps = 0;
};

class TableLoop final {
public:
    // The table core's table must have been made on the castle's layout. All
    // three must outlive the loop.
    TableLoop(castle::Castle& castle, TableCore& core, const drivers::LoopClock& clock);

    // Once, before the first step(): the castle speaks to the table from now
    // on, its readers reset and checked.
    void start();

    // Everything due at the clock's now: the castle's step, the table's
    // deadlines, the LEDs. The next time something is due, in microseconds
    // on the loop's clock.
    std::chrono::microseconds step();

    std::vector<int> keyDescriptors() const { return castle_.keyDescriptors(); }
    bool keyReadable(int fd) { return castle_.keyReadable(fd); }

    const TableLoopCounters& counters() const { return counters_; }

    // Who takes the LEDs over from the referee for a while (the self-test,
    // host_self_test.hpp): what it returns is shown instead of the
    // referee's; none, the referee's. Unset: always the referee's.
    void setLedOverride(std::function<std::optional<drivers::LedStates>()> override) {
        ledOverride_ = std::move(override);
    }

private:
    castle::Castle& castle_;
    TableCore& core_;
    const drivers::LoopClock& clock_;
    TableLoopCounters counters_;
    std::function<std::optional<drivers::LedStates>()> ledOverride_;
};

}  // namespace vivaref::server
