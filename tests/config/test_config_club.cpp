// [club]: where the club is, this table's name there, its credentials;
// problems named by file and line; the connection string libpq is given;
// no password in the summary.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "config_test_helpers.hpp"
#include "daemon/config/config_summary.hpp"

namespace vivaref::config {
namespace {

using testing::check;
using testing::problemTexts;
using Strings = std::vector<std::string>;

TEST_CASE("club: no section, no club") {
    const auto c = check("[castle]\nedition = classic\n");
    REQUIRE(c.status == ConfigCheck::Status::Valid);
    CHECK(!c.config.club);
    CHECK(summaryText(c.config).find("club") == std::string::npos);
}

TEST_CASE("club: a server and a table are enough; the user follows the table's name") {
    const auto c = check("[club]\nserver = club.example.org\ntable = north-hall\n");
    REQUIRE(c.status == ConfigCheck::Status::Valid);
    REQUIRE(c.config.club);
    const auto& club = *c.config.club;
    CHECK(club.host == "club.example.org");
    CHECK(club.port == 5432);
    CHECK(club.database == "vivaref_club");
    CHECK(club.user == "vivaref_club_table_north-hall");
    CHECK(club.sslmode == "prefer");
    CHECK(club.serverText() == "club.example.org:5432");
    CHECK(clubConninfo(club) ==
          "host='club.example.org' port='5432' dbname='vivaref_club' user='vivaref_club_table_north-hall' "
          "sslmode='prefer' connect_timeout='10' application_name='vivaref north-hall'");
}

TEST_CASE("club: every key, and an IPv6 server") {
    const auto ca = std::filesystem::temp_directory_path() / "vivaref-club-ca-test.crt";
    std::ofstream(ca) << "-----BEGIN CERTIFICATE-----\n";
    const auto c = check(
        "[club]\nserver = [::1]:6543\ndatabase = league\ntable = t1\nuser = hall_one\npassword = s3cr'et\\x\n"
        "sslmode = verify-full\nsslrootcert = " +
        ca.string() + "\nconnect_timeout = 5\n");
    std::filesystem::remove(ca);
    REQUIRE(c.status == ConfigCheck::Status::Valid);
    const auto& club = *c.config.club;
    CHECK(club.host == "::1");
    CHECK(club.port == 6543);
    CHECK(club.serverText() == "[::1]:6543");
    const auto info = clubConninfo(club);
    CHECK(info.find("password='s3cr\\'et\\\\x'") != std::string::npos);
    CHECK(info.find("sslmode='verify-full'") != std::string::npos);
    CHECK(info.find("sslrootcert='" + ca.string() + "'") != std::string::npos);
    CHECK(info.find("connect_timeout='5'") != std::string::npos);
    CHECK(info.find("user='hall_one'") != std::string::npos);
    // The summary says where the club is, never the password.
    CHECK(summaryText(c.config).find("s3cr") == std::string::npos);
    CHECK(summaryJson(c.config).dump().find("s3cr") == std::string::npos);
    CHECK(summaryJson(c.config)["club"]["table"] == "t1");
}

TEST_CASE("club: the password from its file, its trailing newline dropped") {
    const auto file = std::filesystem::temp_directory_path() / "vivaref-club-password-test";
    {
        std::ofstream out(file);
        out << "from-the-file\n";
    }
    const auto c = check("[club]\nserver = db\ntable = t\npassword_file = " + file.string() + "\n");
    REQUIRE(c.status == ConfigCheck::Status::Valid);
    CHECK(clubConninfo(*c.config.club).find("password='from-the-file' ") != std::string::npos);
    CHECK(summaryText(c.config).find("from-the-file") == std::string::npos);
    std::filesystem::remove(file);
    try {
        (void)clubConninfo(*c.config.club);
        FAIL("a missing password file is not read");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()).find(file.string()) != std::string::npos);
    }
}

