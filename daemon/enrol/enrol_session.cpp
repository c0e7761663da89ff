#include "daemon/enrol/enrol_session.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>
#include <thread>

#include "daemon/hardware/real_readers.hpp"
#include "drivers/sim/simulated_board.hpp"

namespace vivaref::enrol {
namespace {

void emit(const EnrolmentEvents& events, const EventSink& sink) {
    for (const auto& e : events) sink(e);
}

// Where the demo player puts tags: an enrolment reader's place if the castle has one, else floor 0.
drivers::PlaceName demoPlace(const drivers::BoardLayout& layout) {
    if (layout.findPlace({std::string(config::kEnrolmentPlace)}))
        return {std::string(config::kEnrolmentPlace)};
    if (layout.findPlace({"0"})) return {"0"};
    return layout.place(0);
}

}  // namespace

bool runSimulated(Enrolment& enrolment, const config::CastleConfig& castle,
                  const drivers::TagRegistry& existing, const EventSink& sink) {
    drivers::SimulatedBoard board(castle.layout(), {.scanInterval = castle.scanInterval, .seed = 1});
    const drivers::PlaceName place = demoPlace(board.layout());
    Timestamp now{0};
    emit(enrolment.start(), sink);
    while (!enrolment.done()) {
        const EnrolCharacter* asked = enrolment.asking();
        const auto known = existing.findCharacter(asked->slug);
        const drivers::TagUid tag = known ? existing.uid(*known) : drivers::simulatedTagUid(asked->slug.name);
        (void)board.put(tag, place);  // the place comes from the layout itself
        const Timestamp deadline = now + kSimulatedPatience;
        while (enrolment.asking() == asked && now < deadline) {
            now += castle.scanInterval;
            for (const auto& scan : board.advanceTo(now))
                emit(enrolment.onScan(board.layout().reader(scan.reader).name, scan.result, scan.at), sink);
        }
        if (enrolment.asking() == asked) return false;
        board.lift(tag);
    }
    return true;
}

bool runReal(Enrolment& enrolment, RealReaders& readers, const drivers::BackoffPolicy& backoff,
             const EventSink& sink) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    auto now = [&] { return std::chrono::duration_cast<Timestamp>(Clock::now() - start); };
    // Readers take turns; one that keeps failing is tried less often, so a
    // dead reader (a PN532's hand-shake takes up to a second) does not slow the others.
    drivers::ScanScheduler scheduler(readers.size(), backoff);
    for (std::size_t i = 0; i < readers.size(); ++i) {
        if (auto failure = readers.initialize(i)) {
            scheduler.reportFailure(i, now());
            emit(enrolment.onScan(readers[i].name(), *failure, now()), sink);
        }
    }
    bool keyboard = true;  // until standard input ends
    emit(enrolment.start(), sink);
    while (!enrolment.done()) {
        if (const auto next = scheduler.next(now())) {
            auto& reader = readers[*next];
            drivers::ScanResult result = drivers::TagSet{};
            if (auto ec = reader.antennaOn()) {
                result = drivers::ScanError{drivers::ScanErrorKind::Bus,
                                            "reader " + reader.name() + ": antenna on: " + ec.message()};
            } else {
                // ISO/IEC 14443-3 §5.2.4: tags need up to 5 ms in the field before they answer
                // (NFC Forum readers wait 5.1 ms).
                std::this_thread::sleep_for(std::chrono::microseconds(5100));
                result = reader.scan();
                (void)reader.antennaOff();
            }
            if (result.ok()) {
                scheduler.reportSuccess(*next);
            } else {
                scheduler.reportFailure(*next, now());
                (void)readers.initialize(*next);  // a reset or replugged chip may answer on its next turn
            }
            emit(enrolment.onScan(reader.name(), result, now()), sink);
        } else {
            std::this_thread::sleep_for(std::min(scheduler.nextReadyAt() - now(), Timestamp(50)));
        }
        pollfd in{STDIN_FILENO, POLLIN, 0};
        if (keyboard && ::poll(&in, 1, 0) > 0) {
            std::string line;
            if (!std::getline(std::cin, line)) {
                keyboard = false;
            } else if (line == "q") {
                return false;
            } else {
                emit(enrolment.skip(), sink);
            }
        }
    }
    return true;
}

}  // namespace vivaref::enrol
