// The pusher against an in-memory club keyed by uid, under faults: the
// server down then back, a push that lands but throws before returning, a
// refusal, a pusher stopped mid-push, a table killed before the push. Each
// ended game reaches the club exactly once.
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include <doctest/doctest.h>

#include "daemon/club/outbox_pusher.hpp"
#include "daemon/store/game_store.hpp"
#include "daemon/store/sqlite.hpp"
#include "tests/store/random_game_writer.hpp"

using namespace vivaref;
using namespace vivaref::club;
using namespace vivaref::store;
using namespace vivaref::store::testing;
using namespace std::chrono_literals;

namespace {

// The club's server: games by uid, members, and switches for its faults.
struct FakeClub {
    std::mutex mutex;
    std::map<std::string, GameUpload> games;
    std::map<std::string, int> landings;  // times each uid was inserted (never more than once)
    std::vector<ClubMember> memberList{{1, "Clara"}, {2, "Bob"}};
    bool down = false;
    bool landThenDrop = false;      // the next push commits, then the connection drops
    std::string refuseUid;          // this game is refused (permanent)
    std::atomic<bool> hold{false};  // a push waits here while set
    std::atomic<int> pushCalls{0};
    std::atomic<int> connects{0};
    std::vector<std::chrono::steady_clock::time_point> failedAt;

    std::size_t count() {
        std::lock_guard lock(mutex);
        return games.size();
    }
};

class FakeLink : public ClubLink {
public:
    explicit FakeLink(std::shared_ptr<FakeClub> club) : club_(std::move(club)) {}
    PushOutcome push(const GameUpload& game) override {
        ++club_->pushCalls;
        while (club_->hold) std::this_thread::sleep_for(2ms);
        std::lock_guard lock(club_->mutex);
        if (club_->down) {
            club_->failedAt.push_back(std::chrono::steady_clock::now());
            throw ClubError("server unreachable", true);
        }
        if (game.uid == club_->refuseUid) throw ClubError("table 'hall' may not push games", false);
        if (club_->games.count(game.uid)) return PushOutcome::AlreadyThere;
        club_->games[game.uid] = game;
        ++club_->landings[game.uid];
        if (club_->landThenDrop) {
            club_->landThenDrop = false;
            throw ClubError("connection lost", true);
        }
        return PushOutcome::Inserted;
    }
    std::vector<ClubMember> members() override {
        std::lock_guard lock(club_->mutex);
        if (club_->down) {
            club_->failedAt.push_back(std::chrono::steady_clock::now());
            throw ClubError("server unreachable", true);
        }
        return club_->memberList;
    }

private:
    std::shared_ptr<FakeClub> club_;
};

OutboxPusher::LinkFactory factoryFor(const std::shared_ptr<FakeClub>& club) {
    return [club]() -> std::unique_ptr<ClubLink> {
        ++club->connects;
        {
            std::lock_guard lock(club->mutex);
            if (club->down) {
                club->failedAt.push_back(std::chrono::steady_clock::now());
                throw ClubError("server unreachable", true);
            }
        }
        return std::make_unique<FakeLink>(club);
    };
}

OutboxPusherOptions fastOptions(const std::filesystem::path& log) {
    OutboxPusherOptions o;
    o.log = log;
    o.table = "hall";
    o.server = "club.example";
    o.firstRetry = 20ms;
    o.maxRetry = 160ms;
    o.refusedRetry = 1h;
    o.membersEvery = 1h;
    return o;
}

template <class Condition>
bool waitFor(Condition condition, std::chrono::milliseconds limit = 5s) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
        if (condition()) return true;
        std::this_thread::sleep_for(5ms);
    }
    return condition();
}

