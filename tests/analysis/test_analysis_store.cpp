// The analysis kept in the game log (schema 2): a log of schema 1 is
// brought up to it with its games; one analysis a finished game, with its
// settings, replaced when made again; never one of a game in progress; and
// a damaged one read back gives a sentence, never a crash.
#include <set>

#include <doctest/doctest.h>
#include <sqlite3.h>

#include "daemon/analysis/analysis_report.hpp"
#include "daemon/store/schema.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"
#include "tests/store/random_game_writer.hpp"

using namespace vivaref;
using namespace vivaref::store;
using namespace vivaref::store::testing;
using nlohmann::json;

namespace {

// The default setup: the classic edition, 4 seats.
const engine::RulesSpec kClassic4{};

// A game cut short after `lines` lines: still in progress.
GameId unfinishedGame(GameStore& log, std::uint64_t seed, std::int64_t lines) {
    return writeRandomGame(
               log, kClassic4, seed,
               [lines](const WriteStatus&, GameId, std::int64_t written) { return written < lines; })
        .id;
}

// The analysis the daemon would keep for game `id`, with a small budget.
json analysed(GameStore& log, GameId id) {
    const auto summary = log.game(id);
    REQUIRE(summary);
    std::string why;
    const auto game = analysis::readLoggedGame(log, *summary, why);
    REQUIRE_MESSAGE(game, why);
    engine::players::AnalysisSettings settings;
    settings.rollouts = 4;
    settings.iterations = 10;
    engine::Rng rng(3);
    const auto result =
        engine::players::analyseGame(engine::State(game->rules), game->decisions, settings, rng);
    return analysis::analysisJson(*game, result, settings, 3, "game " + std::to_string(id.value));
}

const WallTime kAt(std::chrono::milliseconds(1'750'000'000'000));

}  // namespace

TEST_CASE("a log of schema 1 is brought to schema 2: its games kept, the analyses' table added") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    std::vector<std::string> record;
    {
        GameStore log(file, GameStore::Access::CreateIfMissing);
        record = writeRandomGame(log, kClassic4, 11).record;
    }
    {
        // Back to what vivaref wrote before the analyses.
        Database db(file, Database::Mode::ReadWrite);
        // (and before schema 3's club: its tables and columns go too)
        db.exec("DROP TABLE club_outbox; DROP TABLE club_members; DROP INDEX games_uid");
        db.exec("ALTER TABLE games DROP COLUMN uid; ALTER TABLE players DROP COLUMN member");
        db.exec("DROP TABLE analyses");
        db.exec("PRAGMA user_version = 1");
    }
    GameStore log(file, GameStore::Access::MustExist);
    CHECK(schemaVersion() >= 2);
    Database check(file, Database::Mode::ReadWrite);
    CHECK(check.queryInteger("PRAGMA user_version") == schemaVersion());
    CHECK(check.queryInteger("SELECT COUNT(*) FROM sqlite_master WHERE name = 'analyses'") == 1);
    CHECK(log.recordLines(GameId{1}) == record);
    CHECK(log.analyses().awaiting() == std::vector<GameId>{GameId{1}});
}

TEST_CASE("one analysis a finished game, with its settings; made again, it replaces the first") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    const auto id = writeRandomGame(log, kClassic4, 5).id;
    CHECK_FALSE(log.analyses().find(id));
    const json first = analysed(log, id);
    const auto settings = analysis::settingsJson({}, 3).dump();
    REQUIRE(log.analyses().save(id, settings, first.dump(), kAt).durable);
    auto kept = log.analyses().find(id);
    REQUIRE(kept);
    CHECK(kept->game == id);
    CHECK(kept->madeAt == kAt);
    CHECK(json::parse(kept->settings) == json::parse(settings));
    CHECK(json::parse(kept->result) == first);
    CHECK_FALSE(analysis::analysisProblem(json::parse(kept->result)));
    CHECK(log.analyses().awaiting().empty());

    REQUIRE(log.analyses().save(id, "{}", R"({"again": true})", kAt + std::chrono::hours(1)).durable);
    kept = log.analyses().find(id);
    REQUIRE(kept);
    CHECK(kept->result == R"({"again": true})");
    CHECK(kept->madeAt == kAt + std::chrono::hours(1));
    Database db(dir.file("games.sqlite"), Database::Mode::ReadWrite);
    CHECK(db.queryInteger("SELECT COUNT(*) FROM analyses") == 1);
}

TEST_CASE("a game in progress is never analysed: not waiting for one, and none kept for it") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    const auto done = writeRandomGame(log, kClassic4, 1).id;
    const auto playing = unfinishedGame(log, 2, 30);
    const auto alsoDone = writeRandomGame(log, kClassic4, 3).id;
    // Newest first, and only the finished ones.
    CHECK(log.analyses().awaiting() == std::vector<GameId>{alsoDone, done});
    const auto refused = log.analyses().save(playing, "{}", "{}", kAt);
    CHECK_FALSE(refused.durable);
    CHECK(refused.problem.find("still being played") != std::string::npos);
    CHECK_FALSE(log.analyses().find(playing));
    // Once it is over it waits with the others.
    resumeRandomGame(log, playing, 9);
    CHECK(log.analyses().awaiting() == std::vector<GameId>{alsoDone, playing, done});
}

