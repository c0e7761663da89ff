// Issue 5's "never lose a game": the real `vivaref serve --hardware=sim`
// plays a recorded game through its HTTP API, and is killed with SIGKILL at
// random points (after an acknowledgement, or with a request still on the
// wire), one of them in the middle of an election. After each kill it is
// started again on the same game log, and:
//   - every decision acknowledged before the kill is on disk, in order (a
//     host request or a key press is acknowledged by its HTTP answer, a move
//     by the status showing it; the log is read at that moment and must
//     already hold it), and so is the input (trace line) that led to it
//     (for a placement or a move, the castle's scans that saw it);
//   - the game resumes where it was: the board is guided back, the votes
//     already cast stay cast, and the rest of the record plays on;
//   - the players' links answer as before the kill, and the one the host
//     replaced at the start stays refused (issue 35);
// and at the end `vivaref verify` passes, and `vivaref export` gives the
// record back, whose `vivaref replay` gives the recorded game's result.
//
// The game is driven by its record, not by a timed script: the next record
// line after what the log holds is played (a deal or reshuffle as the host's
// request, a keep from the host, a vote as its key, a placement or move as a
// tag put), after the board is made to match what the referee expects. So a
// kill at any point leaves a state the driver picks up from. The sensing is
// made fast by the configuration (short stability window and grace).
//
// Usage: serve_kill_test VIVAREF RECORD [SEED]; VIVAREF_CRASH_SEED=N picks
// other kill points, VIVAREF_CRASH_KILLS=N their number (default 8). The
// seed is printed on failure. Exit 0 pass, 1 fail.
#include <poll.h>
#include <signal.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

#include <sqlite3.h>

#include "tests/server/test_client.hpp"
#include "tests/support/serve_process.hpp"

using namespace vivaref;
using namespace std::chrono_literals;
using nlohmann::json;
using server::testing::get;
using server::testing::post;
using Clock = std::chrono::steady_clock;

namespace {

struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void require(bool ok, const std::string& what) {
    if (!ok) throw Failure(what);
}

std::string readFile(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<json> jsonLines(const std::string& text) {
    std::vector<json> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.find_first_not_of(" \t\r") != std::string::npos) out.push_back(json::parse(line));
    return out;
}

std::string kindOf(const json& line) { return line.begin().key(); }

// Between two looks while polling with a deadline: leaves the CPU to serve.
void breathe() { ::poll(nullptr, 0, 5); }

// The decision lines of game 1 on disk, setup left out, read by a fresh
// read-only connection (what a process started now would find).
std::vector<json> decisionsOnDisk(const std::filesystem::path& db) {
    sqlite3* handle = nullptr;
    std::vector<json> out;
    if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(handle);
        throw Failure("cannot open " + db.string() + " to read it");
    }
    sqlite3_busy_timeout(handle, 5000);
    sqlite3_stmt* s = nullptr;
    const char* sql =
        "SELECT kind, payload FROM events WHERE game_id = 1 AND kind IN "
        "('deal','keep','place','move','vote','pass','reshuffle','undo') ORDER BY seq";
    if (sqlite3_prepare_v2(handle, sql, -1, &s, nullptr) == SQLITE_OK) {
        while (sqlite3_step(s) == SQLITE_ROW) {
            const std::string kind = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
            require(kind != "undo", "the log holds an undo: this test sends none");
            out.push_back(json::parse(reinterpret_cast<const char*>(sqlite3_column_text(s, 1))));
        }
    }
    sqlite3_finalize(s);
    sqlite3_close(handle);
    return out;
}

// Trace lines of game 1 on disk holding `needle`.
int traceLinesWith(const std::filesystem::path& db, const std::string& needle) {
    sqlite3* handle = nullptr;
    int count = 0;
    if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(handle, "SELECT COUNT(*) FROM trace WHERE game_id = 1 AND instr(line, ?) > 0",
                               -1, &s, nullptr) == SQLITE_OK) {
            sqlite3_bind_text(s, 1, needle.c_str(), -1, SQLITE_TRANSIENT);
            if (sqlite3_step(s) == SQLITE_ROW) count = sqlite3_column_int(s, 0);
        }
        sqlite3_finalize(s);
    }
    sqlite3_close(handle);
    return count;
}

