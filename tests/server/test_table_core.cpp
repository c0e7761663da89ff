// The real service behind `serve --hardware=sim`: whole recorded games
// played through the JSON API alone (host requests, puts, lifts, key
// presses) on the simulated castle, the table loop stepped in virtual time
// on a ManualClock, and the game log then holds the same record. Also the players' links, the keep from a
// player's page, what a game in progress withholds, and bad requests.
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include <doctest/doctest.h>

#include "daemon/server/api_router.hpp"
#include "daemon/server/qr_svg.hpp"
#include "daemon/trace/table_script.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"
#include "tests/server/table_fixture.hpp"
#include "tests/server/temp_directory.hpp"
#include "tests/store/random_game_writer.hpp"

using namespace vivaref;
using namespace vivaref::server;
using nlohmann::json;

namespace {

using vivaref::server::testing::readFile;
using vivaref::server::testing::Table;
using vivaref::server::testing::TempDirectory;

// A record's lines as JSON; the log writes the setup's default first seat out.
std::vector<json> jsonLines(const std::string& text) {
    std::vector<json> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.find_first_not_of(" \t\r") != std::string::npos) out.push_back(json::parse(line));
    if (!out.empty() && out[0].contains("setup") && !out[0]["setup"].contains("first"))
        out[0]["setup"]["first"] = 0;
    return out;
}

