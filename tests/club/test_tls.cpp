// A table's link to its club over TLS, against the scratch server that
// takes TCP only over TLS: verify-full with the club's CA pushes; another
// CA, or no TLS at all, is refused with a sentence saying what to change,
// and the pusher takes that as a refusal (retried only at maxRetry, the
// games kept queued); check-config takes the keys as a table writes them.
#include <algorithm>
#include <fstream>
#include <thread>

#include <doctest/doctest.h>

#include "daemon/club/club_admin.hpp"
#include "daemon/club/club_connection.hpp"
#include "daemon/club/club_link_factory.hpp"
#include "daemon/club/outbox_pusher.hpp"
#include "daemon/store/game_store.hpp"
#include "tests/club/league_fixture.hpp"
#include "tests/store/random_game_writer.hpp"
#include "tests/support/child_process.hpp"

using namespace vivaref;
using namespace vivaref::clubtest;
using namespace std::chrono_literals;

namespace {

struct TlsClub {
    std::string db;
    std::unique_ptr<pqxx::connection> conn;
    club::NewTable table;
    std::vector<club::ClubMember> members;

    explicit TlsClub(const std::string& name) : db(name) {
        conn = std::make_unique<pqxx::connection>(freshDatabase(name));
        club::createClub(*conn);
        members = club::addMembers(*conn, {"Ann", "Bob"});
        table = club::addTable(*conn, "hall");
    }
    std::string conninfo(const std::string& host, const std::string& sslmode,
                         const std::filesystem::path& rootCert) const {
        return server().tlsConninfo(host, db, table.role, table.password, sslmode, rootCert);
    }
};

// The ClubError a push through `conninfo` throws (fails the case if it lands).
club::ClubError pushError(const std::string& conninfo, const club::GameUpload& game) {
    club::PgClubLink link(conninfo, "hall", club::ClubTimeouts{5, 5000});
    try {
        link.push(game);
    } catch (const club::ClubError& e) {
        return e;
    }
    FAIL("the push landed through " << conninfo);
    return club::ClubError("", true);
}

template <class Condition>
bool waitFor(Condition condition, std::chrono::milliseconds limit = 20s) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
        if (condition()) return true;
        std::this_thread::sleep_for(20ms);
    }
    return condition();
}

}  // namespace

TEST_CASE("over TLS: verify-full with the club's CA pushes, by name and by address") {
    TlsClub c("club_tls_ok");
    for (const std::string host : {"localhost", "127.0.0.1"}) {
        CAPTURE(host);
        club::PgClubLink link(c.conninfo(host, "verify-full", server().caCertificate()), "hall");
        const auto game = randomGame(host == "localhost" ? 11 : 12, 4, "hall", {c.members[0].id});
        CHECK(link.push(game) == club::PushOutcome::Inserted);
        CHECK(link.push(game) == club::PushOutcome::AlreadyThere);
        CHECK(link.members().size() == 2);
    }
    // The server saw both connections encrypted.
    CHECK(countOf(*c.conn, "SELECT count(*) FROM club.games") == 2);
}

TEST_CASE("over TLS: another CA, or no TLS, is refused with a sentence saying what to change") {
    TlsClub c("club_tls_refused");
    const auto game = randomGame(21, 4, "hall", {c.members[0].id});

    SUBCASE("another CA") {
        const auto e = pushError(c.conninfo("localhost", "verify-full", server().wrongCaCertificate()), game);
        const std::string why = e.what();
        INFO(why);
        CHECK(!e.transient());
        CHECK(why.find("cannot connect to the club's server: ") == 0);
        CHECK(why.find("certificate verify failed") != std::string::npos);
        CHECK(why.find("not signed by the CA in sslrootcert") != std::string::npos);
    }
    SUBCASE("no TLS against a server that takes tables only over TLS") {
        const auto e = pushError(c.conninfo("127.0.0.1", "disable", {}), game);
        const std::string why = e.what();
        INFO(why);
        CHECK(!e.transient());
        CHECK(why.find("pg_hba.conf rejects connection") != std::string::npos);
        CHECK(why.find("takes tables only over TLS") != std::string::npos);
    }
    SUBCASE("a name the certificate is not for") {
        // Only localhost and 127.0.0.1 are in it; the address is the server's.
        const auto e = pushError(
            c.conninfo("club.example hostaddr=127.0.0.1", "verify-full", server().caCertificate()), game);
        const std::string why = e.what();
        INFO(why);
        CHECK(!e.transient());
        CHECK(why.find("does not match host name \"club.example\"") != std::string::npos);
        CHECK(why.find("give server = the name it was made for") != std::string::npos);
    }
    CHECK(countOf(*c.conn, "SELECT count(*) FROM club.games") == 0);
}