enum class KillMode {
    AfterAnswer,      // the step acknowledged, then killed
    RequestInFlight,  // the request sent, killed before its answer is read
};

// The host's routes and the simulated castle's moves and keys need the host token.
constexpr const char* kHostToken = "crash-test-host-token";
const std::string kHeaders =
    std::string("Content-Type: application/json\r\nAuthorization: Bearer ") + kHostToken + "\r\n";

class Driver {
public:
    Driver(std::string binary, std::filesystem::path dir, std::vector<json> record, std::uint64_t seed)
        : binary_(std::move(binary)), dir_(std::move(dir)), record_(std::move(record)), rng_(seed) {
        db_ = dir_ / "games.sqlite";
        std::ofstream(dir_ / "castle.ini")
            << "[castle]\nedition = " << record_[0]["setup"]["edition"].get<std::string>()
            << "\n\n[daemon]\nhardware = sim\nhost_token = " << kHostToken << "\nstate_dir = "
            << dir_.string()
            // A piece is "gone" once no reader has read it for the grace. A
            // move lands when its new reader has read it twice, and a sweep of
            // the 28 simulated readers takes 280 ms (10 ms each): 120 ms and
            // then 400 ms were outlasted on a loaded machine (the ASan build
            // beside the browser tests), and a move was refused as a piece
            // gone. 1 s is over three sweeps; the default is 3 s.
            << "\n\n[sensing]\nmajority_scans = 1\nstability_window_ms = 30\nin_hand_grace_ms = 1000\n";
    }

    void start() {
        serve_.reset();  // a killed one is reaped already
        serve_ = std::make_unique<testsupport::ServeProcess>(
            binary_,
            std::vector<std::string>{"--config", (dir_ / "castle.ini").string(), "--listen", "127.0.0.1:0",
                                     "--db", db_.string(), "--seed", "7"},
            dir_ / "serve.stderr");
        port_ = serve_->waitForPort(30s);
        require(port_ != 0, "serve did not start: " + readFile(dir_ / "serve.stderr"));
    }

    void newGame() {
        json body = {{"setup", record_[0]["setup"]}};
        auto answer = post(port_, "/api/host/new-game", body.dump(), kHeaders);
        require(answer && answer->status == 200,
                "new-game was refused: " + (answer ? answer->body : "no answer"));
        // One phone lost at the start: its first link replaced (issue 35).
        auto renewed = post(port_, "/api/host/new-link", R"({"player": 0})", kHeaders);
        require(renewed && renewed->status == 200,
                "new-link was refused: " + (renewed ? renewed->body : "no answer"));
        revoked_ = answer->json()["players"][0].value("token", "");
        const json players = renewed->json();  // kept: the loop below reads into it
        for (const auto& p : players["players"]) links_.push_back(p.value("token", ""));
        require(!revoked_.empty() && links_.size() >= 2 && links_[0] != revoked_,
                "no links to replace: " + answer->body + " then " + renewed->body);
    }

    // The players' links of the game in progress answer after a restart,
    // the replaced one does not (issue 35: kept in the state directory,
    // written before the answer, so a SIGKILL right after loses none).
    void checkLinks() {
        for (std::size_t p = 0; p < links_.size(); ++p) {
            if (links_[p].empty()) continue;
            const auto page = get(port_, "/api/player/" + links_[p]);
            require(page && page->status == 200,
                    "after the restart player " + std::to_string(p) + "'s link answers " +
                        (page ? std::to_string(page->status) : std::string("nothing")));
        }
        const auto old = get(port_, "/api/player/" + revoked_);
        require(old && old->status == 404, "after the restart the replaced link is not refused");
    }

    // Plays the record to its end, killing serve before the decisions whose
    // index is in `killAt`; the election kill is one of them.
    void play(const std::set<std::size_t>& killAt) {
        const std::size_t total = record_.size() - 1;  // decisions after the setup
        std::set<std::size_t> done;
        for (int guard = 0; guard < 20'000; ++guard) {
            const auto disk = decisionsOnDisk(db_);
            checkPrefix(disk, "while playing");
            if (disk.size() == total) return;
            const std::size_t n = disk.size();
            const bool kill = killAt.contains(n) && !done.contains(n);
            if (kill) done.insert(n);
            const KillMode mode = rng_() % 3 == 0 ? KillMode::RequestInFlight : KillMode::AfterAnswer;
            playOne(n, kill ? std::optional<KillMode>(mode) : std::nullopt);
            if (kill) {
                restartAfterKill(n, mode);
                ++kills_;
            }
        }
        throw Failure("the game did not end");
    }