// One table-script line as the web pages would send it.
std::pair<std::string, json> apiCall(const trace::TraceLine& line) {
    return std::visit(
        [](const auto& input) -> std::pair<std::string, json> {
            using T = std::decay_t<decltype(input)>;
            if constexpr (std::is_same_v<T, trace::HostLine>) {
                const std::string name(trace::hostKindName(input.kind));
                if (input.kind == trace::HostKind::NewGame)
                    return {"/api/host/new-game", {{"setup", input.payload}, {"players", input.players}}};
                return {"/api/host/" + name, input.payload};
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

std::string bundledRecord(const char* name) {
    return readFile(std::filesystem::path(VIVAREF_TEST_RECORDS) / name);
}

// A record's game played through the API alone, each put, lift, key and
// host request at its time in the record's table script; every call must
// be answered 200. `afterEach(step, target)` runs after each.
void playRecordThroughApi(Table& t, const std::string& record,
                          const std::function<void(std::size_t step, const std::string& target)>& afterEach) {
    const auto script = trace::tableScriptFromRecord(record);
    REQUIRE_FALSE(script.error);
    for (std::size_t i = 0; i < script.lines.size(); ++i) {
        t.runTo(Timestamp(script.lines[i].t));
        const auto [target, body] = apiCall(script.lines[i]);
        const auto [status, answer] = t.call(http::verb::post, target, body);
        CAPTURE(target);
        CAPTURE(body.dump());
        CAPTURE(answer.dump());
        REQUIRE(status == 200);
        afterEach(i, target);
    }
}

}  // namespace

TEST_CASE("whole recorded games played through the API alone give the same record in the log") {
    for (const char* name : {"classic-4.jsonl", "2024-3-ambition-by-hand.jsonl", "2024-2-emissary.jsonl"}) {
        CAPTURE(name);
        const std::string record = bundledRecord(name);
        TempDirectory dir;
        Table t(dir / "games.sqlite");
        playRecordThroughApi(t, record, [&](std::size_t step, const std::string&) {
            // Nothing the public sees holds a hand (one step in 8: the status costs).
            if (step % 8 != 0) return;
            const std::string shown = t.get("/api/status").dump();
            CHECK(shown.find("\"hand\"") == std::string::npos);
            CHECK(shown.find("\"private\"") == std::string::npos);
        });
        t.runFor(Timestamp(10'000));

        const json status = t.get("/api/status");
        CHECK(status["refusal"].is_null());
        const json game = t.get("/api/games/1");
        CHECK(game["status"] == "complete");
        CHECK(game.contains("result"));
        const auto exported = jsonLines(t.store.exportRecord(store::GameId{1}));
        const auto expected = jsonLines(record);
        CHECK(exported.size() == expected.size());
        for (std::size_t i = 0; i < std::min(exported.size(), expected.size()); ++i) {
            CAPTURE(i);
            CHECK(exported[i] == expected[i]);
        }
        REQUIRE(game["record"].is_array());
        CHECK(game["record"].get<std::vector<json>>() == jsonLines(record));
        // The review page's timeline: the castle after every line, ending where the game did.
        REQUIRE(game["timeline"].size() == game["record"].size());
        CHECK_FALSE(game.contains("timelineError"));
        CHECK(game["timeline"][0]["line"] == game["record"][0]);
        CHECK(game["timeline"].back()["view"]["winners"] == game["result"]["winners"]);
    }
}

TEST_CASE("players' links: one per player, each opening only that player's page; a player keeps Ambition") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    auto [noGame, why] = t.call(http::verb::get, "/api/host/players");
    CHECK(noGame == 503);
    CHECK(why["says"]["code"] == "api.no-game-yet");
    const json setup = {{"edition", "2024"}, {"seats", 3}, {"options", {{"ambition", true}}}};
    auto [status, started] =
        t.call(http::verb::post, "/api/host/new-game", {{"setup", setup}, {"players", {"Ann", "Bob", "Cy"}}});
    REQUIRE(status == 200);
    REQUIRE(started["players"].size() == 3);
    CHECK(started["game"] == 1);
    // The referee deals by itself after its grace.
    t.runFor(Timestamp(2000));
    std::set<std::string> favourites;
    for (const auto& p : started["players"]) {
        const std::string token = p["token"];
        CHECK(token.size() == 64);
        CHECK(p["path"] == "/player.html#" + token);
        const json page = t.get("/api/player/" + token);
        CHECK(page["player"] == p["player"]);
        favourites.insert(page["private"]["favourites"].dump());
        // Its own secrets only: no other player's token or page.
        for (const auto& other : started["players"])
            if (other != p) CHECK(page.dump().find(other["token"].get<std::string>()) == std::string::npos);
    }
    CHECK(favourites.size() == 3);
    CHECK(t.get("/api/status").dump().find(started["players"][0]["token"].get<std::string>()) ==
          std::string::npos);

    // Player 1 keeps one of the two Ambition cards dealt to them, from their own page.
    const std::string token1 = started["players"][1]["token"];
    const json choices = t.get("/api/player/" + token1)["private"]["ambition_choices"];
    REQUIRE(choices.size() == 2);
    auto [kept, keptAnswer] =
        t.call(http::verb::post, "/api/player/" + token1 + "/keep", {{"ambition", choices[0]}});
    CAPTURE(keptAnswer.dump());
    CHECK(kept == 200);
    // A change of mind before the first placement: the other card, once; the same card again is refused.
    auto [changed, changedAnswer] =
        t.call(http::verb::post, "/api/player/" + token1 + "/keep", {{"ambition", choices[1]}});
    CAPTURE(changedAnswer.dump());
    CHECK(changed == 200);
    CHECK(t.get("/api/player/" + token1)["moment"]["ambition"]["kept"] == choices[1]);
    auto [again, refusal] =
        t.call(http::verb::post, "/api/player/" + token1 + "/keep", {{"ambition", choices[1]}});
    CHECK(again == 409);
    CHECK(refusal.contains("message"));
    auto [bad, badAnswer] = t.call(http::verb::post, "/api/player/" + token1 + "/keep", {{"card", 1}});
    CHECK(bad == 400);
    auto [stranger, strangerAnswer] =
        t.call(http::verb::post, "/api/player/" + std::string(64, 'f') + "/keep", {{"ambition", choices[1]}});
    CHECK(stranger == 404);
    CHECK(strangerAnswer["says"]["code"] == "api.no-such-player-link");

    // A game in progress shows its summary only.
    const json game = t.get("/api/games/1");
    CHECK(game["status"] == "in-progress");
    CHECK_FALSE(game.contains("events"));
    CHECK_FALSE(game.contains("record"));
    CHECK(game.dump().find("seed") == std::string::npos);
    CHECK(t.get("/api/games")[0]["setup"]["edition"] == "2024");

    // A new game: new links, the old ones open nothing.
    auto [restarted, second] =
        t.call(http::verb::post, "/api/host/new-game", {{"setup", setup}, {"players", {"A", "B", "C"}}});
    if (restarted == 200) {
        auto [old, oldAnswer] = t.call(http::verb::get, "/api/player/" + token1);
        CHECK(old == 404);
    }
}

TEST_CASE("bad requests to the table are 4xx with a message, and change nothing") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    const auto before = t.get("/api/status");
    const std::vector<std::pair<std::string, json>> bad = {
        {"/api/host/new-game", json::object()},
        {"/api/host/new-game", {{"setup", 3}}},
        {"/api/host/new-game", {{"setup", json::object()}, {"players", {1, 2}}}},
        {"/api/host/pause", {{"now", true}}},
        {"/api/sim/put", {{"character", "odessa"}}},
        {"/api/sim/put", {{"character", "Odessa!"}, {"place", "3"}}},
        {"/api/sim/put", {{"character", "odessa"}, {"place", "attic"}}},
        {"/api/sim/put", {{"tag", "xyz"}, {"place", "3"}}},
        {"/api/sim/lift", json::object()},
        {"/api/sim/press", {{"station", -1}, {"key", "yes"}}},
        {"/api/sim/press", {{"station", 0}, {"key", "maybe"}}},
        {"/api/sim/press", {{"station", "0"}, {"key", "yes"}}},
        {"/api/sim/jump", json::object()},
        {"/api/host/dance", json::object()},
    };
    for (const auto& [target, body] : bad) {
        CAPTURE(target);
        CAPTURE(body.dump());
        auto [status, answer] = t.call(http::verb::post, target, body);
        CHECK(status >= 400);
        CHECK(status < 500);
        CHECK(answer["message"].is_string());
    }
    auto [refused, answer] = t.call(http::verb::post, "/api/host/deal", {{"round", 1}});
    CHECK(refused == 409);
    CHECK_FALSE(answer["error"].get<std::string>().empty());
    CHECK(t.get("/api/status") == before);
    CHECK(t.get("/api/games").empty());
}

TEST_CASE("players' names: any script; nothing visible, a direction control or the same name twice refused") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    const json setup = {{"edition", "classic"}, {"seats", 3}};
    struct Bad {
        std::vector<std::string> names;
        std::string code;
        std::string said;  // the English sentence beside the message
    };
    const std::vector<Bad> bad = {
        {{"Ann", "\u202Eevil", "Cy"},
         "name.direction-control",
         "Player 2’s name holds a direction control (U+202E) at character 1"},
        {{"Ann", "Bob", "Cy\u2066"}, "name.direction-control", "(U+2066) at character 3"},
        {{"Ann", "Bo\u200Fb", "Cy"}, "name.direction-control", "(U+200F) at character 3"},
        {{"Ann", "Bob", "\u061C"},
         "name.direction-control",
         "Player 3’s name holds a direction control (U+061C)"},
        {{"   ", "Bob", "Cy"}, "name.invisible", "Player 1’s name shows nothing"},
        {{"Ann", "\u200B\u200D\u2060", "Cy"}, "name.invisible", "Player 2’s name shows nothing"},
        {{"Ann", "Bob", "\u3164"}, "name.invisible", "Player 3’s name shows nothing"},
        {{"Ann", "Bob", "ann"}, "name.twice", "Players 1 and 3 have the same name"},
        {{"Ann", " Bob ", "B\u200Bob"}, "name.twice", "Players 2 and 3 have the same name"},
        {{"\uFF21nn", "Ann", "Cy"}, "name.twice", "Players 1 and 2 have the same name"},
        {{"Ann\x1b]0;x\x07", "Bob", "Cy"},
         "name.control",
         "Player 1’s name holds a control character (U+001B)"},
        {{"", "Bob", "Cy"}, "name.empty", "Player 1’s name is empty."},
    };
    for (const auto& b : bad) {
        CAPTURE(b.code);
        auto [status, answer] =
            t.call(http::verb::post, "/api/host/new-game", {{"setup", setup}, {"players", b.names}});
        CAPTURE(answer.dump());
        CHECK(status == 400);
        CHECK(answer["error"] == "bad-request");
        CHECK(answer["message"].get<std::string>().find(b.said) != std::string::npos);
        REQUIRE(answer.contains("says"));
        const auto says = words::messageFromJson(answer["says"]);
        CHECK(says.code == b.code);
        for (const char* language : {"fr", "de", "it"})
            CHECK_FALSE(words::Words(language).sayStrictly(says).empty());
    }
    CHECK(t.get("/api/games").empty());

    // Hebrew, Arabic, Chinese, an emoji: accepted as written, each name shown
    // isolated from the sentence around it.
    const std::vector<std::string> names = {"\u05E2\u05D3\u05D9", "\u0644\u064A\u0644\u0649",
                                            "\u674E\u767D \U0001F451"};
    auto [status, started] =
        t.call(http::verb::post, "/api/host/new-game", {{"setup", setup}, {"players", names}});
    CAPTURE(started.dump());
    REQUIRE(status == 200);
    const json shown = t.get("/api/status");
    for (std::size_t p = 0; p < names.size(); ++p) CHECK(shown["players"][p]["name"] == names[p]);
    t.runFor(Timestamp(2000));  // the referee deals; the first seat is to place
    const std::string waiting = t.get("/api/status")["waiting_for"];
    CAPTURE(waiting);
    CHECK(std::any_of(names.begin(), names.end(), [&](const std::string& name) {
        return waiting.find("\u2068" + name + "\u2069") != std::string::npos;
    }));
}

TEST_CASE("the simulated castle's state: where each tag stands and every LED") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    CHECK(t.call(http::verb::post, "/api/sim/put", {{"character", "odessa"}, {"place", "3"}}).first == 200);
    CHECK(t.call(http::verb::post, "/api/sim/put", {{"tag", "04A1B2C3D4E5F6"}, {"place", "wc3"}}).first ==
          200);
    const json state = t.get("/api/sim/state");
    CHECK(state["board"]["3"] == json::array({"odessa"}));
    CHECK(state["board"]["wc3"] == json::array({"04A1B2C3D4E5F6"}));
    CHECK(state["leds"].is_object());
    CHECK(state["now"].is_number_integer());
    CHECK(t.call(http::verb::post, "/api/sim/lift", {{"character", "odessa"}}).first == 200);
    CHECK_FALSE(t.get("/api/sim/state")["board"].contains("3"));
}

TEST_CASE("the public status shows what the castle's place LEDs show, and no station's") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    CHECK(t.get("/api/status")["leds"] == json::object());  // no game: every LED off
    const json setup = {{"edition", "classic"}, {"seats", 3}, {"first", 0}};
    REQUIRE(
        t.call(http::verb::post, "/api/host/new-game", {{"setup", setup}, {"players", {"Ann", "Bob", "Cy"}}})
            .first == 200);
    t.runFor(Timestamp(2000));  // the referee deals
    // A placement on floor 5 is refused: the place to clear blinks.
    CHECK(t.call(http::verb::post, "/api/sim/put", {{"character", "odessa"}, {"place", "5"}}).first == 200);
    t.runFor(Timestamp(1500));
    const json status = t.get("/api/status");
    REQUIRE(status["refusal"].is_object());
    CHECK(status["leds"]["place-5"] == "blink");
    const json castle = t.get("/api/sim/leds");
    std::size_t placeLeds = 0;
    for (const auto& [name, mode] : castle.items()) {
        if (!name.starts_with("place-") || mode == "off") continue;
        ++placeLeds;
        CHECK(status["leds"][name] == mode);
    }
    CHECK(status["leds"].size() == placeLeds);
    for (const auto& [name, mode] : status["leds"].items()) CHECK(name.starts_with("place-"));
}

