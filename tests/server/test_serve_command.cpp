// `vivaref serve` itself, as systemd runs it: started on the simulated
// castle with a fake notify socket, asked over HTTP, stopped by SIGTERM
// (exit status 0, the game saved and resumed by the next start). Every wait
// is bounded: poll() on the process's output, its pidfd and the socket.
#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include <doctest/doctest.h>
#include <sys/stat.h>

#include "daemon/server/host_link.hpp"
#include "daemon/server/qr_svg.hpp"
#include "daemon/server/table_addresses.hpp"
#include "daemon/store/game_store.hpp"
#include "fake_systemd.hpp"
#include "test_client.hpp"
#include "tests/server/temp_directory.hpp"
#include "tests/support/serve_process.hpp"

using namespace vivaref::server::testing;
using nlohmann::json;

namespace {

// `vivaref serve ARGS`, killed and reaped on every way out of the test
// (tests/support/serve_process.hpp).
class ServeProcess : public vivaref::testsupport::ServeProcess {
public:
    ServeProcess(const std::vector<std::string>& args, const std::filesystem::path& stderrFile,
                 std::vector<std::string> extraEnvironment = {})
        : vivaref::testsupport::ServeProcess(VIVAREF_BINARY, args, stderrFile, std::move(extraEnvironment)) {}
};

// The host secret serve made in `dir` (no host_token configured).
std::string hostSecret(const std::filesystem::path& dir) {
    std::string text = readFile(dir / "host-secret");
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
}

// The next notification that is not a watchdog pet.
std::optional<std::string> nextState(FakeSystemd& systemd) {
    for (;;) {
        auto message = systemd.receive(10000ms);
        if (!message || *message != "WATCHDOG=1") return message;
    }
}

}  // namespace

TEST_CASE(
    "serve: READY=1 once listening, watchdog pets, answers, SIGTERM saves and exits 0, restart resumes") {
    TempDirectory dir;
    FakeSystemd systemd;
    REQUIRE(systemd.ok());
    const std::vector<std::string> args = {
        "--hardware=sim", "--listen", "127.0.0.1:0", "--db", (dir / "games.sqlite").string(), "--seed", "7"};
    const std::vector<std::string> env = {"NOTIFY_SOCKET=" + systemd.path(), "WATCHDOG_USEC=200000"};
    {
        ServeProcess serve(args, dir / "stderr-1", env);
        const auto port = serve.waitForPort(30000ms);
        CAPTURE(readFile(dir / "stderr-1"));
        REQUIRE(port != 0);

        auto ready = nextState(systemd);
        REQUIRE(ready);
        CHECK(ready->starts_with("READY=1\nSTATUS=listening on http://127.0.0.1:"));
        bool petted = false;
        for (int i = 0; i < 5 && !petted; ++i) {
            auto message = systemd.receive(10000ms);
            REQUIRE(message);
            petted = *message == "WATCHDOG=1";
        }
        CHECK(petted);

        auto status = get(port, "/api/status");
        REQUIRE(status);
        CHECK(status->status == 200);
        CHECK(status->json()["state"] == "no-game");
        auto info = get(port, "/api/info");
        REQUIRE(info);
        CHECK(info->json()["simulated"] == true);

        auto started = post(
            port, "/api/host/new-game",
            R"({"setup": {"edition": "classic", "seats": 3}, "players": ["Ann", "Bob", "Cy"]})",
            "Content-Type: application/json\r\nAuthorization: Bearer " + hostSecret(dir.path()) + "\r\n");
        REQUIRE(started);
        CHECK(started->status == 200);
        auto gameStatus = nextState(systemd);
        REQUIRE(gameStatus);
        CHECK(*gameStatus == "STATUS=game 1");

        CHECK(serve.stop(SIGTERM, 20000ms) == 0);
        auto stopping = nextState(systemd);
        REQUIRE(stopping);
        CHECK(*stopping == "STOPPING=1");
        CHECK(readFile(dir / "stderr-1").find("stopped (SIGTERM)") != std::string::npos);
    }
    {
        ServeProcess serve(args, dir / "stderr-2", env);
        const auto port = serve.waitForPort(30000ms);
        CAPTURE(readFile(dir / "stderr-2"));
        REQUIRE(port != 0);
        CHECK(readFile(dir / "stderr-2").find("resumed game 1") != std::string::npos);
        auto status = get(port, "/api/status");
        REQUIRE(status);
        CHECK(status->json()["game"] == 1);
        auto games = get(port, "/api/games");
        REQUIRE(games);
        CHECK(games->json()[0]["status"] == "in-progress");
        CHECK(serve.stop(SIGINT, 20000ms) == 0);
    }
}

