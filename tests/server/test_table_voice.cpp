// The table's language and voice through the host's routes (issue 33):
// POST /api/host/language and /api/host/voice need the host's secret and
// check what they are given; the language goes into the status, GET
// /api/words and the game log (a resumed game takes it back, a finished one
// is reviewed in it); a whole recorded game played through the API with the
// voice on is heard on the simulated castle's speaker and in the "spoken"
// lines the pages speak, in the table's language.
#include <filesystem>

#include <doctest/doctest.h>

#include "daemon/server/api_router.hpp"
#include "daemon/trace/table_script.hpp"
#include "tests/server/table_fixture.hpp"
#include "tests/server/temp_directory.hpp"

using namespace vivaref;
using namespace vivaref::server;
using nlohmann::json;

namespace {

using vivaref::server::testing::readFile;
using vivaref::server::testing::Table;
using vivaref::server::testing::TempDirectory;

// One table-script line as the pages send it (puts, lifts, presses, host requests).
std::pair<std::string, json> voiceApiCall(const trace::TraceLine& line) {
    return std::visit(
        [](const auto& input) -> std::pair<std::string, json> {
            using T = std::decay_t<decltype(input)>;
            if constexpr (std::is_same_v<T, trace::HostLine>) {
                if (input.kind == trace::HostKind::NewGame)
                    return {"/api/host/new-game", {{"setup", input.payload}, {"players", input.players}}};
                return {"/api/host/" + std::string(trace::hostKindName(input.kind)), input.payload};
            } else if constexpr (std::is_same_v<T, trace::PutLine>) {
                return {"/api/sim/put", {{"character", input.tag.text}, {"place", input.place.name}}};
            } else if constexpr (std::is_same_v<T, trace::LiftLine>) {
                return {"/api/sim/lift", {{"character", input.tag.text}}};
            } else if constexpr (std::is_same_v<T, trace::ButtonLine>) {
                return {"/api/sim/press",
                        {{"station", input.station.number}, {"key", drivers::voteKeyName(input.key)}}};
            } else {
                FAIL("a table script holds no scans or faults");
                return {};
            }
        },
        line.input);
}

// The record's game through the API, each call at its time; `between(i)` before line i.
void playThroughApi(Table& t, const char* name, const std::function<void(std::size_t)>& between = {}) {
    const auto script =
        trace::tableScriptFromRecord(readFile(std::filesystem::path(VIVAREF_TEST_RECORDS) / name));
    REQUIRE_FALSE(script.error);
    for (std::size_t i = 0; i < script.lines.size(); ++i) {
        if (between) between(i);
        t.runTo(Timestamp(script.lines[i].t));
        const auto [target, body] = voiceApiCall(script.lines[i]);
        const auto [status, answer] = t.call(http::verb::post, target, body);
        CAPTURE(target);
        CAPTURE(answer.dump());
        REQUIRE(status == 200);
    }
    t.runFor(Timestamp(10'000));
}

std::vector<std::string> languagesLogged(store::GameStore& store, store::GameId game) {
    std::vector<std::string> out;
    for (const auto& e : store.events(game))
        if (e.kind == "table-language") out.push_back(json::parse(e.payload).at("language"));
    return out;
}

}  // namespace

TEST_CASE("the host's language and voice routes need the host's secret") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    RouterOptions guarded;
    guarded.hostToken = "a-host-token-long-enough-0123456789";
    ApiRouter strict(t.table, t.files, guarded);
    for (const char* target : {"/api/host/language", "/api/host/voice"}) {
        CAPTURE(target);
        Request asked{http::verb::post, target, 11};
        asked.set(http::field::content_type, "application/json");
        asked.body() =
            std::string(target).ends_with("language") ? R"({"language":"fr"})" : R"({"enabled":true})";
        asked.prepare_payload();
        CHECK(strict.handle(asked).response.result_int() == 401);
        asked.set(http::field::authorization, "Bearer " + guarded.hostToken);
        CHECK(strict.handle(asked).response.result_int() == 200);
    }
    CHECK(t.table.language() == "fr");
    CHECK(t.table.voiceSettings().enabled);
}

TEST_CASE("the table's language: checked, shown, and kept with the game, resumed and reviewed in it") {
    TempDirectory dir;
    {
        Table t(dir / "games.sqlite");
        CHECK(t.get("/api/words")["table"] == "en");
        CHECK(t.get("/api/status")["language"] == "en");
        // What is refused, and why.
        CHECK(t.call(http::verb::post, "/api/host/language", {{"language", "zz"}}).first == 404);
        CHECK(t.call(http::verb::post, "/api/host/language", {{"language", 3}}).first == 400);
        CHECK(t.call(http::verb::post, "/api/host/language", {{"language", "fr"}, {"more", 1}}).first == 400);
        CHECK(t.call(http::verb::post, "/api/host/language", json::object()).first == 400);
        CHECK(t.table.language() == "en");

        const auto [status, answer] = t.call(http::verb::post, "/api/host/language", {{"language", "de"}});
        CHECK(status == 200);
        CHECK(answer["language"] == "de");
        CHECK(t.get("/api/words")["table"] == "de");
        CHECK(t.get("/api/status")["language"] == "de");

        // A new game keeps the table's language from its start; a change while
        // it is played goes into it too.
        const auto [started, players] = t.call(http::verb::post, "/api/host/new-game",
                                               {{"setup", {{"edition", "classic"}, {"seats", 4}}}});
        REQUIRE(started == 200);
        CHECK(languagesLogged(t.store, store::GameId{1}) == std::vector<std::string>{"de"});
        CHECK(t.call(http::verb::post, "/api/host/language", {{"language", "it"}}).first == 200);
        CHECK(languagesLogged(t.store, store::GameId{1}) == std::vector<std::string>{"de", "it"});
    }
    // The daemon restarts with its configured language: the game resumed takes its own back.
    Table again(dir / "games.sqlite");
    CHECK(again.table.setLanguage("en"));
    REQUIRE(again.table.resumeUnfinished());
    CHECK(again.table.language() == "it");
    CHECK(again.get("/api/words")["table"] == "it");
    CHECK(again.call(http::verb::post, "/api/host/abandon", json::object()).first == 200);
    // A finished (here abandoned) game is reviewed in its language.
    CHECK(again.get("/api/games/1")["language"] == "it");
}

TEST_CASE("the host's voice controls: checked, and shown in the status") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    t.table.setSpeaker(&t.castle.speaker(), "simulated", "");
    json voice = t.get("/api/status")["voice"];
    CHECK(voice["enabled"] == false);
    CHECK(voice["volume"] == 80);
    CHECK(voice["moments"] == json{"refusal", "election", "round", "winner", "bot", "reader", "teach"});
    CHECK(voice["speaker"] == "simulated");
    CHECK(voice["problem"].is_null());
    for (const json& bad : {json{{"volume", 101}}, json{{"volume", -1}}, json{{"volume", "loud"}},
                            json{{"enabled", "yes"}}, json{{"moments", {"refusal", "votes"}}},
                            json{{"moments", "refusal"}}, json{{"speed", 2}}, json::object()}) {
        CAPTURE(bad.dump());
        const auto [status, answer] = t.call(http::verb::post, "/api/host/voice", bad);
        CHECK(status == 400);
        CHECK(answer["error"] == "bad-request");
    }
    CHECK(t.get("/api/status")["voice"] == voice);  // nothing changed

