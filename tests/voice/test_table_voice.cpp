// The table's voice, moment by moment: what is said at a refusal (and never
// once it is repaired), in the table's language, on the silent speaker;
// nothing when off or when the moment is not chosen; a line holding a vote
// or an Ambition card is never said.
#include <vector>

#include <doctest/doctest.h>

#include "daemon/voice/table_voice.hpp"
#include "drivers/sim/simulated_speech.hpp"
#include "tests/referee/referee_table.hpp"

namespace vivaref::voice {
namespace {

using referee::testing::HandTable;
using referee::testing::kClassic4;

// A hand-built table with its voice listening, as serve attaches it.
struct VoiceTable {
    VoiceTable() {
        VoiceSettings on;
        on.enabled = true;
        voice.setSettings(on);
    }
    // The referee's notices since the last hear() go to the voice.
    void hear() {
        for (; heard < t.notices.size(); ++heard) voice.notice(t.notices[heard]);
    }
    std::vector<std::string> texts() const {
        std::vector<std::string> out;
        for (const auto& s : speaker.spoken()) out.push_back(s.line.text);
        return out;
    }

    HandTable t;
    drivers::ManualClock clock;
    drivers::SimulatedSpeech speaker{clock};
    TableVoice voice{t.referee, clock, &speaker};
    std::size_t heard = 0;
};

TEST_CASE("a refusal is said with what to put back, in the table's language") {
    VoiceTable v;
    v.voice.setLanguage("fr");
    v.t.start(kClassic4);
    v.hear();
    v.t.put("dario", "5");
    v.hear();
    REQUIRE(v.voice.pending() == 1);
    v.voice.flush();
    v.speaker.speakAll();
    REQUIRE(v.speaker.spoken().size() == 1);
    const auto& line = v.speaker.spoken()[0].line;
    CHECK(line.key.name == "refusal");
    CHECK(line.language.tag == "fr");
    CHECK(line.text == v.voice.lines().back().text);
    // Why, then what to do, in French, naming the character.
    CHECK(line.text.find("Dario") != std::string::npos);
    CHECK(line.text.find("Pour continuer") != std::string::npos);
    REQUIRE(v.voice.lines().back().says);
    CHECK(v.voice.lines().back().says->code == "referee.refusal-steps");
}

TEST_CASE("a refusal repaired before it was said is never said") {
    VoiceTable v;
    v.t.start(kClassic4);
    v.hear();
    SUBCASE("repaired before the voice's turn came") {
        v.t.put("dario", "5");
        v.t.remove("dario");
        v.hear();
        v.voice.flush();
        v.speaker.speakAll();
        CHECK(v.speaker.spoken().empty());
        CHECK(v.voice.lines().empty());
    }
    SUBCASE("repaired while it waited in the speaker's queue: withdrawn, and the pages told") {
        v.t.put("dario", "5");
        v.hear();
        v.voice.flush();
        REQUIRE(v.speaker.queue().size() == 1);  // queued, not yet spoken
        v.t.remove("dario");
        v.hear();
        v.speaker.speakAll();
        CHECK(v.speaker.spoken().empty());
        const auto reports = v.speaker.takeReports();
        REQUIRE(reports.size() == 1);
        CHECK(reports[0].fate == drivers::SpeechFate::Cancelled);
        REQUIRE(v.voice.lines().size() == 2);
        CHECK(v.voice.lines().back().key == "refusal");
        CHECK_FALSE(v.voice.lines().back().says);  // {"cancel": true} for the pages
        const auto json = v.voice.linesJson();
        CHECK(json["id"] == 2);
        CHECK(json["lines"][1]["cancel"] == true);
    }
    SUBCASE("a refusal said, then repaired, then another: only the new one waits") {
        v.t.put("dario", "5");
        v.hear();
        v.voice.flush();
        v.speaker.speakAll();
        v.t.remove("dario");
        v.t.put("dario", "0");
        v.hear();
        v.voice.flush();
        v.speaker.speakAll();
        CHECK(v.speaker.spoken().size() == 2);
    }
}

TEST_CASE("off, or a moment not chosen: nothing is said") {
    VoiceTable v;
    v.t.start(kClassic4);
    v.hear();
    SUBCASE("off") {
        v.voice.setSettings(VoiceSettings{});  // off by default
        CHECK_FALSE(v.speaker.enabled());
    }
    SUBCASE("refusals not chosen") {
        VoiceSettings settings;
        settings.enabled = true;
        settings.moments.set(VoiceMoment::Refusal, false);
        v.voice.setSettings(settings);
    }
    v.t.put("dario", "5");
    v.hear();
    v.voice.flush();
    v.speaker.speakAll();
    CHECK(v.speaker.spoken().empty());
    CHECK(v.voice.lines().empty());
}

TEST_CASE("the volume goes to the speaker, clamped") {
    VoiceTable v;
    VoiceSettings settings;
    settings.enabled = true;
    settings.volume = 35;
    v.voice.setSettings(settings);
    CHECK(v.speaker.volume() == 35);
    settings.volume = 250;
    v.voice.setSettings(settings);
    CHECK(v.voice.settings().volume == 100);
    CHECK(v.speaker.volume() == 100);
}

TEST_CASE("a message naming a vote or an Ambition card holds a secret, however deep") {
    namespace say = engine::say;
    CHECK_FALSE(
        holdsSecret(engine::Message("event.crowned", {{"character", say::character("dario", "Dario")}})));
    CHECK(holdsSecret(engine::Message("x", {{"card", say::vote(engine::VoteCard::Yes)}})));
    const auto inner =
        engine::Message("y", {{"a", say::list({say::number(1), say::vote(engine::VoteCard::No)})}});
    CHECK(holdsSecret(engine::Message("z", {{"m", say::message(inner)}})));
}

TEST_CASE("a reader that stops answering is said, and withdrawn once every reader answers") {
    VoiceTable v;
    v.voice.setLanguage("it");
    v.t.start(kClassic4);
    v.hear();
    referee::Notice silent;
    silent.kind = "reader-fault";
    silent.says = engine::Message("notice.reader-silent");
    v.voice.notice(silent);
    v.voice.flush();
    REQUIRE(v.speaker.queue().size() == 1);
    CHECK(v.speaker.queue().waiting().front().line.key.name == "reader");
    CHECK(v.speaker.queue().waiting().front().line.text.find("lettore") != std::string::npos);
    referee::Notice back = silent;
    back.says = engine::Message("notice.readers-back");
    v.voice.notice(back);
    CHECK(v.speaker.queue().empty());  // withdrawn before it was said
    CHECK_FALSE(v.voice.lines().back().says);
    CHECK(v.voice.pending() == 0);  // and "every reader answers" is not said
}

TEST_CASE("an order the readers missed: the table hears that it waits for the host") {
    VoiceTable v;
    v.t.start(kClassic4);
    v.hear();
    referee::Notice asked;
    asked.kind = "order-question";
    asked.says = engine::Message("order.question", {{"characters", engine::say::list({})}});
    v.voice.notice(asked);
    v.voice.flush();
    REQUIRE(v.speaker.queue().size() == 1);
    CHECK(v.speaker.queue().waiting().front().line.key.name == "reader");
    CHECK(v.speaker.queue().waiting().front().line.text ==
          "The table waits for the host: the readers missed which piece was put down first.");
}

TEST_CASE("a bot's move, or one chosen from afar, is said for someone to make, and withdrawn once made") {
    struct Plan {
        const char* kind;
        nlohmann::json detail;
        const char* said;
    };
    // A move chosen from afar is a person's: never called a bot's.
    for (const auto& [kind, detail, said] : std::vector<Plan>{
             {"bot-plan",
              {{"seat", 2}, {"action", "place"}, {"character", "dario"}, {"from", nullptr}, {"to", "3"}},
              "Seat 3 (bot) places Dario l'Antiquario on floor 3."},
             {"remote-plan",
              {{"seat", 1}, {"action", "move"}, {"character", "dario"}, {"from", "2"}, {"to", "3"}},
              "Seat 2 (from afar) moves Dario l'Antiquario from floor 2 to floor 3."}}) {
        CAPTURE(kind);
        VoiceTable v;
        v.t.start(kClassic4);
        v.hear();
        referee::Notice plan;
        plan.kind = kind;
        plan.detail = detail;
        v.voice.notice(plan);
        v.voice.flush();
        REQUIRE(v.speaker.queue().size() == 1);
        CHECK(v.speaker.queue().waiting().front().line.text == said);
        referee::Notice accepted;
        accepted.kind = "accepted";
        v.voice.notice(accepted);
        CHECK(v.speaker.queue().empty());
    }
}

TEST_CASE("a teaching table: the first election's rule is said once, in the table's language") {
    VoiceTable v;
    v.voice.setLanguage("de");
    auto answer = v.t.host({{"new-game", {{"setup", kClassic4}, {"teaching", true}}}});
    REQUIRE(answer.ok);
    REQUIRE(v.t.host({{"deal", referee::testing::dealFor(v.t.state(), 7)}}).ok);
    v.t.follow();
    const char* floors[] = {"1", "1", "1", "1", "2", "2", "2", "2", "3", "3", "4", "4"};
    const auto& roster = v.t.state().rules().roster();
    for (int i = 0; i < 12; ++i)
        v.t.put(roster[engine::CharacterId{static_cast<std::uint8_t>(i)}].id, floors[i]);
    v.t.follow();
    v.hear();
    v.voice.flush();
    v.speaker.speakAll();
    const auto before = v.speaker.spoken().size();
    v.t.put("natale", "5");
    v.t.put("natale", "6");
    v.hear();
    v.voice.flush();
    v.speaker.speakAll();
    std::vector<std::string> taught;
    for (std::size_t i = before; i < v.speaker.spoken().size(); ++i)
        if (v.speaker.spoken()[i].line.key.name == "teach") taught.push_back(v.speaker.spoken()[i].line.text);
    REQUIRE(taught.size() == 1);
    CHECK(taught[0].find("Thron") != std::string::npos);
    CHECK(v.voice.lines().back().language == "de");
}

TEST_CASE("a notice to one station is never said") {
    VoiceTable v;
    referee::Notice n;
    n.kind = "refused";
    n.audience = referee::Notice::Audience::Station;
    n.station = 1;
    v.voice.notice(n);
    CHECK(v.voice.pending() == 0);
}

}  // namespace
}  // namespace vivaref::voice
