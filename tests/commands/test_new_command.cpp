// `vivaref new` and `vivaref host` against the real `vivaref serve
// --hardware=sim` on a free port: a game started from flags and from a
// setup object, the referee's refusals printed with their codes, the host
// token from each place it can come from, no daemon at the address, and
// malformed command lines. Every child is killed on every way out
// (tests/support) and every wait is bounded.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <sys/socket.h>

#include "daemon/commands/daemon_client.hpp"
#include "tests/support/serve_process.hpp"

using namespace std::chrono_literals;
using nlohmann::json;
using vivaref::testsupport::CommandResult;
using vivaref::testsupport::ServeProcess;

namespace {

class ScratchDir {
public:
    ScratchDir() {
        std::string name = (std::filesystem::temp_directory_path() / "vivaref-cli-new-XXXXXX").string();
        REQUIRE(::mkdtemp(name.data()) != nullptr);
        path_ = name;
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// `vivaref ARGS` to its end (at most 20 s), with `environment` (NAME=VALUE) added.
CommandResult runVivaref(const ScratchDir& dir, const std::vector<std::string>& args,
                         std::vector<std::string> environment = {}) {
    static std::atomic<int> runs{0};
    // The game log of the daemon the tests start: `new` and `host` find the
    // host secret serve made beside it, as on the castle's own machine.
    environment.insert(environment.begin(), "VIVAREF_DB=" + (dir.path() / "games.sqlite").string());
    return vivaref::testsupport::runCommand(
        VIVAREF_BINARY, args, 20s,
        {{}, std::move(environment), dir.path() / ("stderr-" + std::to_string(++runs))});
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The simulated castle's daemon on a free port, its log in `dir`.
struct Daemon {
    Daemon(const ScratchDir& dir, std::vector<std::string> extra = {})
        : process(VIVAREF_BINARY, arguments(dir, std::move(extra)), dir.path() / "serve.err") {
        port = process.waitForPort(20s);
        REQUIRE(port != 0);
        url = "http://127.0.0.1:" + std::to_string(port);
    }
    static std::vector<std::string> arguments(const ScratchDir& dir, std::vector<std::string> extra) {
        std::vector<std::string> args = {"--hardware=sim", "--listen", "127.0.0.1:0", "--db",
                                         (dir.path() / "games.sqlite").string()};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    }
    // A public GET through the commands' own client.
    json get(const std::string& target) const {
        vivaref::daemon::DaemonRequest request;
        request.target = target;
        const auto answer = vivaref::daemon::askDaemon({"127.0.0.1", port}, request);
        REQUIRE(std::holds_alternative<vivaref::daemon::DaemonAnswer>(answer));
        const auto& a = std::get<vivaref::daemon::DaemonAnswer>(answer);
        INFO(a.body.dump());
        REQUIRE(a.status == 200);
        return a.body;
    }

    ServeProcess process;
    std::uint16_t port = 0;
    std::string url;
};

struct Link {
    int seat = 0;
    std::string name, token;
};

// The "  seat N  NAME  URL" lines `new` and `host players` print, whose URL
// is `url`/player.html# and a token of 64 hex digits; NAME is between a
// first strong isolate and its pop (U+2068, U+2069), which must be there.
std::vector<Link> linksIn(const std::string& out, const std::string& url) {
    std::vector<Link> links;
    std::istringstream lines(out);
    const std::string page = url + "/player.html#";
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::string seatWord, link;
        Link l;
        if (!line.starts_with("  seat ") || !(words >> seatWord >> l.seat >> l.name >> link) ||
            !link.starts_with(page))
            continue;
        const std::string open = "\u2068", close = "\u2069";
        if (!l.name.starts_with(open) || !l.name.ends_with(close)) continue;
        l.name = l.name.substr(open.size(), l.name.size() - open.size() - close.size());
        l.token = link.substr(page.size());
        if (l.token.size() == 64 && l.token.find_first_not_of("0123456789abcdef") == std::string::npos)
            links.push_back(l);
    }
    return links;
}

// A TCP socket on a free port of 127.0.0.1, listening or not, closed with
// its scope.
class LoopbackSocket {
public:
    explicit LoopbackSocket(bool listening) : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
        REQUIRE(fd_ >= 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t size = sizeof address;
        REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &size) == 0);
        if (listening) REQUIRE(::listen(fd_, 4) == 0);
        port_ = ntohs(address.sin_port);
    }
    ~LoopbackSocket() {
        if (fd_ >= 0) ::close(fd_);
    }
    LoopbackSocket(const LoopbackSocket&) = delete;
    LoopbackSocket& operator=(const LoopbackSocket&) = delete;
    std::uint16_t port() const { return port_; }

private:
    int fd_ = -1;
    std::uint16_t port_ = 0;
};

// A port with nothing listening on it (bound, then released).
std::uint16_t closedPort() { return LoopbackSocket(false).port(); }

}  // namespace