TEST_CASE("serve with a configuration: the host token guards the host's routes") {
    TempDirectory dir;
    std::ofstream(dir / "castle.ini") << "[castle]\nedition = classic\n\n[daemon]\nhardware = sim\n"
                                         "host_token = serve-test-token\nstate_dir = "
                                      << dir.path().string() << "\n";
    ServeProcess serve({"--config", (dir / "castle.ini").string(), "--listen", "127.0.0.1:0"},
                       dir / "stderr");
    const auto port = serve.waitForPort(30000ms);
    CAPTURE(readFile(dir / "stderr"));
    REQUIRE(port != 0);
    auto refused = post(port, "/api/host/pause", "{}");
    REQUIRE(refused);
    CHECK(refused->status == 401);
    auto allowed = post(port, "/api/host/new-game", R"({"setup": {"edition": "classic", "seats": 4}})",
                        "Content-Type: application/json\r\nAuthorization: Bearer serve-test-token\r\n");
    REQUIRE(allowed);
    CHECK(allowed->status == 200);
    CHECK(serve.stop(SIGTERM, 20000ms) == 0);
    // The game log went where the configuration said.
    CHECK(std::filesystem::exists(dir / "games.sqlite"));
}

TEST_CASE("serve refuses to start on a bad configuration, a bad address or a taken port") {
    TempDirectory dir;
    std::ofstream(dir / "bad.ini") << "[castle]\nedition = chess\n";
    {
        ServeProcess serve({"--config", (dir / "bad.ini").string()}, dir / "stderr-config");
        CHECK(serve.waitExit(30000ms) == 1);
        const auto text = readFile(dir / "stderr-config");
        CHECK(text.find("bad.ini:2") != std::string::npos);
        CHECK(text.find("not starting") != std::string::npos);
    }
    {
        ServeProcess serve({"--listen", "localhost:80x"}, dir / "stderr-listen");
        CHECK(serve.waitExit(30000ms) == 2);
        CHECK(readFile(dir / "stderr-listen").find("listen address") != std::string::npos);
    }
    {
        ServeProcess first({"--listen", "127.0.0.1:0", "--db", (dir / "a.sqlite").string()},
                           dir / "stderr-a");
        const auto port = first.waitForPort(30000ms);
        REQUIRE(port != 0);
        ServeProcess second(
            {"--listen", "127.0.0.1:" + std::to_string(port), "--db", (dir / "b.sqlite").string()},
            dir / "stderr-b");
        CHECK(second.waitExit(30000ms) == 2);
        CHECK(readFile(dir / "stderr-b").find("cannot bind") != std::string::npos);
        CHECK(first.stop(SIGTERM, 20000ms) == 0);
    }
}