TEST_CASE("a teaching table through the API: the new game's teaching reaches the referee, and its trace") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    CHECK(t.get("/api/status")["teaching_default"] == false);
    const json setup{{"edition", "classic"}, {"seats", 4}};
    auto [status, answer] =
        t.call(http::verb::post, "/api/host/new-game", {{"setup", setup}, {"teaching", true}});
    CAPTURE(answer.dump());
    REQUIRE(status == 200);
    CHECK(t.get("/api/status")["teaching"] == true);
    CHECK(t.call(http::verb::post, "/api/host/abandon", json::object()).first == 200);
    CHECK(t.call(http::verb::post, "/api/host/new-game", {{"setup", setup}}).first == 200);
    CHECK(t.get("/api/status")["teaching"] == false);
    CHECK(t.call(http::verb::post, "/api/host/abandon", json::object()).first == 200);
    CHECK(t.call(http::verb::post, "/api/host/new-game", {{"setup", setup}, {"teaching", "yes"}}).first ==
          400);
}

TEST_CASE("the table reports a change when the board or the referee changes, not on every scan") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    int changes = 0;
    t.table.onChange([&] { ++changes; });
    auto runFor = [&](int ms) { t.runFor(Timestamp(ms)); };
    REQUIRE(
        t.call(http::verb::post, "/api/host/new-game", {{"setup", {{"edition", "classic"}, {"seats", 4}}}})
            .first == 200);
    runFor(3000);  // the referee deals by itself
    changes = 0;
    runFor(500);
    // Nothing happened in hundreds of scans: at most the once-a-second
    // refresh, which may fall in any half second.
    CHECK(t.castle.counters().scans > 200);
    CHECK(changes <= 1);
    changes = 0;
    REQUIRE(t.call(http::verb::post, "/api/sim/put", {{"character", "odessa"}, {"place", "3"}}).first == 200);
    CHECK(changes == 0);  // a tag on the castle: nothing until a reader sees it
    runFor(500);
    CHECK(changes >= 1);  // the readers saw it settle
    const int settled = changes;
    runFor(900);
    CHECK(changes <= settled + 1);  // quiet again (at most the once-a-second refresh)
    CHECK(t.get("/api/status")["board"]["seen"]["odessa"]["on"] == "3");
}