TEST_CASE("vivaref new starts a game from flags and prints each player's private link") {
    ScratchDir dir;
    Daemon daemon(dir);
    auto run = runVivaref(dir, {"new", "--url", daemon.url, "--edition", "classic", "--rounds", "2",
                                "--first", "1", "--players", "Ann, Bob,Cy,Dan"});
    INFO(run.out, run.err);
    REQUIRE(run.status == 0);
    CHECK(has(run.out, "Game 1: each player opens their own link"));
    CHECK(has(run.out,
              "The table's page: " + daemon.url + "/   the host's page: " + daemon.url + "/host.html"));
    const auto links = linksIn(run.out, daemon.url);
    REQUIRE(links.size() == 4);
    const std::vector<std::string> names = {"Ann", "Bob", "Cy", "Dan"};
    for (int p = 0; p < 4; ++p) {
        CHECK(links[p].seat == p + 1);
        CHECK(links[p].name == names[p]);
        // Each link is that player's private page.
        CHECK(daemon.get("/api/player/" + links[p].token).contains("private"));
    }

    const json status = daemon.get("/api/status");
    CHECK(status["game"] == 1);
    CHECK(status["edition"] == "classic");
    CHECK(status["favourites_mode"] == "dealt");
    REQUIRE(status["players"].size() == 4);
    for (int p = 0; p < 4; ++p) {
        CHECK(status["players"][p]["name"] == names[p]);
        CHECK(status["players"][p]["seat"] == p);
    }
    CHECK(status["view"]["first_player"] == 1);
    CHECK(status["view"]["rounds"] == 2);
    for (int p = 0; p < 4; ++p) CHECK(status["players"][p]["bot"].is_null());

    SUBCASE("--bot makes a seat a bot; a bad --bot is the command line's error") {
        runVivaref(dir, {"host", "abandon", "--url", daemon.url});
        run = runVivaref(dir, {"new", "--url", daemon.url, "--edition", "classic", "--players",
                               "Ann,Bob,Clara,Dan", "--bot", "2:strong", "--bot", "3"});
        INFO(run.err);
        REQUIRE(run.status == 0);
        const json bots = daemon.get("/api/status")["players"];
        CHECK(bots[0]["bot"].is_null());
        CHECK(bots[2]["bot"] == "strong");
        CHECK(bots[3]["bot"] == "good");
        // The bots' seats get no link: the referee plays them, their cards are its own.
        std::vector<std::string> linked;
        for (const auto& link : linksIn(run.out, daemon.url)) linked.push_back(link.name);
        CHECK(linked == std::vector<std::string>{"Ann", "Bob"});
        CHECK(has(run.out, "  seat 3  \u2068Clara\u2069  played by the referee (a bot): no link"));
        CHECK(has(run.out, "  seat 4  \u2068Dan\u2069    played by the referee (a bot): no link"));
        for (const auto& bad : {"two", "1:genius", ":good"}) {
            run = runVivaref(
                dir, {"new", "--url", daemon.url, "--edition", "classic", "--seats", "4", "--bot", bad});
            CHECK(run.status == 2);
            CHECK(has(run.err, "vivaref new: "));
        }
    }

    SUBCASE("a player named as a character: started, with a warning (issue 34)") {
        runVivaref(dir, {"host", "abandon", "--url", daemon.url});
        run = runVivaref(dir,
                         {"new", "--url", daemon.url, "--edition", "classic", "--players", "Ann,Dario,Cy"});
        INFO(run.err);
        REQUIRE(run.status == 0);
        CHECK(has(run.err,
                  "vivaref new: warning: \u2068Dario\u2069 is also the name of the character Dario "
                  "l'Antiquario"));
        CHECK(linksIn(run.out, daemon.url).size() == 3);
    }

    SUBCASE("host players prints the same links again") {
        run = runVivaref(dir, {"host", "players", "--url", daemon.url});
        REQUIRE(run.status == 0);
        const auto again = linksIn(run.out, daemon.url);
        REQUIRE(again.size() == 4);
        for (int p = 0; p < 4; ++p) CHECK(again[p].token == links[p].token);
    }

    SUBCASE("a second new is refused while the game is played; after abandon, a new one starts") {
        run = runVivaref(dir, {"new", "--url", daemon.url, "--edition", "2024", "--seats", "3"});
        CHECK(run.status == 1);
        // The referee's code, then its sentence.
        CHECK(has(run.err, "vivaref new: refused: game-in-progress: "));
        CHECK(run.err.find("game-in-progress: ") + 19 < run.err.find('\n'));
        CHECK(run.out.empty());
        CHECK(daemon.get("/api/status")["game"] == 1);

        run = runVivaref(dir, {"host", "abandon", "--url", daemon.url});
        CHECK(run.status == 0);
        CHECK(run.out == "abandon: done (game 1)\n");

        run =
            runVivaref(dir, {"new", "--url", daemon.url, "--json", "--setup",
                             R"({"edition": "2024", "seats": 3, "options": {"ambition": true}})", "--player",
                             "Eve", "--player", "Fay", "--player", "Gil", "--favourites", "physical"});
        INFO(run.err);
        REQUIRE(run.status == 0);
        const json answer = json::parse(run.out);
        CHECK(answer["game"] == 2);
        REQUIRE(answer["players"].size() == 3);
        CHECK(answer["players"][2]["name"] == "Gil");
        CHECK(answer["players"][2]["url"] ==
              daemon.url + "/player.html#" + answer["players"][2]["token"].get<std::string>());
        const json second = daemon.get("/api/status");
        CHECK(second["game"] == 2);
        CHECK(second["edition"] == "2024");
        CHECK(second["favourites_mode"] == "physical");
    }

    SUBCASE("the host's other requests go through and their refusals come back") {
        run = runVivaref(dir, {"host", "pause", "--url", daemon.url});
        CHECK(run.status == 0);
        CHECK(run.out == "pause: done (game 1)\n");
        run = runVivaref(dir, {"host", "pause", "--url", daemon.url, "--json"});
        CHECK(run.status == 1);
        CHECK(has(run.err, "vivaref host: refused: paused: The game is already paused."));
        run = runVivaref(dir, {"host", "resume", "--url", daemon.url, "--json"});
        CHECK(run.status == 0);
        CHECK(json::parse(run.out) == json{{"ok", true}, {"game", 1}});
        run = runVivaref(dir, {"host", "shuffle", "--url", daemon.url});
        CHECK(run.status == 1);
        CHECK(has(run.err, "refused: no-such-request: "));
        run = runVivaref(dir, {"host", "keep", R"({"player": 9})", "--url", daemon.url});
        CHECK(run.status == 1);
        CHECK(has(run.err, "vivaref host: refused: "));
    }
}

