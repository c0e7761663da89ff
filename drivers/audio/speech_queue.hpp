// The lines waiting to be spoken, shared by EspeakSpeech and SimulatedSpeech
// so that both keep and drop the same lines. Short on purpose: a line that
// waited behind three others is old news at a table, so a full queue drops
// its oldest line. Not thread-safe: EspeakSpeech holds its lock around it.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <optional>
#include <vector>

#include "drivers/audio/speech_out.hpp"

namespace vivaref::drivers {

struct QueuedSpeech {
    SpeechId id = 0;
    SpeechLine line;
    std::chrono::microseconds queuedAt{0};
};

// The report of a line that ends while it waits (never handed to the device).
SpeechReport unspokenReport(QueuedSpeech queued, SpeechFate fate, std::chrono::microseconds at);

class SpeechQueue {
public:
    static constexpr std::size_t kDefaultCapacity = 3;

    explicit SpeechQueue(std::size_t capacity = kDefaultCapacity);

    // Appends a line queued at `now`: a waiting line of the same (non-empty)
    // key is Replaced, then the oldest is Dropped while the queue is over
    // capacity. Those reports are appended to `ended`.
    SpeechId push(SpeechLine line, std::chrono::microseconds now, std::vector<SpeechReport>& ended);
    // The oldest waiting line, taken out.
    std::optional<QueuedSpeech> pop();
    // Withdraws every waiting line of `key` as Cancelled; false when none waited.
    bool cancel(const SpeechKey& key, std::chrono::microseconds now, std::vector<SpeechReport>& ended);
    // Withdraws every waiting line with `fate`.
    void clear(SpeechFate fate, std::chrono::microseconds now, std::vector<SpeechReport>& ended);

    // A number taken without queueing (a line Muted at once).
    SpeechId takeId() { return nextId_++; }

    bool empty() const { return waiting_.empty(); }
    std::size_t size() const { return waiting_.size(); }
    std::size_t capacity() const { return capacity_; }
    const std::deque<QueuedSpeech>& waiting() const { return waiting_; }

private:
    std::size_t capacity_;
    SpeechId nextId_ = 1;
    std::deque<QueuedSpeech> waiting_;
};

}  // namespace vivaref::drivers
