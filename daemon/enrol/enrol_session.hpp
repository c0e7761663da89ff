// An Enrolment driven by a castle. On the simulated castle nobody can put a
// tag down, so a demo player does: for each character asked for it puts that
// character's tag on the enrolment place (the character's enrolled tag if it
// has one, else simulatedTagUid(slug)) and lifts it once it is taken; the
// whole run takes a few seconds of virtual time and no real time. On the
// real castle a person puts the tags, every reader is scanned in turn, Enter
// skips the character asked for and q stops.
#pragma once

#include <functional>

#include "daemon/config/castle_config.hpp"
#include "daemon/enrol/enrolment.hpp"
#include "drivers/sensing/scan_scheduler.hpp"

namespace vivaref::hardware {
class RealReaders;
}

namespace vivaref::enrol {

using hardware::RealReaders;

using EventSink = std::function<void(const EnrolmentEvent&)>;

// Returns false if a character was still asked for after kSimulatedPatience
// of virtual time (a bug: the demo player's tag should always be taken).
bool runSimulated(Enrolment& enrolment, const config::CastleConfig& castle,
                  const drivers::TagRegistry& existing, const EventSink& sink);

inline constexpr Timestamp kSimulatedPatience{10'000};

// Until every character has been asked for or the person types q; real
// time, readers in turn with `backoff` for failing ones. Returns false when
// stopped with q.
bool runReal(Enrolment& enrolment, RealReaders& readers, const drivers::BackoffPolicy& backoff,
             const EventSink& sink);

}  // namespace vivaref::enrol