TEST_CASE("a damaged analysis read back is named in a sentence, never a crash") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    const auto id = writeRandomGame(log, kClassic4, 7).id;
    const json good = analysed(log, id);
    REQUIRE_FALSE(analysis::analysisProblem(good));

    auto problemOf = [](const json& a) { return analysis::analysisProblem(a).value_or(""); };
    CHECK(problemOf(json::array()) == "it is not a JSON object");
    json bad = good;
    bad["format"] = 99;
    CHECK(problemOf(bad).find("format") != std::string::npos);
    bad = good;
    bad["decisions"][3]["after"]["win_chance"][1] = 1.7;
    CHECK(problemOf(bad) ==
          "the estimate after decision 4's win_chance holds something other than a chance from 0 to 1");
    bad = good;
    bad["decisions"][2].erase("text");
    CHECK(problemOf(bad) == "decision 3 has no words");
    bad = good;
    bad["swings"][0] = static_cast<int>(good["decisions"].size()) + 1;
    CHECK(problemOf(bad) == "a swing names no decision of the game");
    bad = good;
    bad["players"].push_back("Zed");
    CHECK(problemOf(bad) == "it has no seat for each player");
    bad = good;
    bad["decisions"][0]["swing_player"] = 12;
    CHECK(problemOf(bad) == "decision 1's swing names no player");
    for (auto& d : bad["decisions"])
        if (d.contains("review")) {
            d["review"].erase("gain");
            break;
        }
    bad["decisions"][0]["swing_player"] = 0;
    CHECK(problemOf(bad).find("review is incomplete") != std::string::npos);

    // Text cut anywhere, or bytes changed anywhere, is either refused or
    // still whole: the check never throws.
    const std::string text = good.dump();
    engine::Rng rng(17);
    for (int i = 0; i < 300; ++i) {
        std::string damaged = text;
        if (i % 2)
            damaged.resize(rng.next() % text.size());
        else
            for (int k = 0; k < 4; ++k)
                damaged[rng.next() % damaged.size()] = static_cast<char>(rng.next() % 128);
        const json read = json::parse(damaged, nullptr, false);
        if (read.is_discarded()) continue;
        CHECK_NOTHROW((void)analysis::analysisProblem(read));
    }
}

TEST_CASE("a bot's seat is told from the people's: its choices' reviews say so") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    const auto id = unfinishedGame(log, 12, 2);
    REQUIRE(log.appendRefereeEvent(id, "bots", R"({"seats":[{"seat":1,"strength":"good"}]})", kAt).durable);
    resumeRandomGame(log, id, 13);
    const auto summary = log.game(id);
    std::string why;
    const auto game = analysis::readLoggedGame(log, *summary, why);
    REQUIRE(game);
    CHECK(game->botSeats == std::vector<int>{1});
    const json a = analysed(log, id);
    CHECK(a["bots"] == json::array({1}));
    int bots = 0, people = 0;
    for (const auto& d : a["decisions"]) {
        if (!d.contains("review")) continue;
        const bool bot = d["review"]["bot"].get<bool>();
        CHECK(bot == (d["review"]["seat"] == 1));
        ++(bot ? bots : people);
    }
    CHECK(bots > 5);
    CHECK(people > 15);
    CHECK_FALSE(analysis::analysisProblem(a));
}

TEST_CASE("each decision and each preferred choice says itself as a message, its English beside it") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    const auto id = writeRandomGame(log, kClassic4, 21).id;
    const json a = analysed(log, id);
    REQUIRE_FALSE(analysis::analysisProblem(a));
    std::set<std::string> codes;
    int reviews = 0;
    for (const auto& d : a["decisions"]) {
        INFO(d.dump());
        REQUIRE(d.contains("says"));
        const auto said = words::messageFromJson(d["says"]);
        codes.insert(said.code);
        CHECK(d["text"] == words::inEnglish(said));
        // A French reader is told in French.
        CHECK(words::Words("fr").say(said) != d["text"].get<std::string>());
        if (!d.contains("review")) continue;
        ++reviews;
        const auto preferred = words::messageFromJson(d["review"]["preferred_says"]);
        CHECK(d["review"]["preferred"] == words::inEnglish(preferred));
    }
    CHECK(reviews > 10);
    REQUIRE(a["players_says"].size() == a["players"].size());
    CHECK(words::Words("fr").say(words::messageFromJson(a["players_says"][1])) == "\u2068Bnn\u2069");
    for (const char* code : {"analysis.dealt", "analysis.places", "analysis.moves", "analysis.votes"})
        CHECK_MESSAGE(codes.contains(code), code);
    // The names between isolates, in English as in the message (words.hpp).
    CHECK(a["decisions"][1]["text"].get<std::string>().starts_with("\u2068Ann\u2069 places "));

    // An analysis kept before messages (no says) still reads; a broken one does not.
    json old = a;
    for (auto& d : old["decisions"]) {
        d.erase("says");
        if (d.contains("review")) d["review"].erase("preferred_says");
    }
    CHECK_FALSE(analysis::analysisProblem(old));
    json broken = a;
    broken["decisions"][0]["says"] = json{{"code", 3}};
    CHECK(analysis::analysisProblem(broken).value_or("") == "decision 1's message is not a message");
}
