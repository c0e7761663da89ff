// Whole games heard: random 2024 and classic games with a bot seat, played
// on the simulated castle (tests/referee's SimTable) with the table's voice
// listening and the silent speaker recording, in each language. Every
// moment is heard at least once (an election and its outcome, a round's end
// with who leads, the winners, a bot's move), and nothing secret ever is: no
// vote card, no Ambition card, no favourites, in any words, and no line whose
// message names one. Fixed seeds, printed on failure.
#include <algorithm>
#include <cctype>
#include <set>

#include <doctest/doctest.h>

#include "daemon/voice/table_voice.hpp"
#include "daemon/words/catalog.hpp"
#include "drivers/sim/simulated_speech.hpp"
#include "engine/players/player.hpp"
#include "engine/record/line_writer.hpp"
#include "tests/referee/referee_table.hpp"
#include "tests/store/random_game_writer.hpp"

namespace vivaref::voice {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using referee::testing::SimTable;

// The words a secret would be said with in `language`: every vote card and
// Ambition card as the catalog names it, and the favourites card's name.
std::vector<std::string> secretWords(const std::string& language) {
    const words::Words w(language);
    std::vector<std::string> out;
    for (const auto& [code, pattern] : words::findCatalog("en")->patterns())
        if (code.starts_with("vote.") || code.starts_with("ambition.")) out.push_back(w.say(code));
    return out;
}

std::vector<std::string> wordsOf(const std::string& text) {
    std::vector<std::string> out;
    std::string word;
    for (char c : text) {
        if (std::isalpha(static_cast<unsigned char>(c)) || (static_cast<unsigned char>(c) & 0x80)) {
            word += c;
        } else if (!word.empty()) {
            out.push_back(std::move(word));
            word.clear();
        }
    }
    if (!word.empty()) out.push_back(std::move(word));
    return out;
}

std::string lower(std::string text) {
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// The codes the voice may say, and what may be inside them.
const std::set<std::string> kSpoken = {
    "referee.refusal-steps", "event.election-opened", "event.crowned",        "event.not-crowned",
    "voice.round-ended",     "event.round-ended",     "event.game-over",      "event.game-over-emissary",
    "referee.bot-places",    "referee.bot-moves",     "notice.reader-silent", "order.waiting"};

struct Heard {
    std::set<std::string> codes;
    std::vector<std::string> texts;
};

Heard playHeard(const engine::RulesSpec& spec, const std::string& language, std::uint64_t seed) {
    CAPTURE(seed);
    CAPTURE(language);
    store::testing::ScratchDir dir;
    store::GameStore log(dir.file("games.sqlite"), store::GameStore::Access::CreateIfMissing,
                         store::Durability::Normal);
    SimTable t(&log, referee::testing::seeded(seed));
    drivers::ManualClock clock;
    drivers::SimulatedSpeech speaker(clock);
    TableVoice voice(t.referee, clock, &speaker);
    VoiceSettings on;
    on.enabled = true;
    voice.setSettings(on);
    voice.setLanguage(language);
    voice.setPlayerNames([] { return std::vector<std::string>{"Ann", "Bruno"}; });
    std::size_t heard = 0;
    std::uint64_t seen = 0;
    Heard out;
    // The notices so far to the voice, its lines said; each new line checked.
    const auto hear = [&] {
        for (; heard < t.notices.size(); ++heard) voice.notice(t.notices[heard]);
        voice.flush();
        speaker.speakAll();
        for (const auto& line : voice.lines()) {
            if (line.id <= seen) continue;
            seen = line.id;
            if (!line.says) continue;
            INFO("said: " << line.text);
            out.codes.insert(line.says->code);
            CHECK(kSpoken.contains(line.says->code));
            CHECK_FALSE(holdsSecret(*line.says));
        }
    };

    const json setup = json::parse(record::writeSetup(spec)).at("setup");
    const int botSeat = 1;
    auto answer =
        t.host({{"new-game", {{"setup", setup}, {"bots", {{{"seat", botSeat}, {"strength", "casual"}}}}}}});
    REQUIRE_MESSAGE(answer.ok, answer.message);
    engine::Rng rng(seed * 13 + 5);
    for (int steps = 0; !t.state().isOver(); ++steps) {
        REQUIRE(steps < 4000);
        hear();
        const auto& state = t.state();
        auto status = t.referee.publicStatus();
        REQUIRE(status["refusal"].is_null());
        if (status["guidance"].is_object()) {
            t.follow();
            continue;
        }
        const auto phase = state.phase();
        if (phase == engine::Phase::AwaitDeal || phase == engine::Phase::AwaitReshuffle) {
            t.advance(1100ms);  // the referee's own chance
            continue;
        }
        if (const auto& plan = status["bot_plan"]; plan.is_object()) {
            if (plan["action"] == "place")
                t.put(plan["character"], plan["to"]);
            else
                t.move(plan["character"], plan["to"]);
            continue;
        }
        std::vector<engine::Seat> people;
        for (auto s : state.toAct())
            if (s.index != botSeat) people.push_back(s);
        if (people.empty()) {
            t.advance(200ms);  // the bot thinks
            continue;
        }
        const auto seat = people[rng.below(static_cast<std::uint32_t>(people.size()))];
        engine::ActionList legal;
        engine::players::legalActionsOf(state, seat, legal);
        REQUIRE_FALSE(legal.empty());
        const auto action = legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
        if (action.kind() == engine::ActionKind::Pass) {
            t.advance(200ms);  // the referee passes by itself
            continue;
        }
        t.perform(action);
    }
    hear();

    CHECK(voice.secretsWithheld() == 0);
    const auto secrets = secretWords(language);
    for (const auto& s : speaker.spoken()) {
        INFO("said: " << s.line.text);
        out.texts.push_back(s.line.text);
        CHECK(s.line.language.tag == language);
        const auto words = wordsOf(s.line.text);
        for (const auto& secret : secrets) {
            if (secret.find(' ') == std::string::npos)
                CHECK_MESSAGE(std::find(words.begin(), words.end(), secret) == words.end(),
                              "said " << secret);
            else
                CHECK_MESSAGE(s.line.text.find(secret) == std::string::npos, "said " << secret);
        }
        for (const char* favourites : {"favour", "favori", "auftrag", "objectif"})
            CHECK(lower(s.line.text).find(favourites) == std::string::npos);
    }
    return out;
}

TEST_CASE("whole games heard with a bot seat: every moment spoken, nothing secret, in every language") {
    std::set<std::string> codes;
    std::uint64_t seed = 11;
    for (const auto& language : words::shippedLanguages()) {
        auto heard = playHeard(referee::testing::spec2024(4), language, seed++);
        CHECK(heard.texts.size() >= 5);
        // The election's moments, who leads, the winners and the bot's move.
        bool election = false, round = false, winner = false, bot = false;
        for (const auto& l : heard.codes) {
            election =
                election || l == "event.crowned" || l == "event.not-crowned" || l == "event.election-opened";
            round = round || l == "voice.round-ended";
            winner = winner || l.starts_with("event.game-over");
            bot = bot || l.starts_with("referee.bot-");
        }
        codes.insert(heard.codes.begin(), heard.codes.end());
        CHECK(election);
        CHECK(winner);
        CHECK(bot);
        CHECK(round);
    }
    auto classic = playHeard(referee::testing::specOf(engine::Edition::Classic, 5), "it", 31);
    CHECK(classic.texts.size() >= 5);
    codes.insert(classic.codes.begin(), classic.codes.end());
    CHECK(codes.contains("event.election-opened"));
    CHECK(codes.contains("event.crowned"));
}

}  // namespace
}  // namespace vivaref::voice
