// The referee's voice on the Pi's speaker: espeak-ng's library synthesises
// each line (its voices for en, fr, de, it) and the samples go to an ALSA
// PCM opened by name. say() only queues (SpeechQueue: at most three lines,
// the oldest dropped); one thread of its own synthesises and plays, handing
// each chunk to ALSA as espeak makes it, so a line starts before it is all
// synthesised. espeak-ng keeps its state in globals: one EspeakSpeech at a
// time in a process (a second open() is refused until the first is gone).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "drivers/audio/alsa_pcm.hpp"
#include "drivers/audio/speech_out.hpp"
#include "drivers/audio/speech_queue.hpp"
#include "drivers/time/loop_clock.hpp"

namespace vivaref::drivers {

struct EspeakSpeechConfig {
    std::string pcm = "default";  // the ALSA PCM, by name
    // When not empty: the ALSA configuration `pcm` is looked up in instead
    // of the system's (the tests' file and null PCMs; see AlsaPcm::open).
    std::string alsaConfig;
    // The folder holding espeak-ng-data; empty: the library's own. The first
    // open() in a process decides it for the process (see EspeakSession).
    std::string dataPath;
    // The languages the table may speak: open() looks for a voice for each.
    std::vector<SpeechLanguage> languages{{"en"}, {"fr"}, {"de"}, {"it"}};
    std::size_t queueCapacity = SpeechQueue::kDefaultCapacity;
    int volume = 100;
    // How much espeak synthesises before handing it over: the first sample's
    // delay grows with it.
    int chunkMillis = 50;
    // Tests only: runs on the voice's thread just after a line's first
    // samples were handed to ALSA, before the rest is synthesised.
    std::function<void(SpeechId)> afterFirstSample;
};

// The process's one espeak-ng session, held by one EspeakSpeech at a time
// and given back when it ends. espeak-ng itself is started once and never
// terminated: with libespeak-ng 1.51, espeak_ng_Terminate() after a voice
// was chosen, then a second espeak_ng_Initialize(), hangs the next
// terminate (NOTES.md).
struct EspeakRelease {
    void operator()(std::atomic<bool>* inUse) const { inUse->store(false); }
};
using EspeakSession = std::unique_ptr<std::atomic<bool>, EspeakRelease>;

class EspeakSpeech final : public SpeechOut {
public:
    struct Opened;

    // Starts espeak-ng, opens the PCM and starts the voice's thread. A
    // failure is a value saying what and where (espeak-ng-data missing, a
    // PCM that does not open); a language without a voice is not one (see
    // missingVoices()).
    static Opened open(const EspeakSpeechConfig& config, const LoopClock& clock);

    // Stops the line being spoken, reports the waiting ones Cancelled and joins the thread.
    ~EspeakSpeech() override;
    EspeakSpeech(const EspeakSpeech&) = delete;
    EspeakSpeech& operator=(const EspeakSpeech&) = delete;

    SpeechId say(SpeechLine line) override;
    void cancel(const SpeechKey& key) override;
    void setVolume(int percent) override;
    void setEnabled(bool enabled) override;
    std::vector<SpeechReport> takeReports() override;

    // The configured languages espeak-ng has no voice for: their lines Fail.
    const std::vector<SpeechLanguage>& missingVoices() const { return missingVoices_; }
    // The voice espeak-ng chose for each configured language, by its file
    // in espeak-ng-data ("fr": "roa/fr"), for the log.
    const std::map<SpeechLanguage, std::string>& voices() const { return voices_; }
    // espeak-ng's rate, samples a second (22050 with its own voices).
    int sampleRate() const { return sampleRate_; }
    // Blocks until nothing waits and nothing is being spoken (tests, the benchmark).
    void waitUntilIdle();

private:
    struct Utterance;

    EspeakSpeech(const EspeakSpeechConfig& config, const LoopClock& clock, EspeakSession session, AlsaPcm pcm,
                 int sampleRate, std::map<SpeechLanguage, std::string> voices,
                 std::vector<SpeechLanguage> missing);
    static int onSamples(short* samples, int count, void* events);
    void run();
    SpeechReport speak(QueuedSpeech queued);
    std::optional<std::string> selectVoice(const SpeechLanguage& language);

    const LoopClock& clock_;
    EspeakSession session_;
    AlsaPcm pcm_;
    int sampleRate_;
    std::map<SpeechLanguage, std::string> voices_;
    std::vector<SpeechLanguage> missingVoices_;
    std::function<void(SpeechId)> afterFirstSample_;
    std::optional<SpeechLanguage> voice_;  // the voice's thread only

    std::atomic<int> volume_;
    std::atomic<bool> stopCurrent_{false};
    std::mutex mutex_;
    std::condition_variable changed_;
    SpeechQueue queue_;                     // guarded by mutex_
    std::vector<SpeechReport> reports_;     // guarded by mutex_
    std::optional<SpeechKey> speakingKey_;  // guarded by mutex_: the line being spoken
    std::optional<SpeechFate> stopAs_;      // guarded by mutex_: why it is being stopped
    bool enabled_ = true;                   // guarded by mutex_
    bool quitting_ = false;                 // guarded by mutex_
    std::thread thread_;                    // last: started once the rest is ready
};

struct EspeakSpeech::Opened {
    std::unique_ptr<EspeakSpeech> speech;
    std::string error;  // when no speech: what failed, and where
};

}  // namespace vivaref::drivers
