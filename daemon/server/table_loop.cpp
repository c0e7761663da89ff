#include "daemon/server/table_loop.hpp"

#include <algorithm>
#include <stdexcept>

namespace vivaref::server {

TableLoop::TableLoop(castle::Castle& castle, TableCore& table, const castle::LoopClock& clock,
                     TableLoopOptions options)
    : castle_(castle), table_(table), clock_(clock), options_(std::move(options)) {
    const auto& mine = castle_.layout();
    const auto& rigs = table_.rig().layout();
    bool same = mine.readerCount() == rigs.readerCount();
    for (drivers::ReaderIndex r = 0; same && r < mine.readerCount(); ++r)
        same = mine.reader(r) == rigs.reader(r);
    if (!same) throw std::logic_error("table loop: the castle's readers and the table's layout disagree");
}

void TableLoop::start() { castle_.start(*this); }

std::chrono::microseconds TableLoop::step() {
    ++counters_.steps;
    const std::chrono::microseconds castleDue = castle_.step();
    table_.advance();

    const Timestamp now = clock_.now();
    const auto& rig = table_.rig();
    castle_.show(rig.referee().leds(now), now);

    std::chrono::microseconds next = castleDue;
    auto sooner = [&](Timestamp at) { next = std::min<std::chrono::microseconds>(next, at); };
    sooner(now + TableCore::kAdvanceEvery);  // the log's delayed writes and the status's republishing
    if (auto deadline = rig.referee().nextDeadline()) sooner(*deadline);
    if (auto sensing = rig.pipeline().nextDeadline()) sooner(*sensing);
    if (auto led = castle_.nextLedChange()) sooner(*led);
    // The castle may ask for "now" (it has more to do at once: it moves on
    // each time); anything else at least 0.1 ms on, so that a deadline nobody
    // can honour yet never spins the loop.
    const auto soonest = clock_.nowMicros();
    if (castleDue <= soonest) return soonest;
    return std::max(next, soonest + std::chrono::microseconds(100));
}

void TableLoop::scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result) {
    ++counters_.scans;
    table_.scan(reader, result);
}

void TableLoop::pressed(drivers::StationId station, drivers::VoteKey key) {
    // At the loop's time: the trace's lines never go back in time, and
    // `simulate` replays the press exactly when the referee got it.
    ++counters_.presses;
    table_.input(trace::ButtonLine{station, key});
}

void TableLoop::problem(const std::string& message) {
    if (message == lastProblem_) return;
    lastProblem_ = message;
    if (options_.onProblem) options_.onProblem(message);
}

}  // namespace vivaref::server