TEST_CASE("serve with no host token: a host secret made at first start guards the host and the sim routes") {
    TempDirectory dir;
    const auto state = dir.path() / "state";
    std::ofstream(dir / "castle.ini") << "[castle]\nedition = classic\n\n[daemon]\nhardware = sim\n"
                                         "http_address = 127.0.0.1\nhost_token =\nstate_dir = "
                                      << state.string() << "\n";
    std::string secret;
    {
        ServeProcess serve({"--config", (dir / "castle.ini").string(), "--listen", "127.0.0.1:0"},
                           dir / "stderr-1");
        const auto port = serve.waitForPort(30000ms);
        CAPTURE(readFile(dir / "stderr-1"));
        REQUIRE(port != 0);
        secret = hostSecret(state);
        REQUIRE(secret.size() == 64);
        struct stat info {};
        REQUIRE(::stat((state / "host-secret").c_str(), &info) == 0);
        CHECK((info.st_mode & 0777) == 0600);
        CHECK(readFile(dir / "stderr-1").find("made a new host secret") != std::string::npos);
        const std::string bearer =
            "Content-Type: application/json\r\nAuthorization: Bearer " + secret + "\r\n";
        const std::string game = R"({"setup": {"edition": "classic", "seats": 3}})";
        CHECK(post(port, "/api/host/new-game", game)->status == 401);
        CHECK(get(port, "/api/host/players")->status == 401);
        CHECK(post(port, "/api/sim/press", R"({"station": 0, "key": "yes"})")->status == 401);
        CHECK(post(port, "/api/sim/put", R"({"character": "odessa", "place": "3"})")->status == 401);
        CHECK(get(port, "/api/sim/state")->json()["board"].empty());
        CHECK(post(port, "/api/host/new-game", game, bearer)->status == 200);
        CHECK(post(port, "/api/sim/press", R"({"station": 0, "key": "yes"})", bearer)->status == 200);
        CHECK(serve.stop(SIGTERM, 20000ms) == 0);
    }
    {
        // The same secret at the next start; serve prints the host's link with it.
        ServeProcess serve({"--config", (dir / "castle.ini").string(), "--listen", "127.0.0.1:0"},
                           dir / "stderr-2");
        const auto port = serve.waitForPort(30000ms);
        REQUIRE(port != 0);
        CHECK(hostSecret(state) == secret);
        CHECK(readFile(dir / "stderr-2").find("made a new host secret") == std::string::npos);
        // The links follow the "listening on" line.
        for (int i = 0; i < 50 && serve.output().find("/sim.html#") == std::string::npos; ++i)
            serve.readOutput(std::chrono::steady_clock::now() + 200ms);
        CHECK(serve.output().find("/host.html#" + secret) != std::string::npos);
        CHECK(serve.output().find("/sim.html#" + secret) != std::string::npos);
        CHECK(get(port, "/api/host/players", "Authorization: Bearer " + secret + "\r\n")->status == 200);
        CHECK(serve.stop(SIGTERM, 20000ms) == 0);
    }
    // `vivaref host-link` prints the same link from the state directory.
    auto link = vivaref::testsupport::runCommand(
        VIVAREF_BINARY, {"host-link", "--config", (dir / "castle.ini").string()}, 30000ms);
    CHECK(link.status == 0);
    CHECK(link.out == "http://127.0.0.1:8080/host.html#" + secret + "\n");
    auto simLink = vivaref::testsupport::runCommand(
        VIVAREF_BINARY, {"host-link", "--config", (dir / "castle.ini").string(), "--sim"}, 30000ms);
    CHECK(simLink.out == "http://127.0.0.1:8080/sim.html#" + secret + "\n");
    auto none = vivaref::testsupport::runCommand(
        VIVAREF_BINARY, {"host-link", "--db", (dir / "nowhere" / "games.sqlite").string()}, 30000ms);
    CHECK(none.status == 1);
}