TEST_CASE("club: a unix-socket directory for a server on this machine") {
    const auto c = check("[club]\nserver = /var/run/postgresql\ntable = north\n");
    REQUIRE(c.status == ConfigCheck::Status::Valid);
    const auto& club = *c.config.club;
    CHECK(club.host == "/var/run/postgresql");
    CHECK(club.port == 5432);
    CHECK(club.isSocketDirectory());
    CHECK(club.serverText() == "/var/run/postgresql (unix socket, port 5432)");
    CHECK(clubConninfo(club).starts_with("host='/var/run/postgresql' port='5432' dbname='vivaref_club' "));
    CHECK(summaryJson(c.config)["club"]["server"] == "/var/run/postgresql (unix socket, port 5432)");

    // Another socket in the directory by its port; a directory whose name
    // has a colon keeps it when no digits follow.
    const auto other = check("[club]\nserver = /tmp/pg sock:5433\ntable = north\n");
    REQUIRE(other.status == ConfigCheck::Status::Valid);
    CHECK(other.config.club->host == "/tmp/pg sock");
    CHECK(other.config.club->port == 5433);
    CHECK(clubConninfo(*other.config.club).starts_with("host='/tmp/pg sock' port='5433' "));
    const auto colon = check("[club]\nserver = /run/a:b\ntable = north\n");
    REQUIRE(colon.status == ConfigCheck::Status::Valid);
    CHECK(colon.config.club->host == "/run/a:b");
    CHECK(colon.config.club->port == 5432);

    CHECK(problemTexts("[club]\nserver = run/postgresql\ntable = t\n") ==
          Strings{
              "castle.ini:2: club.server: 'run/postgresql' is a relative directory: a unix-socket directory "
              "is given absolute, e.g. /var/run/postgresql"});
    CHECK(
        problemTexts("[club]\nserver = ./pg\ntable = t\n") ==
        Strings{"castle.ini:2: club.server: './pg' is a relative directory: a unix-socket directory is given "
                "absolute, e.g. /var/run/postgresql"});
    CHECK(problemTexts("[club]\nserver = /run/pg:0\ntable = t\n") ==
          Strings{"castle.ini:2: club.server: the port: 0 is out of range: from 1 to 65535"});
}

TEST_CASE("club: problems name the file, the line and the key") {
    CHECK(problemTexts("[club]\ntable = t\n") ==
          Strings{
              "castle.ini:1: club.server: the club's server is needed: server = club.example.org[:5432], or "
              "its unix-socket directory, server = /var/run/postgresql"});
    CHECK(problemTexts("[club]\nserver = db\n") ==
          Strings{"castle.ini:1: club.table: this table's name in the club is needed: table = north-hall"});
    CHECK(problemTexts("[club]\nserver = db:99999\ntable = t\n") ==
          Strings{"castle.ini:2: club.server: the port: 99999 is out of range: from 1 to 65535"});
    CHECK(problemTexts("[club]\nserver = db;rm\ntable = t\n") ==
          Strings{"castle.ini:2: club.server: 'db;rm' is not host[:port], e.g. club.example.org or "
                  "club.example.org:5432"});
    CHECK(problemTexts("[club]\nserver = db\ntable = North Hall\n") ==
          Strings{"castle.ini:3: club.table: 'North Hall' is not a table name: 1 to 40 lowercase letters, "
                  "digits, '-' and '_', starting with a letter or a digit"});
    CHECK(problemTexts("[club]\nserver = db\ntable = -hall\n") ==
          Strings{"castle.ini:3: club.table: '-hall' is not a table name: 1 to 40 lowercase letters, "
                  "digits, '-' and '_', starting with a letter or a digit"});
    CHECK(problemTexts("[club]\nserver = db\ntable = t\nsslmode = maybe\n") ==
          Strings{"castle.ini:4: club.sslmode: 'maybe' is not an sslmode: disable, allow, prefer, require, "
                  "verify-ca or verify-full"});
    CHECK(problemTexts("[club]\nserver = db\ntable = t\nsslrootcert = ca.crt\nsslmode = verify-ca\n") ==
          Strings{"castle.ini:4: club.sslrootcert: 'ca.crt' is not an absolute file name, e.g. "
                  "/etc/vivaref/club-ca.crt"});
    CHECK(problemTexts(
              "[club]\nserver = db\ntable = t\nsslmode = verify-full\nsslrootcert = /nonexistent/ca\n") ==
          Strings{
              "castle.ini:5: club.sslrootcert: '/nonexistent/ca' is not a file (the club's CA certificate)"});
    CHECK(problemTexts("[club]\nserver = db\ntable = t\nsslmode = verify-full\n") ==
          Strings{"castle.ini:4: club.sslmode: sslmode = verify-full needs the club's CA certificate: "
                  "sslrootcert = /etc/vivaref/club-ca.crt"});
    CHECK(problemTexts("[club]\nserver = db\ntable = t\npassword_file = relative\n") ==
          Strings{"castle.ini:4: club.password_file: 'relative' is not an absolute file name, e.g. "
                  "/etc/vivaref/club-password"});
    CHECK(problemTexts("[club]\nserver = db\ntable = t\npassword_file = /nonexistent/pw\n") ==
          Strings{"castle.ini:4: club.password_file: '/nonexistent/pw' is not a file"});
    const auto both =
        problemTexts("[club]\nserver = db\ntable = t\npassword_file = /x\npassword = hunter2\n");
    REQUIRE(both.size() == 2);
    for (const auto& p : both) CHECK(p.find("hunter2") == std::string::npos);
    CHECK(problemTexts("[club]\nserver = db\ntable = t\ncolour = red\n").size() == 1);
}

