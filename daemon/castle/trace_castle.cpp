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

// Round robin's options: only the board's.
SimulatedCastleOptions roundRobinOptions(const drivers::SimulatedBoardConfig& board) {
    SimulatedCastleOptions options;
    options.board = board;
    return options;
}

}  // namespace

TraceCastle::TraceCastle(drivers::BoardLayout layout, const drivers::LoopClock& clock,
                         drivers::SimulatedBoardConfig board)
    : TraceCastle(std::move(layout), clock, BoardModel::RoundRobin, roundRobinOptions(board)) {}

TraceCastle::TraceCastle(drivers::BoardLayout layout, const drivers::LoopClock& clock, BoardModel model,
                         SimulatedCastleOptions castle)
    : clock_(clock), scanInterval_(castle.board.scanInterval) {
    if (model == BoardModel::SimulatedCastle) {
        castle_ = std::make_unique<SimulatedCastle>(std::move(layout), clock, std::move(castle));
    } else {
        board_.emplace(std::move(layout), castle.board);
        held_.resize(board_->layout().readerCount());
    }
}

const drivers::BoardLayout& TraceCastle::layout() const {
    return castle_ ? castle_->layout() : board_->layout();
}

void TraceCastle::start(CastleSink& sink) {
    sink_ = &sink;
    if (castle_) castle_->start(sink);
}

bool TraceCastle::takes(const trace::TraceInput& input) {
    return !std::holds_alternative<trace::HostLine>(input) &&
           !std::holds_alternative<trace::ButtonLine>(input);
}

std::optional<Microseconds> TraceCastle::nextDue() const {
    if (scansGiven_) return std::nullopt;
    return nextDue_;
}

Microseconds TraceCastle::step() {
    if (scansGiven_) return Microseconds::max();
    if (castle_) {
        // Its scans go to the sink from within; until it returns, the board is due now.
        nextDue_ = castle_->step();
        return nextDue_;
    }
    if (clock_.nowMicros() >= nextDue_) {
        const drivers::ReaderIndex reader = nextReader_;
        // The board's generator moves on at every scan, whatever the reader is said to hold.
        const drivers::ScanResult scanned = board_->scan(reader);
        nextReader_ = (nextReader_ + 1) % held_.size();
        nextDue_ += scanInterval_;
        sink_->scanned(reader, held_[reader] ? *held_[reader] : scanned);
    }
    return nextDue_;
}

void TraceCastle::take(const trace::TraceInput& input) {
    // A scan or reader-fault line: what its reader holds from now on, or one scan of it.
    auto reads = [this](const auto& line) {
        const auto reader = *layout().findReader(line.reader);
        if (!line.once) {
            if (castle_)
                castle_->hold(reader, lineResult(line));
            else
                held_[reader] = lineResult(line);
            return;
        }
        scansGiven_ = true;
        sink_->scanned(reader, lineResult(line));
    };
    if (const auto* put = std::get_if<trace::PutLine>(&input))
        (void)board().put(put->tag.uid(), put->place);
    else if (const auto* lift = std::get_if<trace::LiftLine>(&input))
        board().lift(lift->tag.uid());
    else if (const auto* scan = std::get_if<trace::ScanLine>(&input))
        reads(*scan);
    else if (const auto* fault = std::get_if<trace::ReaderFaultLine>(&input))
        reads(*fault);
}

}  // namespace vivaref::castle