// A log with `games` ended games queued for the club, and one in progress.
std::vector<GameId> fillLog(const std::filesystem::path& file, std::uint64_t games,
                            std::uint64_t firstSeed = 1) {
    GameStore log(file, GameStore::Access::CreateIfMissing);
    log.setClubConfigured(true);
    std::vector<GameId> ids;
    for (std::uint64_t s = firstSeed; s < firstSeed + games; ++s)
        ids.push_back(writeRandomGame(log, randomSpec(s), s).id);
    auto cut = [](const WriteStatus&, GameId, std::int64_t lines) { return lines < 8; };
    writeRandomGame(log, randomSpec(firstSeed + 500), firstSeed + 500, cut);  // in progress: never leaves
    return ids;
}

void checkExactlyOnce(FakeClub& club, const std::filesystem::path& file) {
    GameStore log(file, GameStore::Access::MustExist);
    std::lock_guard lock(club.mutex);
    for (const auto& g : log.games()) {
        CAPTURE(g.id.value);
        if (g.ended) {
            REQUIRE(club.games.count(g.uid) == 1);
            CHECK(club.landings[g.uid] == 1);
            CHECK(club.games[g.uid].localId == g.id.value);
        } else {
            CHECK(club.games.count(g.uid) == 0);
        }
    }
    CHECK(log.club().waiting().empty());
}

}  // namespace

TEST_CASE("a table offline for a while catches up when the club comes back, each game once, backing off") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    fillLog(file, 4);
    auto club = std::make_shared<FakeClub>();
    club->down = true;
    OutboxPusher pusher(fastOptions(file), factoryFor(club));
    pusher.start();
    REQUIRE(waitFor([&] {
        std::lock_guard lock(club->mutex);
        return club->failedAt.size() >= 4;
    }));
    {
        std::lock_guard lock(club->mutex);
        // 20, 40, 80 ms between tries: the backoff doubles.
        const auto& at = club->failedAt;
        CHECK(at[1] - at[0] >= 18ms);
        CHECK(at[2] - at[1] >= 38ms);
        CHECK(at[3] - at[2] >= 78ms);
    }
    auto state = pusher.state();
    CHECK(state.waiting == 4);
    CHECK(state.lastError == "server unreachable");
    CHECK(state.pushed == 0);
    {
        GameStore log(file, GameStore::Access::MustExist);
        CHECK(log.club().summary().lastError == "server unreachable");
    }
    {
        std::lock_guard lock(club->mutex);
        club->down = false;
    }
    REQUIRE(waitFor([&] { return club->count() == 4; }));
    REQUIRE(waitFor([&] { return pusher.state().waiting == 0; }));
    state = pusher.state();
    CHECK(state.lastError.empty());
    CHECK(state.lastSuccess);
    CHECK(state.pushed == 4);
    pusher.stop();
    checkExactlyOnce(*club, file);
}

TEST_CASE(
    "after an outage the queued games land as soon as the server answers, not at the next back-off step") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    fillLog(file, 3);
    auto club = std::make_shared<FakeClub>();
    club->down = true;
    auto options = fastOptions(file);
    // The back-off's long steps (5 minutes in serve) stand for themselves:
    // every step here is 10 minutes, so only the probe can bring the games.
    options.firstRetry = 10min;
    options.maxRetry = 10min;
    options.probeEvery = 20ms;
    std::atomic<int> probes{0};
    SUBCASE("a probe every 20 ms: the games land within a few probes of the server's return") {
        options.probe = [club, &probes] {
            ++probes;
            std::lock_guard lock(club->mutex);
            return !club->down;
        };
        OutboxPusher pusher(options, factoryFor(club));
        pusher.start();
        REQUIRE(waitFor([&] { return club->connects >= 1 && probes >= 5; }));
        // While the server is down the probe asks, and nothing else is tried.
        CHECK(club->connects == 1);
        CHECK(club->count() == 0);
        CHECK(pusher.state().lastError == "server unreachable");
        {
            std::lock_guard lock(club->mutex);
            club->down = false;
        }
        const auto back = std::chrono::steady_clock::now();
        REQUIRE(waitFor([&] { return club->count() == 3 && pusher.state().waiting == 0; }, 3s));
        CHECK(std::chrono::steady_clock::now() - back < 2s);
        CHECK(pusher.state().lastError.empty());
        pusher.stop();
        checkExactlyOnce(*club, file);
    }
    SUBCASE("no probe: the games wait for the back-off's step") {
        OutboxPusher pusher(options, factoryFor(club));
        pusher.start();
        REQUIRE(waitFor([&] { return club->connects >= 1; }));
        {
            std::lock_guard lock(club->mutex);
            club->down = false;
        }
        CHECK_FALSE(waitFor([&] { return club->count() > 0; }, 300ms));
        pusher.stop();
    }
}

