// The score breakdown as GET /api/games/ID sends it (game_archive.cpp) says
// its words as messages beside the English (issue 33): each line's "says",
// a favourite's "where_says", an Ambition, 33 or team pawn line's
// "name_says", an unnamed player's "name_says" (in the standing too); the
// pages render them in their reader's language (web-ui/API.md).
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "daemon/server/game_archive.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"
#include "engine/record/record_replayer.hpp"
#include "engine/record/score_breakdown.hpp"
#include "tests/store/random_game_writer.hpp"

using nlohmann::json;
using vivaref::store::GameStore;
using vivaref::store::testing::ScratchDir;
using vivaref::store::testing::writeRecordedGame;
namespace words = vivaref::words;

namespace {

std::vector<std::string> breakdownRecord(const std::string& name) {
    std::ifstream in(std::filesystem::path(VIVAREF_TEST_RECORDS) / name);
    REQUIRE(in);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// A message the API sent, read back (throws if it is not one).
vivaref::engine::Message said(const json& line, const char* key) {
    INFO(key << " of " << line.dump());
    REQUIRE(line.contains(key));
    return words::messageFromJson(line[key]);
}

}  // namespace

TEST_CASE("the breakdown's words travel as messages beside the English ones") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    const std::vector<std::string> records = {"2024-4-royal-couple-ambition.jsonl", "2024-5-team-pawn.jsonl",
                                              "online-3-rule-33-by-hand.jsonl",
                                              "2024-4-emissary-banished.jsonl"};
    std::set<std::string> kinds;
    for (const auto& record : records) {
        CAPTURE(record);
        // The second player unnamed.
        const auto id = writeRecordedGame(log, breakdownRecord(record), {"Ann", "", "Cleo", "Dario", "Ema"});
        const auto game = vivaref::server::gameJson(log, id);
        REQUIRE(game);
        REQUIRE(game->contains("score_breakdown"));
        for (const auto& round : (*game)["score_breakdown"])
            for (const auto& coronation : round["coronations"]) {
                std::vector<json> sheets(coronation["players"].begin(), coronation["players"].end());
                if (coronation.contains("emissary")) sheets.push_back(coronation["emissary"]);
                for (const auto& sheet : sheets) {
                    // An unnamed player (the second, and those past the names given).
                    const bool unnamed =
                        sheet.contains("player") && (sheet["player"] == 1 || sheet["player"].get<int>() >= 5);
                    CHECK(sheet.contains("name_says") == unnamed);
                    if (unnamed)
                        CHECK(words::Words("de").say(said(sheet, "name_says")) ==
                              "Spieler " + std::to_string(sheet["player"].get<int>() + 1));
                    for (const auto& line : sheet["lines"]) {
                        const std::string kind = line["kind"];
                        kinds.insert(kind);
                        const auto whole = said(line, "says");
                        CHECK(words::Words("fr").sayStrictly(whole) != "");
                        CHECK(words::Words("fr").say(whole) != words::inEnglish(whole));
                        if (kind == "favourite" || kind == "banished") {
                            // The English words of the place are the old "where".
                            CHECK(words::inEnglish(said(line, "where_says")) == line["where"]);
                            if (!line["place"].get<std::string>().starts_with("wc"))  // "WC 3" in both
                                CHECK(words::Words("it").say(said(line, "where_says")) != line["where"]);
                        } else {
                            const auto name = said(line, "name_says");
                            CHECK(words::Words("fr").sayStrictly(name) != "");
                            CHECK(words::Words("fr").say(name) != words::inEnglish(name));
                            if (kind == "ambition")
                                CHECK(name.code == "ambition." + line["ambition_card"].get<std::string>());
                            if (kind == "rule33") CHECK(words::inEnglish(name) == line["name"]);
                        }
                    }
                }
            }
    }
    CHECK(kinds == std::set<std::string>{"favourite", "banished", "ambition", "rule33", "team_pawn"});
}

TEST_CASE("the standing names an unnamed player as a message too") {
    const auto walk = vivaref::record::replayLines(breakdownRecord("2024-3-by-hand.jsonl"));
    REQUIRE(walk.state);
    REQUIRE(walk.state->isOver());
    const auto standing = vivaref::record::standingJson(*walk.state, {"Ann", "", "Cleo"}, words::messageJson);
    REQUIRE(standing.size() == 3);
    for (const auto& entry : standing) {
        INFO(entry.dump());
        CHECK(entry.contains("name_says") == (entry["player"] == 1));
        if (entry["player"] == 1) {
            CHECK(entry["name"] == "Player 2");
            CHECK(words::Words("it").say(said(entry, "name_says")) == "Giocatore 2");
        }
    }
    // Without a way to write messages (the engine's own callers), no says at all.
    CHECK_FALSE(vivaref::record::standingJson(*walk.state, {"Ann", "", "Cleo"})[0].contains("name_says"));
}

TEST_CASE("a record line that does not replay: the review says why as a message (timelineError_says)") {
    std::string text;
    for (const auto& line : breakdownRecord("illegal-floor-full.jsonl")) text += line + "\n";
    const json game = vivaref::server::archiveFromRecord(json::object(), text, {"Ann", "Bob", "Cleo", "Dan"});
    REQUIRE(game.contains("timelineError"));
    const auto why = said(game, "timelineError_says");
    CHECK(why.code == "refusal.floor-full");
    // The English beside it names the line, then says the same refusal.
    const auto english = words::english().say(why);
    CHECK(game["timelineError"].get<std::string>().starts_with("line "));
    CHECK(game["timelineError"].get<std::string>().ends_with(english));
    // And a page in French says it in French.
    CHECK(words::Words("fr").say(why) != english);
}