TEST_CASE(
    "the simulated castle answers as a real one: a move judged and a lift in hand soon, in virtual time") {
    // Moves and lifts at random moments (seeded), as sim.html sends them: the
    // time from the request to the pipeline's update that shows it, on the
    // loop's clock. The figures follow from the castle's timing (its readers'
    // turns about 16 ms apart on the standard board, a change confirmed out
    // of turn) and the pipeline's knobs (two reads, the 40 ms window).
    TempDirectory dir;
    std::vector<std::pair<drivers::TagLocation, Timestamp>> updates;
    table::TableOptions options;
    Table* table = nullptr;
    options.onJudged = [&](const drivers::SensingUpdate& update, std::chrono::nanoseconds, int) {
        for (const auto& change : update.changes)
            if (change.character == drivers::CharacterSlug{"odessa"})
                updates.emplace_back(change.to, table->clock.now());
    };
    Table t(dir / "games.sqlite", std::move(options));
    table = &t;
    std::mt19937_64 random(20261124);
    std::vector<std::int64_t> moves, lifts;
    const std::vector<std::string> places = {"0", "1", "2", "3", "4", "5", "6", "wc3", "wc4", "dungeon2"};
    std::string at = "0";
    auto settleAfter = [&](std::uint64_t spread) {
        t.runFor(Timestamp(300 + static_cast<std::int64_t>(random() % spread)));
    };
    for (int i = 0; i < 200; ++i) {
        CAPTURE(i);
        std::string to = places[random() % places.size()];
        if (to == at) to = to == "0" ? "1" : "0";
        updates.clear();
        const Timestamp putAt = t.clock.now();
        REQUIRE(t.call(http::verb::post, "/api/sim/put", {{"character", "odessa"}, {"place", to}}).first ==
                200);
        settleAfter(200);
        const auto placed = std::find_if(updates.begin(), updates.end(), [&](const auto& u) {
            return u.first.kind == drivers::TagLocation::Kind::OnPlace &&
                   u.first.place == drivers::PlaceName{to};
        });
        REQUIRE(placed != updates.end());
        moves.push_back((placed->second - putAt).count());
        at = to;
        if (i % 2) continue;
        updates.clear();
        const Timestamp liftAt = t.clock.now();
        REQUIRE(t.call(http::verb::post, "/api/sim/lift", {{"character", "odessa"}}).first == 200);
        settleAfter(100);
        REQUIRE_FALSE(updates.empty());
        CHECK(updates.front().first.kind == drivers::TagLocation::Kind::InHand);
        lifts.push_back((updates.front().second - liftAt).count());
        REQUIRE(t.call(http::verb::post, "/api/sim/put", {{"character", "odessa"}, {"place", at}}).first ==
                200);
        settleAfter(200);
    }
    std::sort(moves.begin(), moves.end());
    std::sort(lifts.begin(), lifts.end());
    auto pct = [](const std::vector<std::int64_t>& v, double p) {
        return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
    };
    MESSAGE("simulated castle, virtual time: move -> judged p50 "
            << pct(moves, 0.5) << " ms, p99 " << pct(moves, 0.99) << " ms; lift -> in hand p50 "
            << pct(lifts, 0.5) << " ms, p99 " << pct(lifts, 0.99) << " ms");
    // Two reads of the new place a turn apart, then the window; the old
    // place's two misses come sooner.
    CHECK(pct(moves, 0.99) <= 100);
    CHECK(pct(moves, 0.0) >= 40);  // the stability window is honoured
    CHECK(pct(lifts, 0.99) <= 40);
}

