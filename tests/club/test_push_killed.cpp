// A table killed after the club committed a push and before the table
// marked the game pushed, against the real server: a child process runs
// serve's pusher on the table's log and dies (SIGKILL) the moment its first
// push has committed; the game is then in the club and still queued on the
// table. The table started again pushes it again, the club answers
// AlreadyThere, and every ended game is in the league exactly once.
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>

#include <doctest/doctest.h>
#include <sys/wait.h>

#include "daemon/club/club_admin.hpp"
#include "daemon/club/club_connection.hpp"
#include "daemon/club/game_upload.hpp"
#include "daemon/club/outbox_pusher.hpp"
#include "daemon/store/game_store.hpp"
#include "tests/club/league_fixture.hpp"
#include "tests/store/random_game_writer.hpp"

using namespace vivaref;
using namespace vivaref::clubtest;
using namespace std::chrono_literals;

namespace {

// The real link, and a process that dies as soon as a push has landed.
class DiesAfterCommit : public club::ClubLink {
public:
    explicit DiesAfterCommit(const std::string& conninfo) : link_(conninfo, "hall") {}
    club::PushOutcome push(const club::GameUpload& game) override {
        const auto outcome = link_.push(game);  // committed in the club when it returns
        std::raise(SIGKILL);
        return outcome;
    }
    std::vector<club::ClubMember> members() override { return link_.members(); }

private:
    club::PgClubLink link_;
};

club::OutboxPusherOptions quick(const std::filesystem::path& log) {
    club::OutboxPusherOptions o;
    o.log = log;
    o.table = "hall";
    o.server = "scratch";
    o.firstRetry = 20ms;
    o.maxRetry = 200ms;
    return o;
}

}  // namespace

TEST_CASE("a table killed after the club committed its push: started again, the game lands once") {
    const std::string db = "club_killed";
    pqxx::connection admin(freshDatabase(db));
    club::createClub(admin);
    const auto hall = club::addTable(admin, "hall");
    const auto conninfo = clubtest::server().conninfo(db, hall.role, hall.password);

    store::testing::ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    std::vector<std::string> uids;
    {
        store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
        log.setClubConfigured(true);
        for (std::uint64_t seed = 71; seed < 74; ++seed) {
            const auto written = store::testing::writeRandomGame(log, store::testing::randomSpec(seed), seed);
            uids.push_back(club::uploadOf(log, written.id, "hall").uid);
        }
        REQUIRE(log.club().waiting().size() == 3);
    }
    const auto inClub = [&] { return countOf(admin, "SELECT count(*) FROM club.games"); };

    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // The table: its pusher, which dies inside its first push.
        club::OutboxPusher pusher(quick(file), [&] { return std::make_unique<DiesAfterCommit>(conninfo); });
        pusher.start();
        std::this_thread::sleep_for(30s);
        _exit(3);  // never reached when the push happened
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);

    // The first game is in the club and still queued on the table.
    CHECK(inClub() == 1);
    {
        store::GameStore log(file, store::GameStore::Access::MustExist);
        const auto queued = log.club().waiting();
        REQUIRE(queued.size() == 3);
        CHECK(countOf(admin, "SELECT count(*) FROM club.games WHERE uid = '" + queued.front().uid + "'") ==
              1);
    }

    // Started again: the first game is answered AlreadyThere, the others land.
    club::OutboxPusher again(quick(file),
                             [&] { return std::make_unique<club::PgClubLink>(conninfo, "hall"); });
    again.start();
    const auto until = std::chrono::steady_clock::now() + 20s;
    // (waiting is 0 too before the pusher has read the log: wait for a push.)
    const auto settled = [&] {
        const auto s = again.state();
        return s.lastSuccess && s.waiting == 0;
    };
    while (!settled() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(20ms);
    const auto state = again.state();
    again.stop();
    CHECK(state.lastSuccess);
    CHECK(state.waiting == 0);
    CHECK(state.lastError.empty());
    CHECK(inClub() == 3);
    for (const auto& uid : uids)
        CHECK(countOf(admin, "SELECT count(*) FROM club.games WHERE uid = '" + uid + "'") == 1);
    CHECK(countOf(admin, "SELECT count(DISTINCT game_uid) FROM club.game_players") == 3);
    store::GameStore log(file, store::GameStore::Access::MustExist);
    CHECK(log.club().waiting().empty());
}
