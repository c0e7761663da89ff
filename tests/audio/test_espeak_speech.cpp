// The real voice, espeak-ng's library into ALSA, played to ALSA's own file
// PCM (its slave the null PCM): the samples a speaker would have received
// land in a file the test reads back.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <semaphore>

#include <doctest/doctest.h>

#include "drivers/audio/espeak_speech.hpp"
#include "tests/audio/file_pcm.hpp"

namespace vivaref::drivers {

namespace {

namespace fs = std::filesystem;

// A scratch folder for one test's sound file, removed after.
struct ScratchSound {
    fs::path dir;
    ScratchSound() {
        std::string pattern = (fs::temp_directory_path() / "vivaref-voice-XXXXXX").string();
        REQUIRE(::mkdtemp(pattern.data()) != nullptr);
        dir = pattern;
    }
    ~ScratchSound() {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
    }
    fs::path file() const { return dir / "out.raw"; }
};

EspeakSpeechConfig filePcm(const ScratchSound& scratch) {
    EspeakSpeechConfig config;
    config.pcm = testing::kFilePcmName;
    config.alsaConfig = testing::filePcmConfig(scratch.file());
    return config;
}

std::size_t loudSamples(const std::vector<std::int16_t>& samples) {
    std::size_t loud = 0;
    for (std::int16_t sample : samples) {
        loud += (sample > 1000 || sample < -1000) ? 1 : 0;
    }
    return loud;
}

// Speaks one line to the end and returns its report; the speech is closed
// after, so the file PCM has written everything.
SpeechReport speakOnce(EspeakSpeechConfig config, SpeechLine line, int volume = 100) {
    SteadyLoopClock clock;
    config.volume = volume;
    EspeakSpeech::Opened opened = EspeakSpeech::open(config, clock);
    REQUIRE_MESSAGE(opened.speech, opened.error);
    opened.speech->say(std::move(line));
    opened.speech->waitUntilIdle();
    std::vector<SpeechReport> reports = opened.speech->takeReports();
    REQUIRE(reports.size() == 1);
    return reports[0];
}

}  // namespace

TEST_CASE("\"Bonjour\" in French reaches the PCM as sound: 16-bit samples, not silence") {
    ScratchSound scratch;
    SpeechReport report = speakOnce(filePcm(scratch), SpeechLine{{}, "Bonjour", {"fr"}});
    CHECK(report.fate == SpeechFate::Spoken);
    CHECK(report.error.empty());
    REQUIRE(report.firstSampleAt);
    CHECK(*report.firstSampleAt >= report.queuedAt);
    CHECK(*report.endedAt >= *report.firstSampleAt);

    std::vector<std::int16_t> samples = testing::samplesIn(scratch.file());
    INFO("samples written: " << samples.size() << ", loud: " << loudSamples(samples));
    // A spoken word at 22050 Hz: between 0.2 and 3 seconds, a good part of it loud.
    CHECK(samples.size() > 22050 / 5);
    CHECK(samples.size() < 22050 * 3);
    CHECK(loudSamples(samples) > samples.size() / 10);
}

TEST_CASE("at volume 0 the same line is handed over as silence") {
    ScratchSound scratch;
    SpeechReport report = speakOnce(filePcm(scratch), SpeechLine{{}, "Bonjour", {"fr"}}, 0);
    CHECK(report.fate == SpeechFate::Spoken);
    std::vector<std::int16_t> samples = testing::samplesIn(scratch.file());
    CHECK(samples.size() > 22050 / 5);
    CHECK(loudSamples(samples) == 0);
}

TEST_CASE("English, French, German and Italian each have a voice; a language without one fails its lines") {
    ScratchSound scratch;
    EspeakSpeechConfig config = filePcm(scratch);
    config.languages.push_back(SpeechLanguage{"zz"});
    SteadyLoopClock clock;
    EspeakSpeech::Opened opened = EspeakSpeech::open(config, clock);
    REQUIRE_MESSAGE(opened.speech, opened.error);
    CHECK(opened.speech->missingVoices() == std::vector<SpeechLanguage>{{"zz"}});
    // espeak-ng's own voices (Debian's espeak-ng-data), not MBROLA's.
    CHECK(opened.speech->voices() ==
          std::map<SpeechLanguage, std::string>{
              {{"de"}, "gmw/de"}, {{"en"}, "gmw/en"}, {{"fr"}, "roa/fr"}, {{"it"}, "roa/it"}});
    CHECK(opened.speech->sampleRate() > 0);

    for (const char* tag : {"en", "fr", "de", "it", "zz"}) {
        opened.speech->say(SpeechLine{{}, "1 2 3", {tag}});
        opened.speech->waitUntilIdle();
    }
    std::vector<SpeechReport> reports = opened.speech->takeReports();
    REQUIRE(reports.size() == 5);
    for (std::size_t i = 0; i < 4; ++i) {
        CAPTURE(reports[i].line.language.tag);
        CHECK(reports[i].fate == SpeechFate::Spoken);
        CHECK(reports[i].firstSampleAt);
    }
    CHECK(reports[4].fate == SpeechFate::Failed);
    CHECK(reports[4].error.find("no voice for language \"zz\"") != std::string::npos);
    CHECK_FALSE(reports[4].firstSampleAt);
}

TEST_CASE("a PCM that does not exist is an error value naming it") {
    SteadyLoopClock clock;
    EspeakSpeechConfig config;
    config.pcm = "vivaref_no_such_pcm";
    config.alsaConfig = "pcm.vivaref_other { type null }\n";
    EspeakSpeech::Opened opened = EspeakSpeech::open(config, clock);
    CHECK_FALSE(opened.speech);
    CHECK(opened.error.find("ALSA PCM \"vivaref_no_such_pcm\"") != std::string::npos);
    CHECK(opened.error.find("does not open") != std::string::npos);

    config.alsaConfig = "pcm.broken { type";
    opened = EspeakSpeech::open(config, clock);
    CHECK_FALSE(opened.speech);
    CHECK(opened.error.find("does not parse") != std::string::npos);
}

TEST_CASE("a data folder without espeak-ng-data is an error value, not espeak-ng's default taken quietly") {
    ScratchSound scratch;
    SteadyLoopClock clock;
    EspeakSpeechConfig config;
    config.dataPath = scratch.dir.string();
    config.pcm = "vivaref_null";
    config.alsaConfig = "pcm.vivaref_null { type null }\n";
    EspeakSpeech::Opened opened = EspeakSpeech::open(config, clock);
    CHECK_FALSE(opened.speech);
    CHECK(opened.error == "espeak-ng: no espeak-ng-data folder in \"" + scratch.dir.string() + "\"");
}

TEST_CASE("only one voice at a time in a process: a second open is refused, not a crash") {
    SteadyLoopClock clock;
    EspeakSpeechConfig config;
    config.pcm = "vivaref_null";
    config.alsaConfig = "pcm.vivaref_null { type null }\n";
    EspeakSpeech::Opened first = EspeakSpeech::open(config, clock);
    REQUIRE_MESSAGE(first.speech, first.error);
    EspeakSpeech::Opened second = EspeakSpeech::open(config, clock);
    CHECK_FALSE(second.speech);
    CHECK(second.error.find("already") != std::string::npos);
    first.speech.reset();
    EspeakSpeech::Opened third = EspeakSpeech::open(config, clock);
    CHECK_MESSAGE(third.speech, third.error);
}

// The voice's thread is held just after the long line's first samples were
// handed to ALSA, mid-synthesis. If say() waited for synthesis or playback,
// the second say() below could never return (ctest's timeout would fail it).
struct HeldFirstLine {
    std::binary_semaphore reached{0};
    std::binary_semaphore release{0};
    std::atomic<SpeechId> hold{1};  // the first line queued
    void operator()(SpeechId id) {
        if (id == hold) {
            reached.release();
            release.acquire();
        }
    }
};

const char* kLongLine =
    "Die Wahl ist eröffnet. Jeder Spieler legt eine Stimmkarte verdeckt vor sich. "
    "Wenn alle Karten liegen, werden sie gleichzeitig aufgedeckt, und der Kandidat wird König, "
    "wenn niemand mit Nein gestimmt hat.";

TEST_CASE("say() returns while a long line is being synthesised, and lines keep their order") {
    ScratchSound scratch;
    auto held = std::make_shared<HeldFirstLine>();
    EspeakSpeechConfig config = filePcm(scratch);
    config.afterFirstSample = [held](SpeechId id) { (*held)(id); };
    SteadyLoopClock clock;
    EspeakSpeech::Opened opened = EspeakSpeech::open(config, clock);
    REQUIRE_MESSAGE(opened.speech, opened.error);
    EspeakSpeech& speech = *opened.speech;

    SpeechId first = speech.say(SpeechLine{{"election"}, kLongLine, {"de"}});
    REQUIRE(first == held->hold);
    held->reached.acquire();  // the long line is mid-synthesis, its thread held
    SpeechId second = speech.say(SpeechLine{{}, "Ciao", {"it"}});
    SpeechId third = speech.say(SpeechLine{{}, "Hello", {"en"}});
    CHECK(speech.takeReports().empty());  // nothing has ended yet: the calls did not wait
    held->release.release();
    speech.waitUntilIdle();

    std::vector<SpeechReport> reports = speech.takeReports();
    REQUIRE(reports.size() == 3);
    CHECK(reports[0].id == first);
    CHECK(reports[1].id == second);
    CHECK(reports[2].id == third);
    for (const SpeechReport& report : reports) {
        CHECK(report.fate == SpeechFate::Spoken);
    }
    // The second line was queued after the first line's first sample went out.
    CHECK(reports[1].queuedAt >= *reports[0].firstSampleAt);
}

TEST_CASE("while a line is spoken, the real voice's full queue drops the oldest waiting line") {
    ScratchSound scratch;
    auto held = std::make_shared<HeldFirstLine>();
    EspeakSpeechConfig config = filePcm(scratch);
    config.queueCapacity = 2;
    config.afterFirstSample = [held](SpeechId id) { (*held)(id); };
    SteadyLoopClock clock;
    EspeakSpeech::Opened opened = EspeakSpeech::open(config, clock);
    REQUIRE_MESSAGE(opened.speech, opened.error);
    EspeakSpeech& speech = *opened.speech;

    speech.say(SpeechLine{{}, kLongLine, {"de"}});
    held->reached.acquire();
    for (const char* text : {"uno", "due", "tre"}) {
        speech.say(SpeechLine{{}, text, {"it"}});
    }
    std::vector<SpeechReport> dropped = speech.takeReports();
    REQUIRE(dropped.size() == 1);
    CHECK(dropped[0].line.text == "uno");
    CHECK(dropped[0].fate == SpeechFate::Dropped);
    held->release.release();
    speech.waitUntilIdle();

    std::vector<SpeechReport> reports = speech.takeReports();
    REQUIRE(reports.size() == 3);
    CHECK(reports[0].line.text == kLongLine);
    CHECK(reports[1].line.text == "due");
    CHECK(reports[2].line.text == "tre");
    for (const SpeechReport& report : reports) {
        CHECK(report.fate == SpeechFate::Spoken);
    }
}

TEST_CASE("cancelling the key of the line being spoken stops it; turning speech off mutes the rest") {
    ScratchSound scratch;
    auto held = std::make_shared<HeldFirstLine>();
    EspeakSpeechConfig config = filePcm(scratch);
    config.afterFirstSample = [held](SpeechId id) { (*held)(id); };
    SteadyLoopClock clock;
    EspeakSpeech::Opened opened = EspeakSpeech::open(config, clock);
    REQUIRE_MESSAGE(opened.speech, opened.error);
    EspeakSpeech& speech = *opened.speech;

    speech.say(SpeechLine{{"refusal"}, kLongLine, {"de"}});
    held->reached.acquire();
    speech.say(SpeechLine{{"refusal"}, "Noch einmal", {"de"}});  // waits: cancelled with its key
    speech.say(SpeechLine{{"round"}, "Runde vorbei", {"de"}});
    speech.cancel(SpeechKey{"refusal"});
    held->hold = 3;
    held->release.release();
    held->reached.acquire();  // "Runde vorbei" has started
    speech.setEnabled(false);
    speech.say(SpeechLine{{}, "Stumm", {"de"}});
    held->release.release();
    speech.waitUntilIdle();

    std::vector<SpeechReport> reports = speech.takeReports();
    REQUIRE(reports.size() == 4);
    CHECK(reports[0].line.text == "Noch einmal");
    CHECK(reports[0].fate == SpeechFate::Cancelled);
    CHECK_FALSE(reports[0].firstSampleAt);
    CHECK(reports[1].line.text == kLongLine);
    CHECK(reports[1].fate == SpeechFate::Cancelled);
    CHECK(reports[1].firstSampleAt);
    // "Stumm" is muted at once, while "Runde vorbei" is still being stopped.
    CHECK(reports[2].line.text == "Stumm");
    CHECK(reports[2].fate == SpeechFate::Muted);
    CHECK(reports[3].line.text == "Runde vorbei");
    CHECK(reports[3].fate == SpeechFate::Muted);
}

}  // namespace vivaref::drivers