    void finish() {
        const auto status = get(port_, "/api/status");
        require(status && status->json()["state"] == "finished",
                "the game is not finished: " + (status ? status->body : "no answer"));
        require(serve_->stop(SIGTERM, 20s) == 0, "serve did not stop cleanly on SIGTERM");
        serve_.reset();
        const std::string dbArg = db_.string();
        auto verify = testsupport::runCommand(binary_, {"verify", "1", "--db", dbArg}, 60s);
        require(verify.status == 0, "vivaref verify 1 failed: " + verify.out);
        auto exported = testsupport::runCommand(binary_, {"export", "1", "--db", dbArg}, 60s);
        require(exported.status == 0, "vivaref export 1 failed");
        auto lines = jsonLines(exported.out);
        require(lines.size() == record_.size(), "the export has " + std::to_string(lines.size()) +
                                                    " lines, the record " + std::to_string(record_.size()));
        for (std::size_t i = 1; i < lines.size(); ++i)
            require(lines[i] == record_[i], "export line " + std::to_string(i + 1) +
                                                " differs: " + lines[i].dump() + " vs " + record_[i].dump());
        auto replayed = testsupport::runCommand(binary_, {"replay", "-"}, 60s, exported.out);
        std::string recordText;
        for (const auto& l : record_) recordText += l.dump() + "\n";
        auto original = testsupport::runCommand(binary_, {"replay", "-"}, 60s, recordText);
        require(replayed.status == 0 && original.status == 0, "replay failed");
        require(json::parse(replayed.out) == json::parse(original.out),
                "the export replays to " + replayed.out + ", the record to " + original.out);
    }

    int kills() const { return kills_; }
    int electionKills() const { return electionKills_; }

private:
    void checkPrefix(const std::vector<json>& disk, const std::string& when) {
        require(disk.size() < record_.size(), "more decisions on disk than in the record");
        for (std::size_t i = 0; i < disk.size(); ++i)
            require(disk[i] == record_[i + 1], "decision " + std::to_string(i + 1) + " on disk " + when +
                                                   " is " + disk[i].dump() + ", the record has " +
                                                   record_[i + 1].dump());
    }

    json status() {
        auto answer = get(port_, "/api/status");
        require(answer && answer->status == 200, "GET /api/status failed");
        return answer->json();
    }

    void send(const std::string& target, const json& body, bool inFlight) {
        if (inFlight) {
            server::testing::TestConnection c(port_);
            require(c.connected(), "cannot connect to serve");
            c.send(server::testing::request("POST", target, body.dump(), kHeaders));
            serve_->killNow();
            return;
        }
        auto answer = post(port_, target, body.dump(), kHeaders);
        require(answer && answer->status == 200,
                target + " " + body.dump() + " answered " + (answer ? answer->body : "nothing"));
    }

    // The board as the referee expects it: tags lifted, moved and put, then
    // wait until it sees exactly that.
    void tidy() {
        json s = status();
        if (s["differences"].empty() && s["in_hand"].empty() && s["guidance"].is_null()) return;
        auto sim = get(port_, "/api/sim/state");
        require(sim && sim->status == 200, "GET /api/sim/state failed");
        std::map<std::string, std::string> physical;
        const json board = sim->json()["board"];
        for (const auto& [place, tags] : board.items())
            for (const auto& tag : tags) physical[tag.get<std::string>()] = place;
        for (const auto& [slug, want] : s["board"]["expected"].items()) {
            auto at = physical.find(slug);
            const bool on = at != physical.end();
            if (want.is_null()) {
                if (on) send("/api/sim/lift", {{"character", slug}}, false);
            } else if (!on || at->second != want.get<std::string>()) {
                send("/api/sim/put", {{"character", slug}, {"place", want}}, false);
            }
        }
        const auto deadline = Clock::now() + 15s;
        for (;;) {
            s = status();
            if (s["differences"].empty() && s["in_hand"].empty() && s["guidance"].is_null()) return;
            require(Clock::now() < deadline, "the board did not settle: " + s["differences"].dump() +
                                                 " guidance " + s["guidance"].dump());
            breathe();
        }
    }