TEST_CASE("a push that lands but loses its answer is retried, answered AlreadyThere, and marked once") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    fillLog(file, 2);
    auto club = std::make_shared<FakeClub>();
    club->landThenDrop = true;
    OutboxPusher pusher(fastOptions(file), factoryFor(club));
    pusher.start();
    REQUIRE(waitFor([&] { return club->count() == 2 && pusher.state().waiting == 0; }));
    pusher.stop();
    CHECK(club->pushCalls >= 3);  // the first game twice
    checkExactlyOnce(*club, file);
}

TEST_CASE("a game the club refuses keeps its reason, is not retried in a loop, and the others go on") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    const auto ids = fillLog(file, 3);
    auto club = std::make_shared<FakeClub>();
    {
        GameStore log(file, GameStore::Access::MustExist);
        club->refuseUid = log.game(ids[0])->uid;
    }
    OutboxPusher pusher(fastOptions(file), factoryFor(club));
    pusher.start();
    REQUIRE(waitFor([&] { return club->count() == 2 && pusher.state().waiting == 1; }));
    std::this_thread::sleep_for(200ms);
    const int calls = club->pushCalls;
    pusher.notify();
    std::this_thread::sleep_for(200ms);
    CHECK(club->pushCalls == calls);  // not before refusedRetry, even when woken
    CHECK(calls == 3);
    const auto state = pusher.state();
    CHECK(state.refused);
    CHECK(state.lastError.find("may not push games") != std::string::npos);
    pusher.stop();
    GameStore log(file, GameStore::Access::MustExist);
    const auto queue = log.club().waiting();
    REQUIRE(queue.size() == 1);
    CHECK(queue[0].game == ids[0]);
    CHECK(queue[0].permanent);
    CHECK(queue[0].lastError == "table 'hall' may not push games");
}

TEST_CASE("a game whose record does not replay to its logged scores never leaves the table, and says why") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    const auto ids = fillLog(file, 3);
    {
        // Game 1's first total made 999, game 2's winners made the lowest score's player.
        Database db(file, Database::Mode::ReadWrite);
        db.exec("UPDATE games SET result = json_set(result, '$.totals[0]', 999) WHERE id = " +
                std::to_string(ids[0].value));
        db.exec(
            "UPDATE games SET result = json_set(result, '$.winners', json_array((SELECT key FROM "
            "json_each(json_extract(result, '$.totals')) ORDER BY value LIMIT 1))) WHERE id = " +
            std::to_string(ids[1].value));
    }
    auto club = std::make_shared<FakeClub>();
    OutboxPusher pusher(fastOptions(file), factoryFor(club));
    pusher.start();
    REQUIRE(waitFor([&] { return club->count() == 1 && pusher.state().waiting == 2; }));
    const auto said = pusher.state().lastError;
    CHECK(said.find(" is not sent: its record does not replay") != std::string::npos);
    CHECK(pusher.state().refused);
    pusher.stop();
    CHECK(club->pushCalls == 1);  // the two changed games never reached the club
    GameStore log(file, GameStore::Access::MustExist);
    {
        std::lock_guard lock(club->mutex);
        CHECK(club->games.count(log.game(ids[2])->uid) == 1);
    }
    const auto queue = log.club().waiting();
    REQUIRE(queue.size() == 2);
    for (const auto& entry : queue) {
        CAPTURE(entry.lastError);
        CHECK(entry.permanent);
        CHECK(entry.lastError.find("does not replay to the scores and winners logged") != std::string::npos);
    }
    CHECK(queue[0].lastError.find("score is 999, the record gives") != std::string::npos);
    CHECK(queue[1].lastError.find("winner") != std::string::npos);
}