TEST_CASE("a setup the referee refuses is printed with its code and sentence; no game starts") {
    ScratchDir dir;
    Daemon daemon(dir);
    struct Case {
        std::vector<std::string> flags;
        std::string said;
    };
    const std::vector<Case> cases = {
        {{"--edition", "chess", "--seats", "4"},
         "refused: bad-setup: The edition must be classic, online or 2024."},
        {{"--edition", "classic", "--seats", "12"}, "refused: bad-setup: "},
        {{"--edition", "classic", "--seats", "4", "--ambition"},
         "refused: bad-setup: The setup line has the key"},
        {{"--edition", "2024", "--seats", "4", "--variant", "pirates"},
         "refused: bad-setup: The variant must be none, emissary, royal-couple, teams or team-pawn."},
        {{"--setup", "[4]"}, "refused: bad-request: the new-game setup is not a JSON object"},
        {{"--edition", "classic", "--seats", "4", "--favourites", "some"}, "refused: bad-request: "},
        {{"--edition", "classic", "--seats", "4", "--bot", "4"},
         "refused: bad-bots: This game has seats 1 to 4: there is no seat 5 for a bot."},
    };
    for (const auto& c : cases) {
        std::vector<std::string> args = {"new", "--url", daemon.url};
        args.insert(args.end(), c.flags.begin(), c.flags.end());
        const auto run = runVivaref(dir, args);
        INFO(c.said, " ", run.err);
        CHECK(run.status == 1);
        CHECK(has(run.err, "vivaref new: " + c.said));
    }
    CHECK(daemon.get("/api/status")["game"].is_null());

    // Teams from the flags: the seats are the teams' when --seats is left out.
    const auto run = runVivaref(dir, {"new", "--url", daemon.url, "--edition", "2024", "--variant", "teams",
                                      "--teams", "0,1; 2,3; 4", "--players", "A,B,C,D,E"});
    INFO(run.err);
    REQUIRE(run.status == 0);
    const json status = daemon.get("/api/status");
    CHECK(status["variant"] == "teams");
    REQUIRE(status["players"].size() == 5);
    CHECK(status["players"][1]["seat"] == 0);
    CHECK(status["players"][3]["seat"] == 1);
    CHECK(status["players"][4]["seat"] == 2);
    const auto links = linksIn(run.out, daemon.url);
    REQUIRE(links.size() == 5);
    CHECK(links[3].seat == 2);
}