TEST_CASE("a lost phone: the host gives one player a new link, the old one opens nothing; codes as SVG") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    auto [early, why] = t.call(http::verb::post, "/api/host/new-link", {{"player", 0}});
    CHECK(early == 503);
    auto [status, started] =
        t.call(http::verb::post, "/api/host/new-game",
               {{"setup", {{"edition", "classic"}, {"seats", 3}}}, {"players", {"Ann", "Bob", "Cy"}}});
    REQUIRE(status == 200);
    const std::string old = started["players"][1]["token"];
    CHECK(t.call(http::verb::get, "/api/player/" + old).first == 200);
    auto [renewed, links] = t.call(http::verb::post, "/api/host/new-link", {{"player", 1}});
    REQUIRE(renewed == 200);
    const std::string fresh = links["players"][1]["token"];
    CHECK(fresh.size() == 64);
    CHECK(fresh != old);
    // The others keep theirs.
    CHECK(links["players"][0]["token"] == started["players"][0]["token"]);
    CHECK(links["players"][2]["token"] == started["players"][2]["token"]);
    CHECK(t.call(http::verb::get, "/api/player/" + old).first == 404);
    CHECK(t.call(http::verb::get, "/api/player/" + fresh).first == 200);
    CHECK(t.call(http::verb::post, "/api/player/" + old + "/keep", {{"ambition", "x"}}).first == 404);
    for (const json& bad : {json{{"player", 3}}, json{{"player", -1}}, json{{"player", "1"}}, json::object(),
                            json{{"player", 1}, {"why", "lost"}}})
        CHECK(t.call(http::verb::post, "/api/host/new-link", bad).first >= 400);
    CHECK(t.get("/api/host/players")["players"][1]["token"] == fresh);

    // Player 1's code: an SVG of the link at the address the host used.
    Request r{http::verb::get, "/api/host/players/1/qr.svg", 11};
    r.set(http::field::host, "castle.local:8080");
    auto reply = t.router.handle(r);
    CHECK(reply.response.result_int() == 200);
    CHECK(reply.response[http::field::content_type] == "image/svg+xml");
    CHECK(reply.response[http::field::cache_control] == "no-store");
    const std::string svg = reply.response.body();
    CHECK(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    CHECK(svg.find(fresh) == std::string::npos);  // the link is in the modules, not in the text
    const QrMatrix expected = encodeQr("http://castle.local:8080/player.html#" + fresh);
    CHECK(svg == qrSvg(expected));
    r.set(http::field::host, "evil\"><script>");
    CHECK(t.router.handle(r).response.result_int() == 400);
    Request none{http::verb::get, "/api/host/players/3/qr.svg", 11};
    none.set(http::field::host, "castle.local");
    CHECK(t.router.handle(none).response.result_int() == 404);
}

// Issue 14, item 1: through the routes, a full game log acknowledges nothing
// it has not saved, and the table goes on by itself once the disk has room.
TEST_CASE("a full game log: keeps are refused with the reason, the status shows it, play resumes by itself") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    const json setup = {{"edition", "2024"}, {"seats", 3}, {"options", {{"ambition", true}}}};
    auto [status, started] =
        t.call(http::verb::post, "/api/host/new-game", {{"setup", setup}, {"players", {"Ann", "Bob", "Cy"}}});
    REQUIRE(status == 200);
    t.runFor(Timestamp(2000));  // the referee deals
    const auto game = store::GameId{started["game"].get<std::int64_t>()};
    std::vector<std::string> tokens;
    std::vector<json> choices;
    for (const auto& p : started["players"]) {
        tokens.push_back(p["token"]);
        choices.push_back(t.get("/api/player/" + tokens.back())["private"]["ambition_choices"]);
        REQUIRE(choices.back().size() == 2);
    }
    auto keep = [&](int p) {
        return t.call(http::verb::post, "/api/player/" + tokens[static_cast<std::size_t>(p)] + "/keep",
                      {{"ambition", choices[static_cast<std::size_t>(p)][0]}});
    };
    auto keepsOnDisk = [&] {  // what a kill -9 would leave
        store::GameStore reader(dir / "games.sqlite", store::GameStore::Access::MustExist);
        int keeps = 0;
        for (const auto& e : reader.events(game)) keeps += e.kind == "keep";
        return keeps;
    };
    REQUIRE(keep(0).first == 200);
    REQUIRE(keepsOnDisk() == 1);

    // The disk fills behind the table's back.
    store::testing::fillTheLog(t.store, game);

    // The keep that meets it is not done, nor acknowledged; the next one is refused outright.
    auto [held, heldAnswer] = keep(1);
    CAPTURE(heldAnswer.dump());
    CHECK(held == 503);
    CHECK(heldAnswer.dump().find("Not saved: The game log cannot save (disk full)") != std::string::npos);
    CHECK(heldAnswer.dump().find("Nothing of this request was done") != std::string::npos);
    // The same as a message, for a page to say in its reader's language.
    REQUIRE(heldAnswer.contains("says"));
    const auto notSaved = words::messageFromJson(heldAnswer["says"]);
    CHECK(notSaved.code == "log.not-saved");
    CHECK(words::Words("fr").say(notSaved).starts_with(
        "Non enregistré : Le journal de la partie ne peut pas enregistrer (disque plein)"));
    CHECK_FALSE(t.get("/api/player/" + tokens[1])["private"].contains("ambition"));
    auto [refused, refusedAnswer] = keep(2);
    CAPTURE(refusedAnswer.dump());
    CHECK(refused == 503);
    CHECK(refusedAnswer.dump().find("log-unwritable") != std::string::npos);
    CHECK(refusedAnswer.dump().find("The game log cannot save (disk full)") != std::string::npos);
    t.runFor(Timestamp(3000));  // retries on the loop's timer: still full
    json shown = t.get("/api/status");
    REQUIRE(shown["log_problem"].is_string());
    CHECK(shown["log_problem"].get<std::string>().find("nothing new is accepted") != std::string::npos);
    CHECK(words::Words("de")
              .say(words::messageFromJson(shown["log_problem_says"]))
              .starts_with("Das Spielprotokoll kann nicht speichern (Datenträger voll)"));
    CHECK(keepsOnDisk() == 1);  // only what was acknowledged, and all of it

    // Room again: the loop's retry finds the log saving, with no request;
    // the keeps not done are asked again.
    t.store.limitPagesForTesting(1'000'000);
    t.runFor(Timestamp(1500));
    CHECK(t.get("/api/status")["log_problem"].is_null());
    CHECK(t.get("/api/status")["log_problem_says"].is_null());
    CHECK(keepsOnDisk() == 1);
    CHECK(keep(1).first == 200);
    CHECK(keepsOnDisk() == 2);
    CHECK(keep(2).first == 200);
    CHECK(keepsOnDisk() == 3);
}