TEST_CASE("a pusher stopped mid-push returns promptly; restarted on the same log, nothing lost or doubled") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    fillLog(file, 3);
    auto club = std::make_shared<FakeClub>();
    club->hold = true;
    {
        OutboxPusher pusher(fastOptions(file), factoryFor(club));
        pusher.start();
        REQUIRE(waitFor([&] { return club->pushCalls >= 1; }));
        const auto before = std::chrono::steady_clock::now();
        pusher.stop();  // the push in flight is abandoned
        CHECK(std::chrono::steady_clock::now() - before < 1s);
    }
    club->hold = false;  // the abandoned push lands now, unmarked
    REQUIRE(waitFor([&] { return club->count() >= 1; }));
    std::this_thread::sleep_for(50ms);
    OutboxPusher again(fastOptions(file), factoryFor(club));
    again.start();
    REQUIRE(waitFor([&] { return club->count() == 3 && again.state().waiting == 0; }));
    again.stop();
    checkExactlyOnce(*club, file);
}

TEST_CASE("a table killed after a game's end and before its push: the next start pushes it") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    auto club = std::make_shared<FakeClub>();
    fillLog(file, 1);  // ended and queued; no pusher ran (the table died)
    OutboxPusher pusher(fastOptions(file), factoryFor(club));
    pusher.start();
    REQUIRE(waitFor([&] { return club->count() == 1; }));
    // A game that ends while it runs is pushed when serve notifies it.
    fillLog(file, 1, 40);
    pusher.notify();
    REQUIRE(waitFor([&] { return club->count() == 2 && pusher.state().waiting == 0; }));
    pusher.stop();
    checkExactlyOnce(*club, file);
}

TEST_CASE("the members are cached at each connection, and the cache stays when the club is unreachable") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    fillLog(file, 1);
    auto club = std::make_shared<FakeClub>();
    {
        OutboxPusher pusher(fastOptions(file), factoryFor(club));
        pusher.start();
        REQUIRE(waitFor([&] { return pusher.state().membersFetched.has_value(); }));
        pusher.stop();
    }
    {
        GameStore log(file, GameStore::Access::MustExist);
        const auto members = log.club().members();
        REQUIRE(members.size() == 2);
        CHECK(members[0].name == "Bob");
    }
    {
        std::lock_guard lock(club->mutex);
        club->down = true;
        club->memberList.push_back({3, "Ann"});
    }
    {
        OutboxPusher pusher(fastOptions(file), factoryFor(club));
        pusher.start();
        REQUIRE(waitFor([&] { return !pusher.state().lastError.empty(); }));
        pusher.stop();
    }
    GameStore log(file, GameStore::Access::MustExist);
    CHECK(log.club().members().size() == 2);  // the last list fetched, for the host's picker
    {
        std::lock_guard lock(club->mutex);
        club->down = false;
    }
    OutboxPusher pusher(fastOptions(file), factoryFor(club));
    pusher.start();
    REQUIRE(waitFor([&] { return log.club().members().size() == 3; }));
    pusher.stop();
}

TEST_CASE("a build that cannot reach a club says so, and keeps the games queued") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    fillLog(file, 1);
    OutboxPusher pusher(fastOptions(file), []() -> std::unique_ptr<ClubLink> {
        throw ClubError("this build cannot reach a club yet", false);
    });
    pusher.start();
    REQUIRE(waitFor([&] { return !pusher.state().lastError.empty(); }));
    pusher.stop();
    CHECK(pusher.state().lastError == "this build cannot reach a club yet");
    GameStore log(file, GameStore::Access::MustExist);
    CHECK(log.club().waiting().size() == 1);
}