// Issue 35: the links of a game in progress survive a restart of serve
// (kept in the state directory, player_links_file.hpp). A player's link
// answers before and after; a link the host replaced stays refused after
// it; a corrupt file gives new links, said in the journal naming the file;
// a game abandoned takes its links with it. No token in anything serve
// writes but its links file (0600).
TEST_CASE("serve: players' links answer again after a restart; a replaced one stays refused") {
    TempDirectory dir;
    const std::vector<std::string> args = {
        "--hardware=sim", "--listen", "127.0.0.1:0", "--db", (dir / "games.sqlite").string(), "--seed", "7"};
    const auto linksFile = dir.path() / "player-links.json";
    std::vector<std::string> links;
    std::vector<std::string> revoked;
    std::string bearer;
    const auto tokensOfAnswer = [](const json& answer) {
        std::vector<std::string> tokens;
        for (const auto& p : answer["players"]) tokens.push_back(p["token"].get<std::string>());
        return tokens;
    };
    std::string printed;  // everything serve printed, for the no-token check
    {
        ServeProcess serve(args, dir / "stderr-1");
        const auto port = serve.waitForPort(30000ms);
        CAPTURE(readFile(dir / "stderr-1"));
        REQUIRE(port != 0);
        bearer = "Content-Type: application/json\r\nAuthorization: Bearer " + hostSecret(dir.path()) + "\r\n";
        auto started =
            post(port, "/api/host/new-game",
                 R"({"setup": {"edition": "classic", "seats": 3}, "players": ["Ann", "Bob", "Cy"]})", bearer);
        REQUIRE(started);
        REQUIRE(started->status == 200);
        links = tokensOfAnswer(started->json());
        REQUIRE(links.size() == 3);
        for (const auto& token : links) CHECK(get(port, "/api/player/" + token)->status == 200);
        // Bob lost his phone: a new link, the old one refused from now on.
        auto renewed = post(port, "/api/host/new-link", R"({"player": 1})", bearer);
        REQUIRE(renewed);
        REQUIRE(renewed->status == 200);
        revoked.push_back(links[1]);
        links = tokensOfAnswer(renewed->json());
        CHECK(get(port, "/api/player/" + revoked[0])->status == 404);
        // (Bob's new link is not opened before the restart: the renewal alone must be kept.)
        struct stat info {};
        REQUIRE(::stat(linksFile.c_str(), &info) == 0);
        CHECK((info.st_mode & 0777) == 0600);
        CHECK(serve.stop(SIGTERM, 20000ms) == 0);
        printed += serve.output();
    }
    {
        ServeProcess serve(args, dir / "stderr-2");
        const auto port = serve.waitForPort(30000ms);
        CAPTURE(readFile(dir / "stderr-2"));
        REQUIRE(port != 0);
        CHECK(readFile(dir / "stderr-2").find("resumed game 1") != std::string::npos);
        CHECK(readFile(dir / "stderr-2")
                  .find("game 1: the players' links kept in " + linksFile.string() + " work again") !=
              std::string::npos);
        for (const auto& token : links) CHECK(get(port, "/api/player/" + token)->status == 200);
        CHECK(get(port, "/api/player/" + revoked[0])->status == 404);
        auto players =
            get(port, "/api/host/players", "Authorization: Bearer " + hostSecret(dir.path()) + "\r\n");
        REQUIRE(players);
        CHECK(tokensOfAnswer(players->json()) == links);
        CHECK(serve.stop(SIGTERM, 20000ms) == 0);
        printed += serve.output();
    }
    // A corrupt file (a disk that lost its last write): new links, said.
    const std::string whole = readFile(linksFile);
    std::ofstream(linksFile, std::ios::trunc) << whole.substr(0, whole.size() / 2);
    {
        ServeProcess serve(args, dir / "stderr-3");
        const auto port = serve.waitForPort(30000ms);
        CAPTURE(readFile(dir / "stderr-3"));
        REQUIRE(port != 0);
        CHECK(readFile(dir / "stderr-3")
                  .find("the players' links " + linksFile.string() +
                        " cannot be used (it is not a JSON object)") != std::string::npos);
        for (const auto& token : links) CHECK(get(port, "/api/player/" + token)->status == 404);
        revoked.insert(revoked.end(), links.begin(), links.end());
        // The host page's players: the new links, which answer.
        auto players =
            get(port, "/api/host/players", "Authorization: Bearer " + hostSecret(dir.path()) + "\r\n");
        REQUIRE(players);
        links = tokensOfAnswer(players->json());
        for (const auto& token : links) CHECK(get(port, "/api/player/" + token)->status == 200);
        // Abandoned: its links leave the disk (the pages may still read the end).
        CHECK(post(port, "/api/host/abandon", "{}", bearer)->status == 200);
        CHECK_FALSE(std::filesystem::exists(linksFile));
        CHECK(get(port, "/api/player/" + links[0])->status == 200);
        CHECK(serve.stop(SIGTERM, 20000ms) == 0);
        printed += serve.output();
    }
    {
        ServeProcess serve(args, dir / "stderr-4");
        const auto port = serve.waitForPort(30000ms);
        REQUIRE(port != 0);
        for (const auto& token : links) CHECK(get(port, "/api/player/" + token)->status == 404);
        CHECK(serve.stop(SIGTERM, 20000ms) == 0);
        printed += serve.output();
    }
    // No token in what serve printed (stdout, the journal's stderr) nor in the game log.
    for (int i = 1; i <= 4; ++i) printed += readFile(dir.path() / ("stderr-" + std::to_string(i)));
    const std::string log = readFile(dir / "games.sqlite") + readFile(dir / "games.sqlite-wal");
    REQUIRE_FALSE(log.empty());
    for (const auto& token : revoked) {
        CHECK(printed.find(token) == std::string::npos);
        CHECK(log.find(token) == std::string::npos);
    }
    for (const auto& token : links) {
        CHECK(printed.find(token) == std::string::npos);
        CHECK(log.find(token) == std::string::npos);
    }
}

