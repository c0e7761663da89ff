#include "daemon/club/club_admin.hpp"

#include <random>

#include <pqxx/pqxx>

#include "daemon/club/club_connection.hpp"
#include "daemon/club/club_schema.hpp"
#include "daemon/words/name_text.hpp"
#include "engine/record/player_name.hpp"

namespace vivaref::club {

namespace {

std::string databaseName(pqxx::connection_base& conn) { return conn.dbname(); }

bool roleExists(pqxx::transaction_base& tx, const std::string& role) {
    return tx.exec_params1("SELECT count(*) FROM pg_roles WHERE rolname = $1", role)[0].as<int>() > 0;
}

std::string tablesGroupName(pqxx::connection_base& conn) { return databaseName(conn) + "_tables"; }

}  // namespace

std::string leagueRoleName(pqxx::connection_base& conn) { return databaseName(conn) + "_league"; }

std::string tableRoleName(pqxx::connection_base& conn, const std::string& table) {
    return databaseName(conn) + "_table_" + table;
}

std::string generatePassword() {
    static constexpr char kAlphabet[] = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    std::random_device device;
    std::uniform_int_distribution<std::size_t> pick(0, sizeof kAlphabet - 2);
    std::string out;
    for (int i = 0; i < 24; ++i) out += kAlphabet[pick(device)];
    return out;
}

CreateReport createClub(pqxx::connection_base& admin, int target) {
    CreateReport report;
    try {
        report.versionBefore = migrateClubSchema(admin, target);
        report.versionAfter = installedClubSchemaVersion(admin);
        report.leagueRole = leagueRoleName(admin);
        const std::string group = tablesGroupName(admin);
        pqxx::work tx(admin);
        const auto league = tx.quote_name(report.leagueRole);
        const auto tables = tx.quote_name(group);
        if (!roleExists(tx, report.leagueRole)) {
            report.leaguePassword = generatePassword();
            tx.exec0("CREATE ROLE " + league + " LOGIN PASSWORD " + tx.quote(*report.leaguePassword));
        }
        if (!roleExists(tx, group)) tx.exec0("CREATE ROLE " + tables + " NOLOGIN");
        const auto db = tx.quote_name(databaseName(admin));
        // Nobody else may make temporary tables here; the roles may connect.
        tx.exec0("REVOKE TEMPORARY, CREATE ON DATABASE " + db + " FROM PUBLIC");
        tx.exec0("GRANT CONNECT ON DATABASE " + db + " TO " + league + ", " + tables);
        tx.exec0("GRANT USAGE ON SCHEMA club TO " + league + ", " + tables);
        tx.exec0("GRANT SELECT ON ALL TABLES IN SCHEMA club TO " + league);
        tx.exec0("GRANT SELECT (id, name, active) ON club.members TO " + tables);
        tx.exec0(
            "GRANT EXECUTE ON FUNCTION club.push_game(text, text, bigint, bigint, bigint, text, boolean, "
            "boolean, text, jsonb, jsonb) TO " +
            tables);
        tx.commit();
    } catch (...) {
        rethrowAsClubError("making the club's schema");
    }
    return report;
}

NewTable addTable(pqxx::connection_base& admin, const std::string& name) {
    if (!isClubTableName(name))
        throw ClubError(
            "a table's name is 1 to 40 lowercase letters, digits, '-' or '_' (starting with a letter "
            "or digit), not '" +
                name + "'",
            false);
    NewTable table{name, tableRoleName(admin, name), generatePassword()};
    try {
        if (installedClubSchemaVersion(admin) != clubSchemaVersion())
            throw ClubError("the club's schema is not this vivaref's: run 'vivaref club create' first",
                            false);
        pqxx::work tx(admin);
        if (tx.exec_params1("SELECT count(*) FROM club.club_tables WHERE name = $1", name)[0].as<int>() > 0)
            throw ClubError("the club has a table named '" + name + "' already", false);
        if (roleExists(tx, table.role))
            throw ClubError("the server has a role named '" + table.role + "' already", false);
        tx.exec0("CREATE ROLE " + tx.quote_name(table.role) + " LOGIN PASSWORD " + tx.quote(table.password) +
                 " IN ROLE " + tx.quote_name(tablesGroupName(admin)));
        tx.exec_params("INSERT INTO club.club_tables (name, role) VALUES ($1, $2)", name, table.role);
        tx.commit();
    } catch (...) {
        rethrowAsClubError("adding table " + name);
    }
    return table;
}

std::vector<ClubMember> addMembers(pqxx::connection_base& admin, const std::vector<std::string>& names) {
    std::vector<ClubMember> out;
    try {
        pqxx::work tx(admin);
        for (const auto& name : names) {
            if (name.empty() || name.size() > 40)
                throw ClubError("a member's name is 1 to 40 characters, not '" + name + "'", false);
            // A member is seated under their name: it must pass a new game's
            // checks (daemon/referee/player_names.hpp), or the host could not
            // seat them.
            if (auto why = record::playerNameProblem(name)) throw ClubError("a member's name " + *why, false);
            if (auto control = words::firstBidiControl(name))
                throw ClubError("a member's name holds a direction control (" +
                                    record::codePointText(control->c) + ") at character " +
                                    std::to_string(control->at) + ": leave it out",
                                false);
            if (!words::showsSomething(name))
                throw ClubError("a member's name shows nothing: it holds only spaces or invisible characters",
                                false);
            if (tx.exec_params1("SELECT count(*) FROM club.members WHERE lower(name) = lower($1)", name)[0]
                    .as<int>() > 0)
                throw ClubError("the club has a member named '" + name + "' already", false);
            out.push_back(ClubMember{
                tx.exec_params1("INSERT INTO club.members (name) VALUES ($1) RETURNING id", name)[0]
                    .as<std::int64_t>(),
                name});
        }
        tx.commit();
    } catch (...) {
        rethrowAsClubError("adding members");
    }
    return out;
}

}  // namespace vivaref::club
