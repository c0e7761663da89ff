#include "daemon/server/table_loop.hpp"

#include <algorithm>
#include <stdexcept>

namespace vivaref::server {

TableLoop::TableLoop(castle::Castle& castle, TableCore& core, const drivers::LoopClock& clock)
    : castle_(castle), core_(core), clock_(clock) {
    const auto& mine = castle_.layout();
    const auto& tables = core_.table().layout();
    bool same = mine.readerCount() == tables.readerCount();
    for (drivers::ReaderIndex r = 0; same && r < mine.readerCount(); ++r)
        same = mine.reader(r) == tables.reader(r);
    if (!same) throw std::logic_error("table loop: the castle's readers and the table's layout disagree");
}

void TableLoop::start() { castle_.start(core_.table()); }

std::chrono::microseconds TableLoop::step() {
    ++counters_.steps;
    const std::chrono::microseconds castleDue = castle_.step();
    core_.advance();

    const Timestamp now = clock_.now();
    auto& table = core_.table();
    const auto taken = ledOverride_ ? ledOverride_() : std::nullopt;
    castle_.show(taken ? *taken : table.referee().leds(now), now);

    std::chrono::microseconds next = castleDue;
    auto sooner = [&](Timestamp at) { next = std::min<std::chrono::microseconds>(next, at); };
    sooner(now + TableCore::kAdvanceEvery);  // the log's delayed writes and the status's republishing
    if (auto due = table.nextDue()) sooner(*due);
    if (auto led = castle_.nextLedChange()) sooner(*led);
    // The castle may ask for "now" (it has more to do at once: it moves on
    // each time); anything else at least 0.1 ms on, so that a deadline nobody
    // can honour yet never spins the loop.
    const auto soonest = clock_.nowMicros();
    if (castleDue <= soonest) return soonest;
    return std::max(next, soonest + std::chrono::microseconds(100));
}

}  // namespace vivaref::server