TEST_CASE("the host token: asked for when missing, from --host-token, the environment or --config") {
    ScratchDir dir;
    const auto config = dir.path() / "castle.ini";
    std::ofstream(config) << "[castle]\nedition = classic\n[daemon]\nhardware = sim\nhttp_address = 0.0.0.0\n"
                             "http_port = 1\nhost_token = s3cret-token-for-tests\nstate_dir = "
                          << dir.path().string() << "\n";
    Daemon daemon(dir, {"--config", config.string()});
    const std::vector<std::string> game = {"--edition", "classic", "--seats", "3"};
    auto withGame = [&](std::vector<std::string> args) {
        args.insert(args.end(), game.begin(), game.end());
        return args;
    };

    auto run = runVivaref(dir, withGame({"new", "--url", daemon.url}));
    CHECK(run.status == 1);
    CHECK(has(run.err, "vivaref new: refused: host-credential: "));
    CHECK(has(run.err,
              "this daemon wants the host token: give it with --host-token, $VIVAREF_HOST_TOKEN or "
              "the host_token of --config FILE"));
    run = runVivaref(dir, withGame({"new", "--url", daemon.url, "--host-token", "guess"}));
    CHECK(run.status == 1);
    CHECK(has(run.err, "the host token given is not this daemon's"));
    CHECK(daemon.get("/api/status")["game"].is_null());

    run = runVivaref(dir, withGame({"new", "--url", daemon.url}),
                     {"VIVAREF_HOST_TOKEN=s3cret-token-for-tests"});
    CHECK(run.status == 0);
    // --url wins over the configuration's address; the token is the configuration's.
    run = runVivaref(dir, {"host", "abandon", "--config", config.string(), "--url", daemon.url});
    CHECK(run.status == 0);
    run = runVivaref(dir, withGame({"new", "--url", daemon.url, "--host-token", "s3cret-token-for-tests"}));
    CHECK(run.status == 0);
    CHECK(daemon.get("/api/status")["game"] == 2);

    // Without --url, the configuration's address: every interface is this machine's loopback.
    run = runVivaref(dir, withGame({"new", "--config", config.string()}));
    CHECK(run.status == 2);
    CHECK(has(run.err, "vivaref new: cannot reach the daemon at http://127.0.0.1:1: "));
}

TEST_CASE("no daemon at the address: exit 2 at once, naming the address") {
    ScratchDir dir;
    const std::string url = "http://127.0.0.1:" + std::to_string(closedPort());
    auto run = runVivaref(dir, {"new", "--url", url, "--edition", "classic", "--seats", "4"});
    CHECK(run.status == 2);
    CHECK(has(run.err, "vivaref new: cannot reach the daemon at " + url + ": Connection refused"));
    CHECK(run.took < 5s);
    run = runVivaref(dir, {"host", "undo", "--url", url});
    CHECK(run.status == 2);
    CHECK(has(run.err, "vivaref host: cannot reach the daemon at " + url));

    // Something that accepts connections (the kernel does, into the backlog)
    // but never answers: given up after --timeout.
    const LoopbackSocket listener(true);
    const std::string silent = "http://127.0.0.1:" + std::to_string(listener.port());
    run = runVivaref(dir, {"new", "--url", silent, "--timeout", "1", "--edition", "classic", "--seats", "4"});
    CHECK(run.status == 2);
    CHECK(has(run.err, "cannot reach the daemon at " + silent + ": no answer within 1 s"));
    CHECK(run.took < 5s);
}

