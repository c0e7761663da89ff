// The silent twin of the referee's voice: keeps the same queue as
// EspeakSpeech (drivers/audio/speech_queue.hpp) and records what would have
// been said (text, language, volume, when queued, when spoken), with no
// sound and no thread. Nothing is spoken until the caller says time has
// come: speakNext() speaks the oldest waiting line at the clock's time, so a
// test or the simulated castle decides how long the speaker is busy.
#pragma once

#include <cstddef>
#include <vector>

#include "drivers/audio/speech_out.hpp"
#include "drivers/audio/speech_queue.hpp"
#include "drivers/time/loop_clock.hpp"

namespace vivaref::drivers {

struct SpokenLine {
    SpeechId id = 0;
    SpeechLine line;
    std::chrono::microseconds queuedAt{0};
    std::chrono::microseconds spokenAt{0};
    int volume = 100;
};

class SimulatedSpeech final : public SpeechOut {
public:
    explicit SimulatedSpeech(const LoopClock& clock, std::size_t capacity = SpeechQueue::kDefaultCapacity);

    SpeechId say(SpeechLine line) override;
    void cancel(const SpeechKey& key) override;
    void setVolume(int percent) override;
    void setEnabled(bool enabled) override;
    std::vector<SpeechReport> takeReports() override;

    // Speaks the oldest waiting line now; false when none waits.
    bool speakNext();
    // Speaks every waiting line now, oldest first.
    void speakAll();

    const std::vector<SpokenLine>& spoken() const { return spoken_; }
    const SpeechQueue& queue() const { return queue_; }
    int volume() const { return volume_; }
    bool enabled() const { return enabled_; }

private:
    const LoopClock& clock_;
    SpeechQueue queue_;
    std::vector<SpeechReport> reports_;
    std::vector<SpokenLine> spoken_;
    int volume_ = 100;
    bool enabled_ = true;
};

}  // namespace vivaref::drivers
