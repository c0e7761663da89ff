// A speaker that comes with the castle: the simulated castle offers its
// silent twin of the referee's voice (drivers/sim/simulated_speech.hpp)
// under the name "speaker" (castle.hpp, offer(); offerOf<SpeakerOffer>), so
// that `serve --hardware=sim` speaks into a recorder with no sound and no
// thread, and the daemon names no simulation class. A real castle offers
// none: serve opens espeak-ng itself when the configuration asks.
#pragma once

#include <string_view>

#include "daemon/castle/castle.hpp"
#include "drivers/audio/speech_out.hpp"

namespace vivaref::castle {

class SpeakerOffer : public CastleOffer {
public:
    static constexpr std::string_view kName = "speaker";

    // Lives as long as the castle. Lines queued are "spoken" at the castle's
    // next step, on its clock (reported Spoken, with no sound).
    virtual drivers::SpeechOut& speaker() = 0;
};

}  // namespace vivaref::castle