// Issue 34: the first run reaches the table. What serve prints is the
// address a phone opens (this machine's on the table's network, as
// table_addresses.hpp chooses it), or on 127.0.0.1 why no phone can; the
// host's link as a QR code with --qr; and the host's routes still need the
// secret from every address.
TEST_CASE("serve prints the address phones open, or why they cannot; --qr draws the host's link") {
    TempDirectory dir;
    const auto state = dir.path() / "state";
    std::ofstream(dir / "castle.ini") << "[castle]\nedition = classic\n\n[daemon]\nhardware = sim\n"
                                         "host_token =\nstate_dir = "
                                      << state.string() << "\n";
    const auto linesOf = [](ServeProcess& serve, std::string_view last) {
        for (int i = 0; i < 50 && serve.output().find(last) == std::string::npos; ++i)
            serve.readOutput(std::chrono::steady_clock::now() + 200ms);
        return serve.output();
    };
    {
        ServeProcess serve({"--config", (dir / "castle.ini").string(), "--listen", "127.0.0.1:0", "--qr"},
                           dir / "stderr-1");
        const auto port = serve.waitForPort(30000ms);
        REQUIRE(port != 0);
        const std::string out = linesOf(serve, "host-link' prints the link again");
        const std::string here = "http://127.0.0.1:" + std::to_string(port) + "/";
        CAPTURE(out);
        CHECK(out.find("vivaref serve: only this computer opens " + here +
                       ": phones cannot reach it. To open "
                       "the castle to the table, listen on every interface: --listen 0.0.0.0:" +
                       std::to_string(port)) != std::string::npos);
        CHECK(out.find("phones on the table's network open") == std::string::npos);
        // The QR code is the host's link, as qrTerminal draws it, right after the link.
        const std::string link = vivaref::server::hostLink(here, hostSecret(state));
        CHECK(
            out.find(
                "the host's link (open it on the host's phone or laptop only; it unlocks the host's page on "
                "that device): " +
                link + "\n") != std::string::npos);
        CHECK(out.find("the host's link as a QR code, for the host's phone:\n" +
                       vivaref::server::qrTerminal(vivaref::server::encodeQr(link))) != std::string::npos);
        // Answered: the loop runs, with its SIGTERM handler (set after the lines above are printed).
        CHECK(get(port, "/api/info")->json()["table"]["loopback_only"] == true);
        CHECK(serve.stop(SIGTERM, 20000ms) == 0);
    }
    {
        // On every interface: this machine's address phones open (no QR
        // code: stdout is no terminal here), and the secret still needed.
        ServeProcess serve({"--config", (dir / "castle.ini").string(), "--listen", "0.0.0.0:0"},
                           dir / "stderr-2");
        const auto port = serve.waitForPort(30000ms);
        REQUIRE(port != 0);
        const std::string out = linesOf(serve, "host-link' prints the link again");
        CAPTURE(out);
        const auto table = vivaref::server::tableAddressesNow(boost::asio::ip::make_address("0.0.0.0"));
        const std::string first = vivaref::server::tableUrl(table.hosts.front(), port);
        if (table.noNetwork) {
            CHECK(out.find("this computer has no network address a phone could reach yet") !=
                  std::string::npos);
        } else {
            CHECK(table.hosts.front() != "127.0.0.1");
            CHECK(out.find("vivaref serve: phones on the table's network open " + first) !=
                  std::string::npos);
            // The test's client says "Host: 127.0.0.1", no port: the links are on the port it names (none).
            const auto info = get(port, "/api/info");
            REQUIRE(info);
            CHECK(info->json()["table"]["links"][0] == "http://" + table.hosts.front() + "/");
        }
        CHECK(out.find(vivaref::server::hostLink(first, hostSecret(state))) != std::string::npos);
        CHECK(out.find("as a QR code") == std::string::npos);
        CHECK(out.find("only this computer opens") == std::string::npos);
        // Private by default, from every address.
        CHECK(get(port, "/api/host/players")->status == 401);
        CHECK(post(port, "/api/host/new-game", R"({"setup": {"edition": "classic", "seats": 3}})")->status ==
              401);
        CHECK(post(port, "/api/host/new-game", R"({"setup": {"edition": "classic", "seats": 3}})",
                   "Content-Type: application/json\r\nAuthorization: Bearer " + hostSecret(state) + "\r\n")
                  ->status == 200);
        CHECK(serve.stop(SIGTERM, 20000ms) == 0);
    }
}