    // Plays record line n+1 (decision n); with `kill`, kills serve in that step.
    void playOne(std::size_t n, std::optional<KillMode> kill) {
        const json& line = record_[n + 1];
        const std::string kind = kindOf(line);
        const json& body = line[kind];
        const bool inFlight = kill == KillMode::RequestInFlight;
        std::string before;
        if (kind == "deal" || kind == "reshuffle") {
            // At once: after its grace the referee would deal from its own seed.
            send("/api/host/" + kind, body, inFlight);
        } else {
            tidy();
            before = status()["last_action"].dump();
            if (kind == "keep") {
                send("/api/host/keep", body, inFlight);
            } else if (kind == "vote") {
                send("/api/sim/press", {{"station", body["seat"]}, {"key", body["card"]}}, inFlight);
            } else if (kind == "place" || kind == "move") {
                // A move as one put (the tag leaves its place and lands at once):
                // a lift first could outlast the short in-hand grace on a busy machine.
                send("/api/sim/put", {{"character", body["character"]}, {"place", body["to"]}}, inFlight);
            }  // a pass: the referee passes by itself once the board matches
        }
        if (inFlight) return;
        // A host request's or a key's answer acknowledges it: the log holds it already.
        if (kind == "deal" || kind == "reshuffle" || kind == "keep" || kind == "vote") {
            const auto disk = decisionsOnDisk(db_);
            require(disk.size() > n, "'" + line.dump() + "' was answered but is not on disk");
        } else {
            waitForDecision(n, line, before);
        }
        if (kill) {
            require(serve_->killNow(), "serve did not die of SIGKILL");
        }
    }

    // A move is acknowledged when the status shows it; from then on it must be on disk.
    void waitForDecision(std::size_t n, const json& line, const std::string& before) {
        const auto deadline = Clock::now() + 15s;
        for (;;) {
            const json s = status();
            const bool shown = s["last_action"].dump() != before;
            const auto disk = decisionsOnDisk(db_);
            if (disk.size() > n) return;
            require(!shown, "the status shows '" + s["last_action"].dump() + "' but the log does not hold " +
                                line.dump());
            require(s["refusal"].is_null(), "refused: " + s["refusal"].dump() + " for " + line.dump());
            require(Clock::now() < deadline, "no decision for " + line.dump() + " in 15 s");
            breathe();
        }
    }

    void restartAfterKill(std::size_t n, KillMode mode) {
        const auto disk = decisionsOnDisk(db_);
        // Acknowledged: every decision before n, and decision n itself after its answer.
        const std::size_t acknowledged = mode == KillMode::AfterAnswer ? n + 1 : n;
        require(disk.size() >= acknowledged, "after the kill the log holds " + std::to_string(disk.size()) +
                                                 " decisions, " + std::to_string(acknowledged) +
                                                 " were acknowledged");
        checkPrefix(disk, "after a kill");
        // Every decision on disk has on disk the input that led to it (its trace line).
        std::map<std::string, int> decided;
        for (const auto& d : disk) ++decided[kindOf(d)];
        require(traceLinesWith(db_, "\"button\"") >= decided["vote"],
                "a vote on disk lacks its key press in the trace");
        require(traceLinesWith(db_, "\"deal\"") >= decided["deal"],
                "a deal on disk lacks its host line in the trace");
        // A placement or move is seen by the castle's readers: the scans
        // that found the tag at its new place (a first read and the one that
        // confirmed it) are `once` lines of the trace.
        require(traceLinesWith(db_, "\"once\"") >= 2 * (decided["place"] + decided["move"]),
                "a placement or move on disk lacks the scans that saw it in the trace");
        start();
        const json s = status();
        require(s["game"] == 1 && (s["state"] == "playing" || s["state"] == "finished"),
                "after the restart the game is not resumed: " + s.dump());
        if (s["state"] == "playing") checkLinks();
        // Mid-election: the votes already cast are still cast.
        const bool midElection = disk.size() < record_.size() - 1 &&
                                 kindOf(record_[disk.size() + 1]) == "vote" && !disk.empty() &&
                                 kindOf(disk.back()) == "vote";
        if (midElection) {
            std::size_t cast = 0;  // this election's votes on disk: the trailing ones
            for (auto it = disk.rbegin(); it != disk.rend() && kindOf(*it) == "vote"; ++it) ++cast;
            require(!s["election"].is_null(), "an election was under way, the resumed status has none");
            require(s["election"]["voted"].size() == cast,
                    std::to_string(cast) +
                        " votes were cast before the kill, the resumed "
                        "election has " +
                        s["election"].dump());
            ++electionKills_;
        }
    }

