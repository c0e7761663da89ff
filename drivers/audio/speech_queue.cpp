#include "drivers/audio/speech_queue.hpp"

#include <algorithm>
#include <utility>

namespace vivaref::drivers {

const char* speechFateName(SpeechFate fate) {
    switch (fate) {
        case SpeechFate::Spoken:
            return "spoken";
        case SpeechFate::Dropped:
            return "dropped";
        case SpeechFate::Replaced:
            return "replaced";
        case SpeechFate::Cancelled:
            return "cancelled";
        case SpeechFate::Muted:
            return "muted";
        case SpeechFate::Failed:
            return "failed";
    }
    return "?";
}

SpeechReport unspokenReport(QueuedSpeech queued, SpeechFate fate, std::chrono::microseconds at) {
    SpeechReport report;
    report.id = queued.id;
    report.line = std::move(queued.line);
    report.queuedAt = queued.queuedAt;
    report.endedAt = at;
    report.fate = fate;
    return report;
}

SpeechQueue::SpeechQueue(std::size_t capacity) : capacity_(std::max<std::size_t>(capacity, 1)) {}

SpeechId SpeechQueue::push(SpeechLine line, std::chrono::microseconds now, std::vector<SpeechReport>& ended) {
    if (!line.key.name.empty()) {
        auto sameKey = [&](const QueuedSpeech& queued) { return queued.line.key == line.key; };
        for (auto it = waiting_.begin(); it != waiting_.end();) {
            if (sameKey(*it)) {
                ended.push_back(unspokenReport(std::move(*it), SpeechFate::Replaced, now));
                it = waiting_.erase(it);
            } else {
                ++it;
            }
        }
    }
    SpeechId id = takeId();
    waiting_.push_back(QueuedSpeech{id, std::move(line), now});
    while (waiting_.size() > capacity_) {
        ended.push_back(unspokenReport(std::move(waiting_.front()), SpeechFate::Dropped, now));
        waiting_.pop_front();
    }
    return id;
}

std::optional<QueuedSpeech> SpeechQueue::pop() {
    if (waiting_.empty()) {
        return std::nullopt;
    }
    QueuedSpeech next = std::move(waiting_.front());
    waiting_.pop_front();
    return next;
}

bool SpeechQueue::cancel(const SpeechKey& key, std::chrono::microseconds now,
                         std::vector<SpeechReport>& ended) {
    if (key.name.empty()) {
        return false;
    }
    bool any = false;
    for (auto it = waiting_.begin(); it != waiting_.end();) {
        if (it->line.key == key) {
            ended.push_back(unspokenReport(std::move(*it), SpeechFate::Cancelled, now));
            it = waiting_.erase(it);
            any = true;
        } else {
            ++it;
        }
    }
    return any;
}

void SpeechQueue::clear(SpeechFate fate, std::chrono::microseconds now, std::vector<SpeechReport>& ended) {
    for (QueuedSpeech& queued : waiting_) {
        ended.push_back(unspokenReport(std::move(queued), fate, now));
    }
    waiting_.clear();
}

}  // namespace vivaref::drivers
