#include "drivers/sim/simulated_speech.hpp"

#include <algorithm>
#include <utility>

namespace vivaref::drivers {

SimulatedSpeech::SimulatedSpeech(const LoopClock& clock, std::size_t capacity)
    : clock_(clock), queue_(capacity) {}

SpeechId SimulatedSpeech::say(SpeechLine line) {
    auto now = clock_.nowMicros();
    if (!enabled_) {
        SpeechId id = queue_.takeId();
        reports_.push_back(unspokenReport(QueuedSpeech{id, std::move(line), now}, SpeechFate::Muted, now));
        return id;
    }
    return queue_.push(std::move(line), now, reports_);
}

void SimulatedSpeech::cancel(const SpeechKey& key) { queue_.cancel(key, clock_.nowMicros(), reports_); }

void SimulatedSpeech::setVolume(int percent) { volume_ = std::clamp(percent, 0, 100); }

void SimulatedSpeech::setEnabled(bool enabled) {
    enabled_ = enabled;
    if (!enabled) {
        queue_.clear(SpeechFate::Muted, clock_.nowMicros(), reports_);
    }
}

std::vector<SpeechReport> SimulatedSpeech::takeReports() { return std::exchange(reports_, {}); }

bool SimulatedSpeech::speakNext() {
    auto next = queue_.pop();
    if (!next) {
        return false;
    }
    auto now = clock_.nowMicros();
    spoken_.push_back(SpokenLine{next->id, next->line, next->queuedAt, now, volume_});
    SpeechReport report = unspokenReport(std::move(*next), SpeechFate::Spoken, now);
    report.firstSampleAt = now;
    reports_.push_back(std::move(report));
    return true;
}

void SimulatedSpeech::speakAll() {
    while (speakNext()) {
    }
}

}  // namespace vivaref::drivers