TEST_CASE("serve --hardware=sim with a configuration that names readers simulates those readers") {
    // The example castle (28 readers, four on each of floors 1-4), its own
    // [daemon] section left out for the test's.
    TempDirectory dir;
    std::ifstream example(VIVAREF_EXAMPLE_CASTLE);
    std::ofstream config(dir / "castle.ini");
    bool inDaemon = false;
    for (std::string line; std::getline(example, line);) {
        if (line.starts_with("[")) inDaemon = line == "[daemon]";
        if (!inDaemon) config << line << "\n";
    }
    config << "\n[daemon]\nhardware = sim\nhost_token = serve-test-token\nstate_dir = " << dir.path().string()
           << "\n";
    config.close();
    {
        ServeProcess serve({"--config", (dir / "castle.ini").string(), "--listen", "127.0.0.1:0"},
                           dir / "stderr");
        const auto port = serve.waitForPort(30000ms);
        CAPTURE(readFile(dir / "stderr"));
        REQUIRE(port != 0);
        const std::string host =
            "Content-Type: application/json\r\nAuthorization: Bearer serve-test-token\r\n";
        auto started =
            post(port, "/api/host/new-game", R"({"setup": {"edition": "2024", "seats": 3}})", host);
        REQUIRE(started);
        CHECK(started->status == 200);
        // Two pieces on floor 4 stand on two of its spots, each over its own reader.
        for (const auto* character : {"ouaf", "caius"}) {
            auto put = post(port, "/api/sim/put",
                            std::string(R"({"character": ")") + character + R"(", "place": "4"})", host);
            REQUIRE(put);
            CHECK(put->status == 200);
        }
        bool seen = false;
        for (int i = 0; i < 100 && !seen; ++i) {
            const auto status = get(port, "/api/status");
            REQUIRE(status);
            const auto board = status->json()["board"]["seen"];
            seen = board.contains("ouaf") && board.contains("caius");
            if (!seen) std::this_thread::sleep_for(50ms);
        }
        CHECK(seen);
        CHECK(serve.stop(SIGTERM, 20000ms) == 0);
    }
    // The game's trace names the example castle's readers, not the standard board's "floor4".
    vivaref::store::GameStore log(dir / "games.sqlite", vivaref::store::GameStore::Access::MustExist);
    std::set<std::string> readers;
    for (const auto& line : log.traceLines(vivaref::store::GameId{1})) {
        const auto parsed = json::parse(line);
        if (parsed.contains("scan")) readers.insert(parsed["scan"]["reader"].get<std::string>());
    }
    CAPTURE(json(readers).dump());
    CHECK(readers.contains("floor4-a"));
    CHECK(readers.contains("floor4-b"));
    CHECK(!readers.contains("floor4"));
}
