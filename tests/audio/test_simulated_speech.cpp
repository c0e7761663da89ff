// The silent twin: what would have been said, in what language, when; the
// same queue as the real voice; nothing when off.
#include <doctest/doctest.h>

#include "drivers/sim/simulated_speech.hpp"

namespace vivaref::drivers {

namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

SpeechLine simLine(std::string key, std::string text, std::string language = "fr") {
    return SpeechLine{{std::move(key)}, std::move(text), {std::move(language)}};
}

std::vector<std::string> spokenTexts(const SimulatedSpeech& speech) {
    std::vector<std::string> texts;
    for (const SpokenLine& spoken : speech.spoken()) {
        texts.push_back(spoken.line.text);
    }
    return texts;
}

}  // namespace

TEST_CASE("the twin speaks lines in the order they were queued, with their language and times") {
    ManualClock clock;
    SimulatedSpeech speech(clock);
    clock.set(milliseconds(100));
    SpeechId first = speech.say(simLine("election", "Élection ouverte"));
    clock.set(milliseconds(120));
    speech.say(simLine("", "Der König ist gekrönt", "de"));
    CHECK(speech.spoken().empty());  // nothing is said before the speaker's time comes
    clock.set(milliseconds(500));
    CHECK(speech.speakNext());
    clock.set(milliseconds(900));
    CHECK(speech.speakNext());
    CHECK_FALSE(speech.speakNext());
    REQUIRE(speech.spoken().size() == 2);
    CHECK(speech.spoken()[0].id == first);
    CHECK(speech.spoken()[0].line.language == SpeechLanguage{"fr"});
    CHECK(speech.spoken()[0].queuedAt == milliseconds(100));
    CHECK(speech.spoken()[0].spokenAt == milliseconds(500));
    CHECK(speech.spoken()[1].line.text == "Der König ist gekrönt");
    CHECK(speech.spoken()[1].line.language == SpeechLanguage{"de"});
    CHECK(speech.spoken()[1].spokenAt == milliseconds(900));

    std::vector<SpeechReport> reports = speech.takeReports();
    REQUIRE(reports.size() == 2);
    CHECK(reports[0].fate == SpeechFate::Spoken);
    CHECK(reports[0].firstSampleAt == milliseconds(500));
    CHECK(*reports[0].firstSampleAt - reports[0].queuedAt == milliseconds(400));
    CHECK(speech.takeReports().empty());
}

TEST_CASE("the twin's full queue drops the oldest line, never the newest") {
    ManualClock clock;
    SimulatedSpeech speech(clock, 3);
    for (const char* text : {"un", "deux", "trois", "quatre", "cinq"}) {
        speech.say(simLine("", text));
    }
    speech.speakAll();
    CHECK(spokenTexts(speech) == std::vector<std::string>{"trois", "quatre", "cinq"});
    std::vector<SpeechReport> reports = speech.takeReports();
    REQUIRE(reports.size() == 5);
    CHECK(reports[0].line.text == "un");
    CHECK(reports[0].fate == SpeechFate::Dropped);
    CHECK(reports[1].line.text == "deux");
    CHECK(reports[1].fate == SpeechFate::Dropped);
}

TEST_CASE("a refusal already repaired is not spoken") {
    ManualClock clock;
    SimulatedSpeech speech(clock);
    speech.say(simLine("refusal", "Remettez le Roi au trône"));
    speech.say(simLine("round", "Fin de la manche"));
    speech.cancel(SpeechKey{"refusal"});
    speech.speakAll();
    CHECK(spokenTexts(speech) == std::vector<std::string>{"Fin de la manche"});
    std::vector<SpeechReport> reports = speech.takeReports();
    REQUIRE(reports.size() == 2);
    CHECK(reports[0].fate == SpeechFate::Cancelled);
    CHECK(reports[0].line.text == "Remettez le Roi au trône");
}

TEST_CASE("off, the twin says nothing: waiting lines and new ones are muted") {
    ManualClock clock;
    SimulatedSpeech speech(clock);
    speech.say(simLine("", "avant"));
    speech.setEnabled(false);
    speech.say(simLine("", "pendant"));
    speech.speakAll();
    CHECK(speech.spoken().empty());
    std::vector<SpeechReport> reports = speech.takeReports();
    REQUIRE(reports.size() == 2);
    CHECK(reports[0].fate == SpeechFate::Muted);
    CHECK(reports[1].fate == SpeechFate::Muted);
    CHECK(reports[1].line.text == "pendant");

    speech.setEnabled(true);
    speech.say(simLine("", "après"));
    speech.speakAll();
    CHECK(spokenTexts(speech) == std::vector<std::string>{"après"});
}

TEST_CASE("the twin records the volume each line was spoken at, clamped to 0..100") {
    ManualClock clock;
    SimulatedSpeech speech(clock);
    speech.setVolume(140);
    speech.say(simLine("", "fort"));
    speech.speakNext();
    speech.setVolume(-5);
    speech.say(simLine("", "muet"));
    speech.speakNext();
    REQUIRE(speech.spoken().size() == 2);
    CHECK(speech.spoken()[0].volume == 100);
    CHECK(speech.spoken()[1].volume == 0);
}

}  // namespace vivaref::drivers
