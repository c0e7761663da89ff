// `vivaref club` end to end: the binary against the scratch server, and
// the errors a user meets (a bad conninfo, no server, a wrong password).
#include <csignal>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "daemon/club/club_connection.hpp"
#include "tests/club/league_fixture.hpp"
#include "tests/support/child_process.hpp"

using namespace vivaref::clubtest;
using vivaref::testsupport::runCommand;

namespace {

vivaref::testsupport::CommandResult runClub(const std::vector<std::string>& args) {
    std::vector<std::string> all = {"club"};
    all.insert(all.end(), args.begin(), args.end());
    const auto errFile = server().directory() / "cli-stderr";
    std::filesystem::remove(errFile);
    return runCommand(VIVAREF_BINARY, all, std::chrono::seconds(30),
                      vivaref::testsupport::CommandOptions{{}, {}, errFile});
}

// The value of a printed "key = value" line.
std::string valueOf(const std::string& text, const std::string& key) {
    const auto at = text.find("\n" + key + " = ");
    REQUIRE(at != std::string::npos);
    const auto from = at + key.size() + 4;
    return text.substr(from, text.find('\n', from) - from);
}

}  // namespace

TEST_CASE("vivaref club: create, add-table, add-member, a push, standings, history") {
    const auto admin = freshDatabase("club_cli");
    auto r = runClub({"--help"});
    CHECK(r.status == 0);
    CHECK(r.out.find("add-table") != std::string::npos);
    r = runClub({"standings", "--help"});
    CHECK(r.status == 0);
    CHECK(r.out.find("--since") != std::string::npos);

    r = runClub({"create", "--server", admin});
    CHECK(r.status == 0);
    CHECK(r.out.find("club_cli_league, password (shown once): ") != std::string::npos);
    r = runClub({"create", "--server", admin});
    CHECK(r.status == 0);
    CHECK(r.out.find("up to date") != std::string::npos);
    CHECK(r.out.find("password") == std::string::npos);

    r = runClub({"add-member", "--server", admin, "Ann", "Bob"});
    CHECK(r.status == 0);
    r = runClub({"add-member", "--server", admin, "bob"});
    CHECK(r.status == 1);
    CHECK(r.err.find("has a member named 'bob' already") != std::string::npos);
    // A member is seated under their name: the host's checks of a name apply.
    r = runClub({"add-member", "--server", admin, "Cy", "\u202Eevil"});
    CHECK(r.status == 1);
    CHECK(r.err.find("holds a direction control (U+202E) at character 1") != std::string::npos);
    r = runClub({"add-member", "--server", admin, "\u200B \u3164"});
    CHECK(r.status == 1);
    CHECK(r.err.find("shows nothing") != std::string::npos);
    r = runClub({"members", "--server", admin});
    CHECK(r.out == "1\tAnn\n2\tBob\n");

    r = runClub({"add-table", "--server", admin, "--tables-host", "club.example", "hall"});
    REQUIRE(r.status == 0);
    CHECK(r.out.find("[club]\nserver = club.example:5432\ndatabase = club_cli\ntable = hall\n"
                     "user = club_cli_table_hall\npassword = ") != std::string::npos);
    // The printed lines connect as the table.
    const auto password = valueOf(r.out, "password");
    vivaref::club::PgClubLink link(server().conninfo("club_cli", "club_cli_table_hall", password), "hall");
    CHECK(link.push(randomGame(7, 3, "hall", {1, 2})) == vivaref::club::PushOutcome::Inserted);
    // A game whose record gives Ann another score: named and left out.
    auto forged = randomGame(8, 3, "hall", {1, 2});
    forged.localId = 8;
    forged.seats[0].score = 999;
    CHECK(link.push(forged) == vivaref::club::PushOutcome::Inserted);

    r = runClub({"standings", "--server", admin, "--json"});
    REQUIRE(r.status == 0);
    CHECK(r.err == "vivaref club standings: game " + forged.uid +
                       " (table hall, its game 8) is left out of the standings: player 1 (" +
                       forged.seats[0].name + ", seat 1)'s score is 999, the record gives " +
                       std::to_string(*randomGame(8, 3, "hall", {1, 2}).seats[0].score) + "\n");
    r = runClub({"verify", "--server", admin});
    CHECK(r.status == 1);
    CHECK(r.out.find("0 new games checked: 0 verified, 0 left out.\ngame " + forged.uid +
                     " (table hall, its game 8)") == 0);
    const auto rows = nlohmann::json::parse(runClub({"standings", "--server", admin, "--json"}).out);
    REQUIRE(rows.size() == 2);
    CHECK(rows[0]["games"] == 1);
    r = runClub({"standings", "--server", admin, "--table", "hall"});
    CHECK(r.status == 0);
    CHECK(r.out.find("Edition classic") != std::string::npos);
    r = runClub({"standings", "--server", admin, "--table", "cellar"});
    CHECK(r.status == 1);
    CHECK(r.err.find("no table named 'cellar'") != std::string::npos);
    r = runClub({"history", "--server", admin, "--json", "ann"});
    REQUIRE(r.status == 0);
    // A member's history lists every game pushed, the one left out too.
    CHECK(nlohmann::json::parse(r.out).size() == 2);
    r = runClub({"games", "--server", admin});
    CHECK(r.out.find("hall  #7") != std::string::npos);
    CHECK(r.out.find("complete  verified\n") != std::string::npos);
    CHECK(r.out.find(forged.uid + "  hall  #8") != std::string::npos);
    CHECK(r.out.find("complete  left out (vivaref club verify says why)\n") != std::string::npos);
}