TEST_CASE(
    "a finished game's analysis: waiting, analysing, then the kept one; a game in progress: 409 and "
    "nothing") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    playRecordThroughApi(t, bundledRecord("2024-2-emissary.jsonl"),
                         [&](std::size_t, const std::string& target) {
                             // A host request is the table's activity at once (the background
                             // analysis waits); a piece put or lifted once the scans see it.
                             if (target.starts_with("/api/host/"))
                                 CHECK(t.table.lastActivity() == t.clock.now());
                         });
    t.runFor(Timestamp(10'000));
    REQUIRE(t.get("/api/games/1")["status"] == "complete");
    CHECK(t.get("/api/games/1/analysis") ==
          json{{"status", "waiting"},
               {"progress", 0},
               {"message", "no analysis runs here: 'vivaref analyse 1' makes one"}});
    // A game in progress: refused with its reason, and nothing else.
    REQUIRE(
        t.call(http::verb::post, "/api/host/new-game", {{"setup", {{"edition", "classic"}, {"seats", 3}}}})
            .first == 200);
    const auto [status, body] = t.call(http::verb::get, "/api/games/2/analysis");
    CHECK(status == 409);
    CHECK(body == json{{"error", "game-in-progress"},
                       {"message", "game 2 is still being played: it is analysed once it is over"}});
    CHECK(t.call(http::verb::get, "/api/games/3/analysis").first == 404);
    CHECK(t.call(http::verb::get, "/api/games/x/analysis").first == 404);

    analysis::BackgroundAnalysisOptions options;
    options.settings.rollouts = 5;
    options.settings.iterations = 20;
    analysis::BackgroundAnalysis background(t.store, t.clock, options);
    t.table.setBackgroundAnalysis(&background);
    CHECK(background.runPiece(true));
    const json under = t.get("/api/games/1/analysis");
    CHECK(under["status"] == "analysing");
    CHECK(under["progress"] == 0.0);
    while (background.counters().analysed == 0) REQUIRE(background.runPiece(true));
    const json kept = t.get("/api/games/1/analysis");
    CHECK(kept["status"] == "analysed");
    CHECK(kept["players"].size() == 2);
    CHECK(kept["swings"].size() == 3);
    CHECK(kept["settings"]["iterations"] == 20);
    CHECK(t.get("/api/games/1/analysis") == kept);  // the kept text again
    // Never game 2: it is still being played.
    for (int i = 0; i < 50; ++i) (void)background.runPiece(true);
    CHECK_FALSE(t.store.analyses().find(store::GameId{2}));
    CHECK(t.call(http::verb::get, "/api/games/2/analysis").first == 409);

    // A kept analysis that cannot be read: said so, with what to do.
    REQUIRE(t.store.analyses()
                .save(store::GameId{1}, "{}", R"({"format": 1, "players": "cut short)",
                      store::WallTime(std::chrono::milliseconds(1)))
                .durable);
    const json damaged = t.get("/api/games/1/analysis");
    CHECK(damaged["status"] == "damaged");
    CHECK(damaged["message"] ==
          "the analysis kept in the game log cannot be read (it is not JSON): 'vivaref analyse 1 --redo' "
          "makes it "
          "again");
}

namespace {

// The club's server as the table's pusher sees it: games by uid, in memory.
struct MemoryClub : club::ClubLink {
    struct Shared {
        std::mutex mutex;
        std::map<std::string, club::GameUpload> games;
    };
    explicit MemoryClub(std::shared_ptr<Shared> s) : shared(std::move(s)) {}
    club::PushOutcome push(const club::GameUpload& game) override {
        std::lock_guard lock(shared->mutex);
        return shared->games.emplace(game.uid, game).second ? club::PushOutcome::Inserted
                                                            : club::PushOutcome::AlreadyThere;
    }
    std::vector<club::ClubMember> members() override { return {{42, "Ottavia Member"}, {7, "Bruno Member"}}; }
    std::shared_ptr<Shared> shared;
};

}  // namespace

