#include "drivers/audio/espeak_speech.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <utility>

#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>

namespace vivaref::drivers {

// One line on its way through espeak: what the sample callback needs.
struct EspeakSpeech::Utterance {
    EspeakSpeech* speech;
    SpeechReport report;
    std::vector<std::int16_t> scaled;
};

namespace {

std::atomic<bool> espeakInUse{false};

// How much espeak synthesises before handing it over (its buffer): the first
// sample's delay grows with it, a smaller one costs more calls.
constexpr int kEspeakChunkMillis = 50;

std::string espeakStatusText(espeak_ng_STATUS status) {
    char text[256] = {};
    espeak_ng_GetStatusCodeMessage(status, text, sizeof text);
    return text;
}

// Players' names come isolated by U+2066..U+2069 (daemon/words): marks for
// the eye that espeak need not see.
std::string withoutIsolates(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        auto byte = [&](std::size_t at) { return static_cast<unsigned char>(text[at]); };
        if (i + 2 < text.size() && byte(i) == 0xE2 && byte(i + 1) == 0x81 && byte(i + 2) >= 0xA6 &&
            byte(i + 2) <= 0xA9) {
            i += 2;
            continue;
        }
        out += text[i];
    }
    return out;
}

// espeak-ng started once for the process (see EspeakSession): how it went.
struct EspeakStart {
    std::string dataPath;
    std::string error;  // empty: started
    int sampleRate = 0;
};

const EspeakStart& startEspeakOnce(const std::string& dataPath) {
    static const EspeakStart started = [&] {
        EspeakStart start{dataPath, {}, 0};
        espeak_ng_InitializePath(dataPath.empty() ? nullptr : dataPath.c_str());
        espeak_ng_ERROR_CONTEXT context = nullptr;
        espeak_ng_STATUS status = espeak_ng_Initialize(&context);
        espeak_ng_ClearErrorContext(&context);
        if (status != ENS_OK) {
            const char* folder = nullptr;
            espeak_Info(&folder);
            start.error = "espeak-ng: does not start (data in " + std::string(folder ? folder : "?") +
                          "): " + espeakStatusText(status);
            return start;
        }
        status = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, kEspeakChunkMillis, nullptr);
        if (status != ENS_OK) {
            start.error = "espeak-ng: no synchronous output: " + espeakStatusText(status);
            return start;
        }
        start.sampleRate = espeak_ng_GetSampleRate();
        return start;
    }();
    return started;
}

}  // namespace

EspeakSpeech::Opened EspeakSpeech::open(const EspeakSpeechConfig& config, const LoopClock& clock) {
    if (espeakInUse.exchange(true)) {
        return Opened{nullptr, "espeak-ng: already speaking for another voice in this process"};
    }
    EspeakSession session(&espeakInUse);
    // espeak-ng would quietly take its default folder instead of a wrong one.
    std::error_code ignored;
    if (!config.dataPath.empty() &&
        !std::filesystem::is_directory(config.dataPath + "/espeak-ng-data", ignored)) {
        return Opened{nullptr, "espeak-ng: no espeak-ng-data folder in \"" + config.dataPath + "\""};
    }
    const EspeakStart& started = startEspeakOnce(config.dataPath);
    if (!started.error.empty()) {
        return Opened{nullptr, started.error};
    }
    if (started.dataPath != config.dataPath) {
        return Opened{nullptr, "espeak-ng: started with the data in \"" + started.dataPath +
                                   "\" for this process, asked for \"" + config.dataPath + "\""};
    }
    espeak_SetSynthCallback([](short* samples, int count, espeak_EVENT* events) {
        return EspeakSpeech::onSamples(samples, count, events);
    });
    int rate = started.sampleRate;
    std::map<SpeechLanguage, std::string> voices;
    std::vector<SpeechLanguage> missing;
    for (const SpeechLanguage& language : config.languages) {
        const espeak_VOICE* voice = nullptr;
        if (!language.tag.empty() && espeak_ng_SetVoiceByName(language.tag.c_str()) == ENS_OK) {
            voice = espeak_GetCurrentVoice();
        }
        if (voice != nullptr && voice->identifier != nullptr) {
            voices[language] = voice->identifier;
        } else {
            missing.push_back(language);
        }
    }
    AlsaPcm::Opened pcm = AlsaPcm::open(config.pcm, config.alsaConfig, static_cast<unsigned>(rate));
    if (!pcm.pcm) {
        return Opened{nullptr, std::move(pcm.error)};
    }
    std::unique_ptr<EspeakSpeech> speech(new EspeakSpeech(
        config, clock, std::move(session), std::move(*pcm.pcm), rate, std::move(voices), std::move(missing)));
    return Opened{std::move(speech), {}};
}

EspeakSpeech::EspeakSpeech(const EspeakSpeechConfig& config, const LoopClock& clock, EspeakSession session,
                           AlsaPcm pcm, int sampleRate, std::map<SpeechLanguage, std::string> voices,
                           std::vector<SpeechLanguage> missing)
    : clock_(clock),
      session_(std::move(session)),
      pcm_(std::move(pcm)),
      sampleRate_(sampleRate),
      voices_(std::move(voices)),
      missingVoices_(std::move(missing)),
      afterFirstSample_(config.afterFirstSample),
      volume_(std::clamp(config.volume, 0, 100)),
      queue_(config.queueCapacity),
      thread_([this] { run(); }) {}