TEST_CASE("vivaref club verify --every: the league's judge counts each pushed game within its period") {
    const auto admin = freshDatabase("club_judge");
    REQUIRE(runClub({"create", "--server", admin}).status == 0);
    REQUIRE(runClub({"add-member", "--server", admin, "Ann", "Bob"}).status == 0);
    auto r = runClub({"add-table", "--server", admin, "hall"});
    REQUIRE(r.status == 0);
    vivaref::club::PgClubLink link(
        server().conninfo("club_judge", "club_judge_table_hall", valueOf(r.out, "password")), "hall");
    r = runClub({"verify", "--server", admin, "--every", "0"});
    CHECK(r.status == 2);
    CHECK(r.err.find("--every is from 1 to 86400 seconds") != std::string::npos);

    vivaref::testsupport::ChildProcess judge(
        {VIVAREF_BINARY, "club", "verify", "--server", admin, "--every", "1"},
        {server().directory() / "judge-stderr", {}, {}});
    // Reads the judge's output until `text` shows, for at most 20 s.
    auto waitFor = [&](const std::string& text) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (judge.output().find(text) == std::string::npos && judge.readOutput(deadline)) {
        }
        INFO("the judge said: " << judge.output());
        return judge.output().find(text) != std::string::npos;
    };
    REQUIRE(waitFor("checking the pushed games every 1 s\n"));
    CHECK(link.push(randomGame(7, 3, "hall", {1, 2})) == vivaref::club::PushOutcome::Inserted);
    CHECK(waitFor("1 new games checked: 1 verified, 0 left out.\n"));
    auto forged = randomGame(8, 3, "hall", {1, 2});
    forged.seats[1].score = 999;
    CHECK(link.push(forged) == vivaref::club::PushOutcome::Inserted);
    CHECK(waitFor("1 new games checked: 0 verified, 1 left out.\ngame " + forged.uid +
                  " (table hall, its game 8)"));
    // The standings count the verified game, without anyone running verify.
    const auto rows = nlohmann::json::parse(runClub({"standings", "--server", admin, "--json"}).out);
    REQUIRE(!rows.empty());
    CHECK(rows[0]["games"] == 1);
    judge.signal(SIGTERM);
    CHECK(judge.waitExit(std::chrono::seconds(10)) == 0);
}

TEST_CASE("vivaref club: a bad conninfo, no server, a wrong password: one sentence and exit 1, quickly") {
    auto r = runClub({"members", "--server", "this is not a conninfo"});
    CHECK(r.status == 1);
    CHECK(r.err.find("vivaref club members: bad connection string for the club") == 0);
    r = runClub({"members", "--server", "host=" + server().directory().string() + "/nowhere dbname=x"});
    CHECK(r.status == 1);
    CHECK(r.err.find("cannot connect to the club's server") != std::string::npos);
    CHECK(r.took < std::chrono::seconds(10));
    r = runClub({"members", "--server", server().conninfo("postgres", "postgres", "wrong")});
    CHECK(r.status == 1);
    CHECK(r.err.find("password authentication failed") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    r = runClub({"nonsense"});
    CHECK(r.status == 2);
}