TEST_CASE("club: no league keys, no league pages") {
    const auto c = check("[club]\nserver = db\ntable = t\n");
    REQUIRE(c.status == ConfigCheck::Status::Valid);
    CHECK(!c.config.club->league);
}

TEST_CASE("club: the league's role, its default name and its password from a file") {
    const auto file = std::filesystem::temp_directory_path() / "vivaref-league-password-test";
    {
        std::ofstream out(file);
        out << "league-secret\n";
    }
    const auto c = check(
        "[club]\nserver = db\ndatabase = hall\ntable = t\nleague_password_file = " + file.string() + "\n");
    REQUIRE(c.status == ConfigCheck::Status::Valid);
    const auto& club = *c.config.club;
    CHECK(club.league);
    CHECK(club.leagueUser == "hall_league");
    CHECK(leagueConninfo(club) ==
          "host='db' port='5432' dbname='hall' user='hall_league' password='league-secret' sslmode='prefer' "
          "connect_timeout='10' application_name='vivaref league t'");
    // The table's own login is unchanged.
    CHECK(clubConninfo(club).find("user='hall_table_t'") != std::string::npos);
    CHECK(summaryText(c.config).find("league-secret") == std::string::npos);
    CHECK(summaryText(c.config).find("The league's pages read it as hall_league.") != std::string::npos);
    CHECK(summaryJson(c.config)["club"]["league_user"] == "hall_league");
    std::filesystem::remove(file);
    CHECK_THROWS_WITH(leagueConninfo(club),
                      doctest::Contains(("the league's password file " + file.string()).c_str()));
}

TEST_CASE("club: league_user alone enables the league; league_password in the file") {
    const auto c = check("[club]\nserver = db\ntable = t\nleague_user = reader\nleague_password = pw\n");
    REQUIRE(c.status == ConfigCheck::Status::Valid);
    CHECK(c.config.club->league);
    CHECK(leagueConninfo(*c.config.club).find("user='reader' password='pw'") != std::string::npos);
}

TEST_CASE("club: the league's keys refused with a sentence") {
    CHECK(problemTexts("[club]\nserver = db\ntable = t\nleague_password_file = relative\n") ==
          Strings{"castle.ini:4: club.league_password_file: 'relative' is not an absolute file name, e.g. "
                  "/etc/vivaref/league-password"});
    CHECK(problemTexts("[club]\nserver = db\ntable = t\nleague_password_file = /nonexistent/pw\n") ==
          Strings{"castle.ini:4: club.league_password_file: '/nonexistent/pw' is not a file"});
    CHECK(problemTexts("[club]\nserver = db\ntable = t\nleague_user =\n") ==
          Strings{"castle.ini:4: club.league_user: the league's user is empty; leave the key out for "
                  "<database>_league"});
    const auto both = problemTexts(
        "[club]\nserver = db\ntable = t\nleague_password_file = /etc/passwd\n"
        "league_password = x\n");
    REQUIRE(both.size() == 1);
    CHECK(both[0].find("give league_password_file or league_password, not both") != std::string::npos);
}

}  // namespace
}  // namespace vivaref::config
