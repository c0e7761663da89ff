#include "daemon/castle/trace_castle.hpp"

#include <utility>

namespace vivaref::castle {

namespace {

// What a scan or reader-fault line says its reader reads.
drivers::ScanResult lineResult(const trace::ScanLine& scan) {
    return drivers::ScanResult(drivers::TagSet(scan.tags.begin(), scan.tags.end()));
}

// "no answer" in its text: the chip did not answer; anything else: garbage.
drivers::ScanResult lineResult(const trace::ReaderFaultLine& fault) {
    const auto kind = fault.what.find("no answer") != std::string::npos ? drivers::ScanErrorKind::NoAnswer
                                                                        : drivers::ScanErrorKind::Protocol;
    return drivers::ScanResult(drivers::ScanError{kind, "reader " + fault.reader.name + ": " + fault.what});
}

}  // namespace

TraceCastle::TraceCastle(drivers::BoardLayout layout, const LoopClock& clock,
                         drivers::SimulatedBoardConfig board)
    : clock_(clock),
      board_(std::move(layout), board),
      scanInterval_(board.scanInterval),
      held_(board_.layout().readerCount()) {}

bool TraceCastle::takes(const trace::TraceInput& input) {
    return !std::holds_alternative<trace::HostLine>(input) &&
           !std::holds_alternative<trace::ButtonLine>(input);
}

std::optional<Timestamp> TraceCastle::nextScanAt() const {
    if (scansGiven_) return std::nullopt;
    return nextScanAt_;
}

Microseconds TraceCastle::step() {
    const auto due = nextScanAt();
    if (!due) return Microseconds::max();
    if (clock_.now() >= *due) {
        const drivers::ReaderIndex reader = nextReader_;
        // The board's generator moves on at every scan, whatever the reader is said to hold.
        const drivers::ScanResult scanned = board_.scan(reader);
        nextReader_ = (nextReader_ + 1) % held_.size();
        nextScanAt_ += scanInterval_;
        sink_->scanned(reader, held_[reader] ? *held_[reader] : scanned);
    }
    return nextScanAt_;
}

void TraceCastle::take(const trace::TraceInput& input) {
    // A scan or reader-fault line: what its reader holds from now on, or one scan of it.
    auto reads = [this](const auto& line) {
        const auto reader = *board_.layout().findReader(line.reader);
        if (!line.once) {
            held_[reader] = lineResult(line);
            return;
        }
        scansGiven_ = true;
        sink_->scanned(reader, lineResult(line));
    };
    if (const auto* put = std::get_if<trace::PutLine>(&input))
        (void)board_.put(put->tag.uid(), put->place);
    else if (const auto* lift = std::get_if<trace::LiftLine>(&input))
        board_.lift(lift->tag.uid());
    else if (const auto* scan = std::get_if<trace::ScanLine>(&input))
        reads(*scan);
    else if (const auto* fault = std::get_if<trace::ReaderFaultLine>(&input))
        reads(*fault);
}

}  // namespace vivaref::castle