EspeakSpeech::~EspeakSpeech() {
    {
        std::lock_guard lock(mutex_);
        quitting_ = true;
        if (speakingKey_) {
            stopAs_ = SpeechFate::Cancelled;
            stopCurrent_ = true;
        }
        queue_.clear(SpeechFate::Cancelled, clock_.nowMicros(), reports_);
    }
    changed_.notify_all();
    thread_.join();
}

SpeechId EspeakSpeech::say(SpeechLine line) {
    SpeechId id = 0;
    {
        std::lock_guard lock(mutex_);
        auto now = clock_.nowMicros();
        if (!enabled_) {
            id = queue_.takeId();
            reports_.push_back(
                unspokenReport(QueuedSpeech{id, std::move(line), now}, SpeechFate::Muted, now));
            return id;
        }
        id = queue_.push(std::move(line), now, reports_);
    }
    changed_.notify_all();
    return id;
}

void EspeakSpeech::cancel(const SpeechKey& key) {
    std::lock_guard lock(mutex_);
    queue_.cancel(key, clock_.nowMicros(), reports_);
    if (!key.name.empty() && speakingKey_ == key) {
        stopAs_ = SpeechFate::Cancelled;
        stopCurrent_ = true;
    }
}

void EspeakSpeech::setVolume(int percent) { volume_ = std::clamp(percent, 0, 100); }

void EspeakSpeech::setEnabled(bool enabled) {
    std::lock_guard lock(mutex_);
    enabled_ = enabled;
    if (!enabled) {
        queue_.clear(SpeechFate::Muted, clock_.nowMicros(), reports_);
        if (speakingKey_) {
            stopAs_ = SpeechFate::Muted;
            stopCurrent_ = true;
        }
    }
}

std::vector<SpeechReport> EspeakSpeech::takeReports() {
    std::lock_guard lock(mutex_);
    return std::exchange(reports_, {});
}

void EspeakSpeech::waitUntilIdle() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return queue_.empty() && !speakingKey_; });
}

void EspeakSpeech::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return quitting_ || !queue_.empty(); });
        if (quitting_) {
            return;
        }
        QueuedSpeech next = *queue_.pop();
        speakingKey_ = next.line.key;
        stopAs_.reset();
        stopCurrent_ = false;
        lock.unlock();
        SpeechReport report = speak(std::move(next));
        lock.lock();
        if (stopAs_ && report.fate == SpeechFate::Spoken) {
            report.fate = *stopAs_;
        }
        reports_.push_back(std::move(report));
        speakingKey_.reset();
        stopAs_.reset();
        changed_.notify_all();
    }
}

std::optional<std::string> EspeakSpeech::selectVoice(const SpeechLanguage& language) {
    if (voice_ == language) {
        return std::nullopt;
    }
    if (espeak_ng_STATUS status = espeak_ng_SetVoiceByName(language.tag.c_str()); status != ENS_OK) {
        voice_.reset();
        return "espeak-ng: no voice for language \"" + language.tag + "\": " + espeakStatusText(status);
    }
    voice_ = language;
    return std::nullopt;
}

SpeechReport EspeakSpeech::speak(QueuedSpeech queued) {
    Utterance utterance{this, unspokenReport(std::move(queued), SpeechFate::Spoken, {}), {}};
    SpeechReport& report = utterance.report;
    auto fail = [&](std::string error) {
        report.fate = SpeechFate::Failed;
        report.error = std::move(error);
    };
    if (auto error = selectVoice(report.line.language)) {
        fail(std::move(*error));
    } else if (auto notReady = pcm_.prepare()) {
        fail(std::move(*notReady));
    } else {
        std::string text = withoutIsolates(report.line.text);
        espeak_ERROR result = espeak_Synth(text.c_str(), text.size() + 1, 0, POS_CHARACTER, 0,
                                           espeakCHARS_UTF8, nullptr, &utterance);
        if (result != EE_OK && report.fate == SpeechFate::Spoken && !stopCurrent_) {
            fail("espeak-ng: synthesis failed (error " + std::to_string(static_cast<int>(result)) + ")");
        }
        if (stopCurrent_ || report.fate == SpeechFate::Failed) {
            pcm_.drop();
        } else {
            pcm_.drain();
        }
    }
    report.endedAt = clock_.nowMicros();
    return std::move(report);
}

// espeak's synthesis callback, on the voice's thread: hands each chunk to
// ALSA at the volume asked for. Returning 1 stops the synthesis.
int EspeakSpeech::onSamples(short* samples, int count, void* eventList) {
    auto* events = static_cast<espeak_EVENT*>(eventList);
    auto* utterance = static_cast<Utterance*>(events->user_data);
    if (utterance == nullptr) {
        return 0;
    }
    EspeakSpeech& self = *utterance->speech;
    if (self.stopCurrent_) {
        return 1;
    }
    if (samples == nullptr || count <= 0) {
        return 0;
    }
    int volume = self.volume_;
    utterance->scaled.assign(samples, samples + count);
    if (volume != 100) {
        for (std::int16_t& sample : utterance->scaled) {
            sample = static_cast<std::int16_t>(sample * volume / 100);
        }
    }
    bool first = !utterance->report.firstSampleAt;
    if (first) {
        utterance->report.firstSampleAt = self.clock_.nowMicros();
    }
    if (auto error = self.pcm_.write(utterance->scaled.data(), utterance->scaled.size())) {
        utterance->report.fate = SpeechFate::Failed;
        utterance->report.error = std::move(*error);
        return 1;
    }
    if (first && self.afterFirstSample_) {
        self.afterFirstSample_(utterance->report.id);
    }
    return 0;
}

}  // namespace vivaref::drivers