TEST_CASE("malformed command lines: exit 2 with the usage hint, nothing sent") {
    ScratchDir dir;
    // Nothing listens there: a request sent would be a different error.
    const std::string url = "http://127.0.0.1:" + std::to_string(closedPort());
    struct Case {
        std::vector<std::string> args;
        std::string said;
    };
    const std::vector<Case> cases = {
        {{"new"}, "say which game: --edition"},
        {{"new", "--edition", "classic"}, "say how many seats"},
        {{"new", "--edition", "classic", "--seats", "four"}, "--seats"},
        {{"new", "--edition", "classic", "--seats", "4", "--rounds", "2.5"}, "--rounds"},
        {{"new", "--edition", "classic", "--seats", "4", "--setup", "{}"}, "--edition cannot come with it"},
        {{"new", "--ambition", "--setup", "{}"}, "its \"options\" say ambition and banished"},
        {{"new", "--setup", "{\"edition\": "}, "--setup is not JSON"},
        {{"new", "--edition", "2024", "--variant", "teams", "--teams", "0,1;x"}, "seat 2 has 'x'"},
        {{"new", "--edition", "2024", "--teams", "0,1;;2"}, "seat 2 has ''"},
        {{"new", "--edition", "classic", "--players", "A,B,C", "--player", "D"}, "not both"},
        {{"new", "--edition", "classic", "--players", "A,,C"}, "Player 2’s name is empty."},
        {{"new", "--edition", "classic", "--players", "Ann,B,ANN "}, "Players 1 and 3 have the same name"},
        {{"new", "--edition", "classic", "--players", "A,\u202eB,C"}, "direction control (U+202E)"},
        {{"new", "--edition", "classic", "--players", "A,B,\u200b \u3164"}, "Player 3’s name shows nothing"},
        {{"new", "--edition", "classic", "--seats", "4", "extra"}, "too many positional"},
        {{"new", "--edition", "classic", "--seats", "4", "--colour", "red"}, "unrecognised option"},
        {{"new", "--edition", "classic", "--seats", "4", "--timeout", "0"}, "--timeout"},
        {{"host"}, "name the REQUEST"},
        {{"host", "../sim/put"}, "'../sim/put' is not a request's name"},
        {{"host", "players", "{}"}, "players takes no BODY"},
        {{"host", "keep", "{\"player\""}, "BODY is not JSON"},
        {{"host", "undo", "{}", "more"}, "too many positional"},
    };
    for (const auto& c : cases) {
        auto args = c.args;
        args.insert(args.end(), {"--url", url});
        const auto run = runVivaref(dir, args);
        INFO(c.said, " ", run.err);
        CHECK(run.status == 2);
        CHECK(has(run.err, c.said));
        CHECK(has(run.err, "Try 'vivaref " + c.args.front() + " --help'."));
        CHECK(run.out.empty());
    }
    for (const char* bad : {"ftp://castle", "http://castle:99999", "http://castle/api"}) {
        const auto run = runVivaref(dir, {"new", "--url", bad, "--edition", "classic", "--seats", "4"});
        CHECK(run.status == 2);
        CHECK(has(run.err, std::string("the daemon's address '") + bad + "'"));
    }
    const auto missing = (dir.path() / "missing.ini").string();
    auto run = runVivaref(dir, {"new", "--config", missing, "--edition", "classic", "--seats", "4"});
    CHECK(run.status == 2);
    CHECK(has(run.err, missing));
    CHECK(has(run.err, "vivaref new: the configuration cannot be used"));

    run = runVivaref(dir, {"new", "--help"});
    CHECK(run.status == 0);
    CHECK(has(run.out, "Examples:"));
    CHECK(has(run.out, "--favourites"));
    run = runVivaref(dir, {"host", "--help"});
    CHECK(run.status == 0);
    CHECK(has(run.out, "reveal"));
}