TEST_CASE(
    "a table with a club: members seated from the host's list, the game pushed when it ends, the status "
    "saying so without a secret or a member") {
    const std::string record = bundledRecord("classic-4.jsonl");
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    t.store.setClubConfigured(true);
    auto server = std::make_shared<MemoryClub::Shared>();
    club::OutboxPusherOptions options;
    options.log = dir / "games.sqlite";
    options.table = "north-hall";
    options.server = "club.example.org:5432";
    options.firstRetry = std::chrono::milliseconds(20);
    club::OutboxPusher pusher(options, [server] { return std::make_unique<MemoryClub>(server); });
    t.table.setClubPusher(&pusher);
    pusher.start();
    auto until = [](auto condition) {
        for (int i = 0; i < 500 && !condition(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        return condition();
    };
    // The host's list (host only: a router with a host token refuses it without).
    REQUIRE(until([&] { return t.get("/api/host/members")["members"].size() == 2; }));
    const json listed = t.get("/api/host/members");
    CHECK(listed["club"] == true);
    CHECK(listed["members"][0] == json{{"id", 7}, {"name", "Bruno Member"}});
    RouterOptions guarded;
    guarded.hostToken = "a-host-token-long-enough-0123456789";
    ApiRouter strict(t.table, t.files, guarded);
    Request asked{http::verb::get, "/api/host/members", 11};
    asked.prepare_payload();
    CHECK(strict.handle(asked).response.result_int() == 401);

    // The game, with member 42 in the first seat (the API's new-game gains "members").
    const auto script = trace::tableScriptFromRecord(record);
    REQUIRE_FALSE(script.error);
    bool first = true;
    for (const auto& line : script.lines) {
        t.runTo(Timestamp(line.t));
        auto [target, body] = apiCall(line);
        if (first && target == "/api/host/new-game") {
            json members = json::array();
            for (std::size_t p = 0; p < std::max<std::size_t>(body["players"].size(), 4); ++p)
                members.push_back(p == 0 ? json(42) : json(nullptr));
            body["members"] = members;
            first = false;
        }
        const auto [status, answer] = t.call(http::verb::post, target, body);
        CAPTURE(answer.dump());
        REQUIRE(status == 200);
        // Nothing of a game in progress leaves the table.
        std::lock_guard lock(server->mutex);
        if (t.store.game(store::GameId{1}) && !t.store.game(store::GameId{1})->ended)
            CHECK(server->games.empty());
    }
    t.runFor(Timestamp(10'000));
    CHECK(t.store.game(store::GameId{1})->players[0].member == 42);
    pusher.notify();  // serve's notice hook does this at game-over
    REQUIRE(until([&] {
        std::lock_guard lock(server->mutex);
        return server->games.size() == 1;
    }));
    REQUIRE(until([&] { return pusher.state().waiting == 0; }));
    {
        std::lock_guard lock(server->mutex);
        const auto& pushed = server->games.begin()->second;
        CHECK(pushed.table == "north-hall");
        CHECK(pushed.complete);
        CHECK(pushed.seats[0].member == 42);
        CHECK(!pushed.seats[1].member);
    }
    const json status = t.get("/api/status");
    REQUIRE(status.contains("club"));
    CHECK(status["club"]["table"] == "north-hall");
    CHECK(status["club"]["server"] == "club.example.org:5432");
    CHECK(status["club"]["waiting"] == 0);
    CHECK(status["club"]["pushed"] == 1);
    const std::string shown = status.dump();
    CHECK(shown.find("Member") == std::string::npos);  // the members are the host's only
    CHECK(shown.find("password") == std::string::npos);
    pusher.stop();
    t.table.setClubPusher(nullptr);
}

// Issue 34: the host's page learns which players' pages have opened (their
// codes then hide), hears what an undo took back, is asked before an undo
// takes back a coronation the table has seen scored, and is warned of a
// player named as a character.
TEST_CASE("the host's players: opened links, undo's words and its question, a name like a character's") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    const json setup = {{"edition", "classic"}, {"seats", 3}, {"rounds", 2}};
    auto [status, started] = t.call(http::verb::post, "/api/host/new-game",
                                    {{"setup", setup}, {"players", {"Anna", "dário", "Chiara"}}});
    REQUIRE(status == 200);
    // Started all the same, with a warning naming the player and the character.
    REQUIRE(started.contains("warning_says"));
    CHECK(started["warning_says"]["code"] == "name.is-character");
    CHECK(started["warning_says"]["args"]["player"]["player"] == "dário");
    CHECK(started["warning_says"]["args"]["character"]["character"] == "dario");
    CHECK(started["warning"].get<std::string>().find("Dario l") != std::string::npos);
    for (const auto& p : started["players"]) {
        CHECK(p["opened"] == false);
        CHECK(p["opened_ms"].is_null());
    }
    // Player 0's page opens: said with when; a later look keeps the first time.
    const std::string token0 = started["players"][0]["token"];
    CHECK(t.call(http::verb::get, "/api/player/" + token0).first == 200);
    json links = t.get("/api/host/players");
    CHECK(links["players"][0]["opened"] == true);
    const auto firstOpened = links["players"][0]["opened_ms"];
    CHECK(firstOpened.is_number_integer());
    CHECK(links["players"][1]["opened"] == false);
    t.runFor(Timestamp(500));
    CHECK(t.call(http::verb::get, "/api/player/" + token0).first == 200);
    CHECK(t.get("/api/host/players")["players"][0]["opened_ms"] == firstOpened);
    // A made-up token opens nobody's page.
    CHECK(t.call(http::verb::get, "/api/player/" + std::string(64, 'e')).first == 404);
    // A new link (a lost phone) has not opened anything yet.
    auto [renewed, fresh] = t.call(http::verb::post, "/api/host/new-link", {{"player", 0}});
    REQUIRE(renewed == 200);
    CHECK(fresh["players"][0]["opened"] == false);

    // Round 1 on the simulated castle: placed, climbed, crowned by three Yes.
    t.runFor(Timestamp(2000));  // the referee deals
    auto put = [&](const std::string& slug, const std::string& place) {
        auto [code, answer] =
            t.call(http::verb::post, "/api/sim/put", {{"character", slug}, {"place", place}});
        CAPTURE(answer.dump());
        REQUIRE(code == 200);
        t.runFor(Timestamp(1000));
    };
    const std::vector<std::pair<std::string, std::string>> placements = {
        {"alighiero", "4"}, {"beatrice", "4"}, {"clemente", "4"}, {"dario", "4"},    {"ernesto", "3"},
        {"fiorello", "3"},  {"gavino", "3"},   {"irina", "3"},    {"leonardo", "2"}, {"merlino", "2"},
        {"natale", "2"},    {"odessa", "1"},   {"piero", "0"}};
    for (const auto& [slug, place] : placements) put(slug, place);
    REQUIRE(t.get("/api/status")["view"]["phase"] == "ascent");
    put("alighiero", "5");
    // A move, undone: named.
    auto [undid, undone] = t.call(http::verb::post, "/api/host/undo", json::object());
    CAPTURE(undone.dump());
    REQUIRE(undid == 200);
    CHECK(undone["says"]["code"] == "undo.moved");
    CHECK(undone["message"].get<std::string>().find("moved Alighiero lo Scudiero from floor 4 to floor 5") !=
          std::string::npos);
    put("alighiero", "4");
    put("alighiero", "5");
    put("alighiero", "6");
    REQUIRE(t.get("/api/status")["view"]["phase"] == "election");
    for (int station = 0; station < 3; ++station) {
        REQUIRE(t.call(http::verb::post, "/api/sim/press", {{"station", station}, {"key", "yes"}}).first ==
                200);
        t.runFor(Timestamp(200));
    }
    t.runFor(Timestamp(2000));  // round 2 dealt by the referee
    const json scored = t.get("/api/status");
    REQUIRE(scored["view"]["finished_rounds"].size() == 1);

    // Undo now would take round 1's scoring back: asked first, nothing done.
    auto [asked, question] = t.call(http::verb::post, "/api/host/undo", json::object());
    CAPTURE(question.dump());
    CHECK(asked == 409);
    CHECK(question["error"] == "needs-confirmation");
    CHECK(question["says"]["code"] == "undo.confirm-scoring");
    CHECK(question["round"] == 1);
    CHECK(question["undoing"]["code"] == "undo.voted");
    CHECK(question["undoing"]["args"]["seat"]["player"] == "Chiara");
    CHECK(t.get("/api/status")["view"]["finished_rounds"].size() == 1);
    CHECK(t.call(http::verb::post, "/api/host/undo", {{"confirm", "yes"}}).first == 400);
    CHECK(t.call(http::verb::post, "/api/host/undo", {{"confirm", false}}).first == 409);
    // Confirmed: undone, and said.
    auto [confirmed, answer] = t.call(http::verb::post, "/api/host/undo", {{"confirm", true}});
    CAPTURE(answer.dump());
    REQUIRE(confirmed == 200);
    CHECK(answer["says"]["code"] == "undo.voted");
    const json back = t.get("/api/status");
    CHECK(back["view"]["finished_rounds"].empty());
    CHECK(back["view"]["phase"] == "election");
    // The trace (the log's host lines) holds a plain undo: the question is the API's.
    CHECK(t.call(http::verb::post, "/api/host/undo", {{"confirm", true}, {"x", 1}}).first == 400);
}

TEST_CASE(
    "the host's answer to an order the readers missed: its form checked, refused when nothing is asked") {
    TempDirectory dir;
    Table t(dir / "games.sqlite");
    const json setup = {{"edition", "classic"}, {"seats", 3}, {"rounds", 2}};
    REQUIRE(
        t.call(http::verb::post, "/api/host/new-game", {{"setup", setup}, {"players", {"Ann", "Bo", "Cy"}}})
            .first == 200);
    // The form, as a trace line's: 400 and nothing done.
    for (const json& body :
         {json::object(), json{{"characters", "odessa"}}, json{{"characters", {"odessa"}}},
          json{{"characters", {"odessa", 3}}}, json{{"characters", {"odessa", "piero"}}, {"x", 1}}})
        CHECK(t.call(http::verb::post, "/api/host/order", body).first == 400);
    // Well formed, but no question is open: the referee's reason, in words.
    auto [code, answer] = t.call(http::verb::post, "/api/host/order", {{"characters", {"odessa", "piero"}}});
    CAPTURE(answer.dump());
    CHECK(code == 409);
    CHECK(answer["error"] == "no-question");
    CHECK(answer["says"]["code"] == "order.no-question");
    CHECK(t.get("/api/status")["order_question"].is_null());
}
