// What the game log lets out, through the real binary: each game `serve`
// starts deals from a seed of its own (no seed follows from another's);
// `show`, `export` and `trace export` keep a game in progress's secrets
// unless --reveal; a player's name with control characters is refused by
// the host API; and a log written before names were checked cannot drive
// the terminal through `games`, `show` or `stats`.
#include <bit>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "daemon/commands/daemon_client.hpp"
#include "daemon/store/game_store.hpp"
#include "engine/chance.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/state.hpp"
#include "tests/store/random_game_writer.hpp"
#include "tests/support/serve_process.hpp"

using namespace std::chrono_literals;
using nlohmann::json;
using vivaref::store::GameId;
using vivaref::store::GameStore;
using vivaref::store::testing::ScratchDir;
using vivaref::testsupport::CommandResult;
using vivaref::testsupport::ServeProcess;

namespace {

// `vivaref ARGS` to its end (at most 20 s), its stderr kept in `dir`.
CommandResult runVivaref(const ScratchDir& dir, const std::vector<std::string>& args) {
    static int runs = 0;
    // In English whatever the test's locale (`show` follows it).
    return vivaref::testsupport::runCommand(VIVAREF_BINARY, args, 20s,
                                            {{}, {"LC_ALL=C"}, dir.file("stderr-" + std::to_string(++runs))});
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string readFile(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The simulated castle's daemon on a free port, its log in `dir`, without --seed.
struct Daemon {
    explicit Daemon(const ScratchDir& dir)
        : process(VIVAREF_BINARY,
                  {"--hardware=sim", "--listen", "127.0.0.1:0", "--db", dir.file("games.sqlite").string()},
                  dir.file("serve.err")) {
        port = process.waitForPort(20s);
        REQUIRE(port != 0);
        secret = readFile(dir.file("host-secret"));
        while (!secret.empty() && secret.back() == '\n') secret.pop_back();
    }
    vivaref::daemon::DaemonAnswer ask(const std::string& target,
                                      std::optional<json> body = std::nullopt) const {
        vivaref::daemon::DaemonRequest request;
        request.target = target;
        request.post = body.has_value();
        if (body) request.body = *body;
        request.bearerToken = secret;
        const auto answer = vivaref::daemon::askDaemon({"127.0.0.1", port}, request);
        REQUIRE(std::holds_alternative<vivaref::daemon::DaemonAnswer>(answer));
        return std::get<vivaref::daemon::DaemonAnswer>(answer);
    }
    // Waits (at most 10 s) until the referee has dealt the game's first round itself.
    void awaitOwnDeal() const {
        const auto deadline = std::chrono::steady_clock::now() + 10s;
        for (;;) {
            const auto status = ask("/api/status").body;
            if (status.contains("view") && status["view"].value("phase", "deal") != "deal") return;
            REQUIRE(std::chrono::steady_clock::now() < deadline);
            std::this_thread::sleep_for(50ms);
        }
    }

    ServeProcess process;
    std::uint16_t port = 0;
    std::string secret;
};

const json kNewGame = {{"setup", {{"edition", "classic"}, {"seats", 3}}}, {"players", {"Ann", "Bob", "Cy"}}};

// The deal line a referee whose generator starts at `seed` makes first.
std::string firstOwnDeal(std::uint64_t seed) {
    vivaref::engine::RulesSpec spec;
    spec.seats = 3;
    auto rules = std::make_shared<const vivaref::engine::Rules>(spec);
    vivaref::engine::State state(rules);
    vivaref::engine::Rng rng(seed);
    return vivaref::record::writeDeal(vivaref::engine::randomDeal(state, rng), *rules);
}

// Every byte a terminal could take as a command: C0 but newline and tab,
// DEL, C1 (written in UTF-8 as 0xC2 0x80-0x9F), and any byte outside a
// valid UTF-8 sequence (a raw 8-bit C1 such as 0x9B, CSI). Empty: none.
std::string terminalCommandsIn(const std::string& text) {
    std::string found;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t length = c < 0x80                 ? 1
                             : c >= 0xc2 && c <= 0xdf ? 2
                             : c >= 0xe0 && c <= 0xef ? 3
                             : c >= 0xf0 && c <= 0xf4 ? 4
                                                      : 0;
        for (std::size_t k = 1; k < length; ++k)
            if (i + k >= text.size() || (static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) length = 0;
        const bool control = length == 0 || (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ||
                             (c == 0xc2 && static_cast<unsigned char>(text[i + 1]) <= 0x9f);
        if (control) found += "byte " + std::to_string(c) + " at " + std::to_string(i) + "; ";
        i += length == 0 ? 1 : length;
    }
    return found;
}

// Each direction control (U+061C, U+200E/F, U+202A-202E, U+2066-2069) a
// terminal line holds raw, but a first strong isolate and its pop on the
// same line (an isolate turns nothing outside itself around); and each raw
// zero-width space. Empty: none.
std::string lineTurnersIn(const std::string& text) {
    std::string found;
    std::istringstream lines(text);
    std::string line;
    for (int number = 1; std::getline(lines, line); ++number) {
        int open = 0;
        for (std::size_t i = 0; i + 2 < line.size(); ++i) {
            const auto b0 = static_cast<unsigned char>(line[i]), b1 = static_cast<unsigned char>(line[i + 1]),
                       b2 = static_cast<unsigned char>(line[i + 2]);
            std::string what;
            if (b0 == 0xd8 && b1 == 0x9c) what = "U+061C";
            if (b0 == 0xe2 && b1 == 0x80 &&
                (b2 == 0x8b || b2 == 0x8e || b2 == 0x8f || (b2 >= 0xaa && b2 <= 0xae)))
                what = "U+20.. (byte " + std::to_string(b2) + ")";
            if (b0 == 0xe2 && b1 == 0x81 && (b2 == 0xa6 || b2 == 0xa7)) what = "an LRI or RLI";
            if (b0 == 0xe2 && b1 == 0x81 && b2 == 0xa8) ++open;  // U+2068
            if (b0 == 0xe2 && b1 == 0x81 && b2 == 0xa9 && open-- == 0) what = "a pop with no isolate open";
            if (!what.empty()) found += what + " on line " + std::to_string(number) + "; ";
        }
        if (open > 0) found += "an isolate left open on line " + std::to_string(number) + "; ";
    }
    return found;
}

}  // namespace

TEST_CASE("serve: each game deals from a seed of its own, never the last game's plus one") {
    ScratchDir dir;
    {
        Daemon daemon(dir);
        REQUIRE(daemon.ask("/api/host/new-game", kNewGame).status == 200);
        daemon.awaitOwnDeal();
        REQUIRE(daemon.ask("/api/host/abandon", json::object()).status == 200);
        REQUIRE(daemon.ask("/api/host/new-game", kNewGame).status == 200);
        daemon.awaitOwnDeal();
        // Nowhere in the status or the game log's API while it is played.
        CHECK_FALSE(has(daemon.ask("/api/status").body.dump(), "seed"));
        CHECK_FALSE(has(daemon.ask("/api/games").body.dump(), "seed"));
        CHECK_FALSE(has(daemon.ask("/api/games/2").body.dump(), "seed"));
        REQUIRE(daemon.process.stop(SIGTERM, 20s) == 0);
    }
    GameStore log(dir.file("games.sqlite"), GameStore::Access::MustExist);
    const auto first = log.game(GameId{1}), second = log.game(GameId{2});
    REQUIRE(first);
    REQUIRE(second);
    REQUIRE(first->seed);
    REQUIRE(second->seed);
    const std::uint64_t s1 = *first->seed, s2 = *second->seed;
    CAPTURE(s1);
    CAPTURE(s2);
    CHECK(s2 != s1 + 1);
    // Two draws of 64 random bits differ in about 32; under 8 is one chance in ~10^11.
    CHECK(std::popcount(s2 ^ (s1 + 1)) >= 8);
    CHECK(std::popcount(s2 ^ s1) >= 8);
    // The probe's attack: game 2's favourites from `simulate --seed S+1`.
    const auto lines = log.recordLines(GameId{2});
    REQUIRE(lines.size() >= 2);
    CHECK(lines[1] == firstOwnDeal(s2));      // the referee's first deal follows from its game's seed...
    CHECK(lines[1] != firstOwnDeal(s1 + 1));  // ...and not from the game before's
}

TEST_CASE("host API: a player's name with a control character, or too long, is refused with the reason") {
    ScratchDir dir;
    Daemon daemon(dir);
    struct Bad {
        std::string name, reason;
    };
    const std::vector<Bad> bad = {
        {"Ann\x1b]0;owned\x07", "Player 1’s name holds a control character (U+001B) at character 4."},
        {std::string("Ann\0x", 5), "Player 1’s name holds a control character (U+0000) at character 4."},
        {"Ann\x07", "Player 1’s name holds a control character (U+0007) at character 4."},
        {"An\xc2\x9bn", "Player 1’s name holds a control character (U+009B) at character 3."},
        {std::string(20480, 'A'), "Player 1’s name is 20,480 characters long; at most 40."},
        {"", "Player 1’s name is empty."},
    };
    for (const auto& b : bad) {
        json body = kNewGame;
        body["players"][0] = b.name;
        const auto answer = daemon.ask("/api/host/new-game", body);
        CAPTURE(answer.body.dump());
        CHECK(answer.status == 400);
        CHECK(answer.body.value("message", "") == b.reason);
        CHECK(answer.body["says"]["code"].get<std::string>().starts_with("name."));
    }
    // Invalid UTF-8 cannot come through JSON; 40 characters of any script can.
    json body = kNewGame;
    body["players"][0] = "Zoë " + std::string(18, 'a') + "ééééééééééééééééé";
    CHECK(daemon.ask("/api/host/new-game", body).status == 200);
    CHECK(daemon.ask("/api/status").body["players"][0]["name"].get<std::string>().starts_with("Zoë"));
}

TEST_CASE("show, export and trace export keep a game in progress's secrets unless --reveal") {
    ScratchDir dir;
    const auto db = dir.file("games.sqlite").string();
    vivaref::engine::RulesSpec spec;
    spec.edition = vivaref::engine::Edition::Vive2024;
    spec.seats = 3;
    spec.options.ambition = true;
    {
        GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
        // Game 1 stops in round 1 after the deal, the three keeps and a few placements.
        vivaref::store::testing::writeRandomGame(
            log, spec, 41, [](const auto&, GameId, std::int64_t lines) { return lines < 8; });
        vivaref::store::testing::writeRandomGame(log, spec, 42);  // game 2 is over
    }
    {
        const auto shown = runVivaref(dir, {"show", "--db", db, "1"});
        CAPTURE(shown.out);
        CHECK(shown.status == 0);
        CHECK(shown.err.empty());
        CHECK(has(shown.out, "Favourites: secret until the round is scored."));
        CHECK(has(shown.out, "Ann keeps an Ambition card."));
        CHECK_FALSE(has(shown.out, "    Ann:"));  // a favourites line
        CHECK_FALSE(has(shown.out, "keeps the Ambition card"));
        CHECK_FALSE(has(shown.out, "dealt with seed"));
        CHECK(has(shown.out, "places"));  // the public story is still told
    }
    {
        const auto shown = runVivaref(dir, {"show", "--db", db, "--reveal", "1"});
        CAPTURE(shown.out);
        CHECK(shown.status == 0);
        CHECK(has(shown.err, "warning: game 1 is still being played"));
        CHECK(has(shown.out, "    Ann:"));
        CHECK(has(shown.out, "Ann keeps the Ambition card \""));
        CHECK(has(shown.out, "The referee dealt with seed 41."));
    }
    for (const char* command : {"export", "trace"}) {
        std::vector<std::string> args = {command};
        if (std::string(command) == "trace") args.push_back("export");
        args.insert(args.end(), {"--db", db, "1"});
        const auto refused = runVivaref(dir, args);
        CAPTURE(refused.err);
        CHECK(refused.status == 1);
        CHECK(refused.out.empty());
        CHECK(has(refused.err, "game 1 is still being played"));
        CHECK(has(refused.err, "--reveal"));
    }
    {
        const auto exported = runVivaref(dir, {"export", "--db", db, "--reveal", "1"});
        CHECK(exported.status == 0);
        CHECK(has(exported.err, "warning: game 1 is still being played"));
        CHECK(has(exported.out, "{\"deal\""));
        CHECK(has(exported.out, "{\"keep\""));
    }
    // A finished game is told whole, without a warning.
    const auto finished = runVivaref(dir, {"show", "--db", db, "2"});
    CHECK(finished.status == 0);
    CHECK(finished.err.empty());
    CHECK(has(finished.out, "    Ann:"));
    CHECK(has(finished.out, "keeps the Ambition card"));
    CHECK(has(finished.out, "The referee dealt with seed 42."));
    CHECK(runVivaref(dir, {"export", "--db", db, "2"}).status == 0);
}

TEST_CASE("a log written before names were checked cannot drive the terminal: games, show, stats escape") {
    ScratchDir dir;
    const auto db = dir.file("games.sqlite").string();
    {
        GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
        vivaref::engine::RulesSpec spec;
        spec.seats = 3;
        // Retitle the window and ring; clear the screen; a raw 8-bit CSI and a UTF-8 one.
        log.createGame({spec,
                        {"Ann\x1b]0;owned\x07", "Bob\x1b[2J\x7f",
                         "Cy\x9b"
                         "31m\xc2\x9b"
                         "1m"},
                        std::nullopt,
                        vivaref::store::WallTime(std::chrono::milliseconds(1'700'000'000'000)),
                        {}});
    }
    for (const std::vector<std::string>& args : {std::vector<std::string>{"games", "--db", db},
                                                 {"show", "--db", db, "1"},
                                                 {"stats", "--db", db},
                                                 {"show", "--db", db, "--reveal", "1"}}) {
        const auto run = runVivaref(dir, args);
        CAPTURE(args[0]);
        CAPTURE(run.out);
        CHECK(run.status == 0);
        CHECK(terminalCommandsIn(run.out + run.err) == "");
        if (args[0] != "stats") {
            // The names are still there, their controls written out.
            CHECK(has(run.out, "Ann\\u001b]0;owned\\u0007"));
            CHECK(has(run.out, "Bob\\u001b[2J\\u007f"));
            // `show` says names through ICU, which reads the raw 0x9B as U+FFFD.
            CHECK(has(run.out, args[0] == "show" ? "Cy\uFFFD31m\\u009b1m" : "Cy\\x9b31m\\u009b1m"));
        }
    }
}

TEST_CASE(
    "names that turn a line around are written out, names in any script are isolated: games, show, stats") {
    ScratchDir dir;
    const auto db = dir.file("games.sqlite").string();
    // Logged before the host's checks (daemon/referee/player_names.hpp): they still load.
    const std::vector<std::string> names = {"Eve\u202Eevil", "\u05E2\u05D3\u05D9", "Bo\u2069b\u2066\u200B"};
    {
        GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
        vivaref::engine::RulesSpec spec;
        spec.seats = 3;
        log.createGame({spec,
                        names,
                        std::nullopt,
                        vivaref::store::WallTime(std::chrono::milliseconds(1'700'000'000'000)),
                        {}});
    }
    for (const std::vector<std::string>& args : {std::vector<std::string>{"games", "--db", db},
                                                 {"show", "--db", db, "1"},
                                                 {"stats", "--db", db},
                                                 {"games", "--db", db, "--json"}}) {
        const auto run = runVivaref(dir, args);
        CAPTURE(args[0]);
        CAPTURE(run.out);
        CHECK(run.status == 0);
        CHECK(lineTurnersIn(run.out + run.err) == "");
        CHECK(terminalCommandsIn(run.out + run.err) == "");
        // The names are still there, their direction controls written out.
        CHECK(has(run.out, "Eve\\u202eevil"));
        CHECK(has(run.out, "\u05E2\u05D3\u05D9"));
        CHECK(has(run.out, "\\u200b"));
    }
    // Each name between isolates on the terminal; as kept in JSON, which reads back the same.
    const auto games = runVivaref(dir, {"games", "--db", db});
    CHECK(has(
        games.out,
        "\u2068Eve\\u202eevil\u2069, \u2068\u05E2\u05D3\u05D9\u2069, \u2068Bo\\u2069b\\u2066\\u200b\u2069"));
    const auto listed = json::parse(runVivaref(dir, {"games", "--db", db, "--json"}).out);
    CHECK(listed[0]["players"] == json(names));
}