TEST_CASE("over TLS: the pusher takes a wrong CA as a refusal, waits maxRetry, keeps the games queued") {
    TlsClub c("club_tls_pusher");
    store::testing::ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    {
        store::GameStore log(file, store::GameStore::Access::CreateIfMissing);
        log.setClubConfigured(true);
        for (std::uint64_t s = 1; s <= 2; ++s)
            store::testing::writeRandomGame(log, store::testing::randomSpec(s), s);
    }
    club::OutboxPusherOptions options;
    options.log = file;
    options.table = "hall";
    options.server = "localhost";
    options.firstRetry = 50ms;
    options.maxRetry = 1h;
    auto conninfo = c.conninfo("localhost", "verify-full", server().wrongCaCertificate());
    {
        club::OutboxPusher pusher(options, [&] { return club::makeClubLink(conninfo, "hall"); });
        pusher.start();
        // The error is told before the next try is set: wait for both.
        REQUIRE(waitFor([&] {
            const auto s = pusher.state();
            return !s.lastError.empty() && s.nextTry.has_value();
        }));
        const auto state = pusher.state();
        pusher.stop();
        INFO(state.lastError);
        CHECK(state.refused);
        CHECK(state.lastError.find("not signed by the CA in sslrootcert") != std::string::npos);
        CHECK(state.waiting == 2);
        REQUIRE(state.nextTry);
        REQUIRE(state.lastAttempt);
        CHECK(*state.nextTry - *state.lastAttempt > 30min);  // maxRetry, not firstRetry
        store::GameStore log(file, store::GameStore::Access::MustExist);
        const auto queue = log.club().waiting();
        REQUIRE(queue.size() == 2);
        CHECK(!queue[0].permanent);  // the connection was refused, not the game
    }
    conninfo = c.conninfo("localhost", "verify-full", server().caCertificate());
    club::OutboxPusher pusher(options, [&] { return club::makeClubLink(conninfo, "hall"); });
    pusher.start();
    REQUIRE(waitFor([&] { return pusher.state().pushed == 2; }));
    pusher.stop();
    CHECK(pusher.state().lastError.empty());
    CHECK(countOf(*c.conn, "SELECT count(*) FROM club.games") == 2);
}

TEST_CASE("over TLS: check-config takes sslmode and sslrootcert as a table writes them, and flags them") {
    const auto ini = server().directory() / "castle-tls.ini";
    auto checkConfig = [&](const std::string& club) {
        std::ofstream(ini) << "[club]\nserver = localhost:" << server().tcpPort() << "\ntable = hall\n"
                           << club;
        return testsupport::runCommand(VIVAREF_BINARY, {"check-config", ini.string()}, 30s, "");
    };
    auto r = checkConfig("sslmode = verify-full\nsslrootcert = " + server().caCertificate().string() + "\n");
    INFO(r.out);
    CHECK(r.status == 0);
    r = checkConfig("sslmode = verify-full\n");
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find(ini.string() +
                     ":4: club.sslmode: sslmode = verify-full needs the club's CA certificate") !=
          std::string::npos);
    r = checkConfig("sslmode = verify-full\nsslrootcert = " + (server().directory() / "no-ca.crt").string() +
                    "\n");
    INFO(r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find(":5: club.sslrootcert: '" + (server().directory() / "no-ca.crt").string() +
                     "' is not a file") != std::string::npos);
}

TEST_CASE("over TLS: vivaref club with another CA says so in one sentence and exits 1") {
    TlsClub c("club_tls_cli");
    const auto errFile = server().directory() / "cli-tls-stderr";
    auto run = [&](const std::filesystem::path& ca) {
        std::filesystem::remove(errFile);
        return testsupport::runCommand(VIVAREF_BINARY,
                                       {"club", "members", "--server",
                                        server().tlsConninfo("localhost", c.db, "postgres",
                                                             server().superPassword(), "verify-full", ca)},
                                       30s, testsupport::CommandOptions{{}, {}, errFile});
    };
    auto r = run(server().wrongCaCertificate());
    INFO(r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("vivaref club members: cannot connect to the club's server: ") == 0);
    CHECK(r.err.find("not signed by the CA in sslrootcert") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    r = run(server().caCertificate());
    CHECK(r.status == 0);
    CHECK(r.out.find("Ann") != std::string::npos);
}