    std::string binary_;
    std::filesystem::path dir_;
    std::filesystem::path db_;
    std::vector<json> record_;
    std::mt19937_64 rng_;
    std::unique_ptr<testsupport::ServeProcess> serve_;
    std::uint16_t port_ = 0;
    std::vector<std::string> links_;  // the players' links (one replaced)
    std::string revoked_;             // the replaced one
    int kills_ = 0;
    int electionKills_ = 0;
};

// Kill points: decisions not next to a deal or reshuffle (the referee's own
// chance would deal from its seed if the host's came after its grace, and a
// restart takes long), one of them inside an election with a vote already in.
std::set<std::size_t> killPoints(const std::vector<json>& record, std::uint64_t seed, int count) {
    std::mt19937_64 rng(seed);
    auto chance = [&](std::size_t d) {
        if (d + 1 >= record.size()) return false;
        const auto k = kindOf(record[d + 1]);
        return k == "deal" || k == "reshuffle";
    };
    std::vector<std::size_t> allowed, midElection;
    for (std::size_t d = 1; d + 2 < record.size(); ++d) {
        if (chance(d) || chance(d + 1) || chance(d - 1)) continue;
        allowed.push_back(d);
        if (kindOf(record[d]) == "vote" && kindOf(record[d + 1]) == "vote" && kindOf(record[d + 2]) == "vote")
            midElection.push_back(d);  // decision d is the second vote of at least three
    }
    std::set<std::size_t> out;
    if (!midElection.empty()) out.insert(midElection[rng() % midElection.size()]);
    while (static_cast<int>(out.size()) < count && out.size() < allowed.size())
        out.insert(allowed[rng() % allowed.size()]);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: serve_kill_test VIVAREF RECORD [SEED]\n";
        return 2;
    }
    std::uint64_t seed = 20261121;
    if (const char* env = std::getenv("VIVAREF_CRASH_SEED")) seed = std::strtoull(env, nullptr, 10);
    if (argc > 3) seed = std::strtoull(argv[3], nullptr, 10);
    int count = 8;
    if (const char* env = std::getenv("VIVAREF_CRASH_KILLS")) count = std::max(1, std::atoi(env));

    std::string pattern = (std::filesystem::temp_directory_path() / "vivaref-crash-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
        std::cerr << "serve_kill_test: cannot make a scratch directory\n";
        return 2;
    }
    const std::filesystem::path dir = pattern;
    int status = 0;
    const auto started = Clock::now();
    try {
        const auto record = jsonLines(readFile(argv[2]));
        require(record.size() > 2 && record[0].contains("setup"),
                std::string(argv[2]) + " is not a game record");
        const auto kills = killPoints(record, seed, count);
        Driver driver(argv[1], dir, record, seed);
        driver.start();
        driver.newGame();
        driver.play(kills);
        driver.finish();
        const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
        std::cout << "serve_kill_test: " << driver.kills() << " kills (" << driver.electionKills()
                  << " mid-election), " << record.size() << " record lines, nothing acknowledged lost, "
                  << "verify, export and replay agree (" << seconds << " s, seed " << seed << ")\n";
    } catch (const std::exception& e) {
        std::cerr << "serve_kill_test FAILED (seed " << seed << ", VIVAREF_CRASH_SEED=" << seed
                  << " to rerun): " << e.what() << "\nserve's stderr:\n"
                  << readFile(dir / "serve.stderr") << "\n";
        status = 1;
    }
    std::error_code ignored;
    if (status == 0) std::filesystem::remove_all(dir, ignored);
    return status;
}
