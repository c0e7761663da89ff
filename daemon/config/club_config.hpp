// A table's club ([club] in the castle configuration): where the club's
// PostgreSQL is, this table's name there, and its credentials. The
// password is read from `password_file` when serve starts and goes only
// into the connection string handed to libpq: never into a summary, a
// status or a log line.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace vivaref::config {

struct ClubConfig {
    // A name, an IPv4 address, an IPv6 one (given as [::1]:5432), or an
    // absolute unix-socket directory (/var/run/postgresql) where libpq finds
    // the socket .s.PGSQL.<port>.
    std::string host;
    std::uint16_t port = 5432;
    std::string database = "vivaref_club";
    std::string table;  // this table's name in the club: [a-z0-9_-], 1-40 characters
    std::string user;   // default: defaultClubUser(database, table), as `vivaref club` makes it
    std::filesystem::path passwordFile;  // absolute; holds the password (a trailing newline is dropped)
    std::string password;                // given in the file itself (not advised: the file is often readable)
    std::string sslmode = "prefer";      // disable, allow, prefer, require, verify-ca, verify-full
    std::filesystem::path sslRootCert;   // the club's CA certificate, for verify-ca/verify-full
    int connectTimeout = 10;             // seconds
    // The league's pages on this table (GET /api/league...): read through the
    // club's read-only role. Shown when any of the three keys is given.
    bool league = false;
    std::string leagueUser;                    // default: database + "_league"
    std::filesystem::path leaguePasswordFile;  // absolute, as password_file
    std::string leaguePassword;
    int sourceLine = 0;

    // "club.example.org:5432" or "/var/run/postgresql (unix socket, port
    // 5432)", for the status page and the summary (no secret).
    std::string serverText() const;
    bool isSocketDirectory() const { return host.starts_with('/'); }
};

// The default user of a table: the role `vivaref club add-table` makes,
// database + "_table_" + table ("vivaref_club_table_north-hall").
std::string defaultClubUser(const std::string& database, const std::string& table);

// The libpq connection string for `club`, every value quoted ('...', with
// \ and ' escaped), with the password from password_file (or password).
// Throws std::runtime_error naming the password file when it cannot be read.
std::string clubConninfo(const ClubConfig& club);
// The same for the league's read-only role (league_user, league_password_file
// or league_password); throws as clubConninfo.
std::string leagueConninfo(const ClubConfig& club);
// A value quoted for a libpq connection string.
std::string conninfoQuote(const std::string& value);

}  // namespace vivaref::config
