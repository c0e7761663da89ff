// The referee's voice: short lines spoken on the table's speaker. The
// caller (the table's loop) only queues; synthesis and playback run on the
// implementation's own thread, so speech never delays a decision, an LED or
// a page. The espeak-ng and ALSA implementation is EspeakSpeech
// (espeak_speech.hpp), the silent twin that records what would have been
// said SimulatedSpeech (drivers/sim/simulated_speech.hpp).
#pragma once

#include <chrono>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vivaref::drivers {

// The language a line is written in, as the catalogs name it: "en", "fr".
struct SpeechLanguage {
    std::string tag;
    friend auto operator<=>(const SpeechLanguage&, const SpeechLanguage&) = default;
};

// What a line is about ("refusal", "election"): a newer line of the same key
// replaces one still waiting, and cancel(key) withdraws it once it is stale
// (a refusal already repaired is not spoken). An empty key is never replaced.
struct SpeechKey {
    std::string name;
    friend auto operator<=>(const SpeechKey&, const SpeechKey&) = default;
};

struct SpeechLine {
    SpeechKey key;
    std::string text;  // UTF-8, one short sentence or two
    SpeechLanguage language;
};

// say()'s number for a line, in the order lines were queued (from 1).
using SpeechId = std::uint64_t;

// How a line ended.
enum class SpeechFate {
    Spoken,     // played to its end
    Dropped,    // pushed out of a full queue by a newer line
    Replaced,   // a newer line of the same key took its place while it waited
    Cancelled,  // withdrawn by cancel(key), waiting or while being spoken
    Muted,      // speech was off when it was queued, or turned off before it was spoken
    Failed,     // the synthesiser or the sound device failed (the report says what and where)
};

const char* speechFateName(SpeechFate fate);

// Times on the caller's clock (LoopClock::nowMicros()).
struct SpeechReport {
    SpeechId id = 0;
    SpeechLine line;
    std::chrono::microseconds queuedAt{0};
    // When its first sample was handed to the sound device; none when no
    // sample was (a line dropped, replaced, cancelled or muted while waiting).
    std::optional<std::chrono::microseconds> firstSampleAt;
    std::optional<std::chrono::microseconds> endedAt;  // when it stopped being spoken
    SpeechFate fate = SpeechFate::Spoken;
    std::string error;  // Failed only: what and where, ready for the log
};

class SpeechOut {
public:
    virtual ~SpeechOut() = default;

    // Queues one line and returns at once, whatever is being spoken.
    virtual SpeechId say(SpeechLine line) = 0;
    // Withdraws the waiting lines of `key`, and stops the one being spoken if
    // it is of `key`. An empty key withdraws nothing.
    virtual void cancel(const SpeechKey& key) = 0;
    // 0 (silent) to 100 (as the synthesiser speaks); clamped.
    virtual void setVolume(int percent) = 0;
    // Off: every waiting line is withdrawn (Muted), the one being spoken
    // stops, and lines queued while off are Muted at once.
    virtual void setEnabled(bool enabled) = 0;
    // How each line ended since the last call, in the order they ended.
    virtual std::vector<SpeechReport> takeReports() = 0;
};

}  // namespace vivaref::drivers