    auto [status, answer] = t.call(http::verb::post, "/api/host/voice",
                                   {{"enabled", true}, {"volume", 40}, {"moments", {"winner"}}});
    CHECK(status == 200);
    CHECK(answer["enabled"] == true);
    CHECK(answer["volume"] == 40);
    CHECK(answer["moments"] == json{"winner"});
    voice = t.get("/api/status")["voice"];
    CHECK(voice["volume"] == 40);
    CHECK(t.castle.speech().volume() == 40);
    CHECK(t.castle.speech().enabled());
    // One key alone changes only itself.
    std::tie(status, answer) = t.call(http::verb::post, "/api/host/voice", {{"enabled", false}});
    CHECK(status == 200);
    CHECK(answer["volume"] == 40);
    CHECK(answer["moments"] == json{"winner"});
    CHECK_FALSE(t.castle.speech().enabled());
}

TEST_CASE("a whole game heard: the castle's speaker and the pages' lines, in the table's language") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    t.table.setSpeaker(&t.castle.speaker(), "simulated", "");
    REQUIRE(t.call(http::verb::post, "/api/host/language", {{"language", "fr"}}).first == 200);
    REQUIRE(t.call(http::verb::post, "/api/host/voice", {{"enabled", true}}).first == 200);
    std::uint64_t lastId = 0;
    std::vector<json> heard;
    playThroughApi(t, "classic-4.jsonl", [&](std::size_t) {
        const json spoken = t.table.spoken();
        for (const auto& line : spoken["lines"])
            if (line["id"].get<std::uint64_t>() > lastId) heard.push_back(line);
        lastId = spoken["id"];
    });
    const json last = t.table.spoken();
    for (const auto& line : last["lines"])
        if (line["id"].get<std::uint64_t>() > lastId) heard.push_back(line);
    REQUIRE(heard.size() >= 3);
    std::set<std::string> keys;
    for (const auto& line : heard) {
        CAPTURE(line.dump());
        CHECK(line["language"] == "fr");
        keys.insert(line["key"]);
        if (!line.contains("cancel")) CHECK(line["says"]["code"].is_string());
    }
    CHECK(keys.contains("election"));
    CHECK(keys.contains("winner"));
    // The castle's speaker said them, in French.
    const auto& spoken = t.castle.speech().spoken();
    REQUIRE(spoken.size() >= 3);
    CHECK(spoken.back().line.language.tag == "fr");
    CHECK(spoken.back().line.key.name == "winner");
    CHECK(spoken.back().line.text.find("La partie est finie") != std::string::npos);
}
