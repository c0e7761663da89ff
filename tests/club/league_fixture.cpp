#include "tests/club/league_fixture.hpp"

#include <cstdio>
#include <stdexcept>

#include "engine/chance.hpp"
#include "engine/players/random_player.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/replay.hpp"

namespace vivaref::clubtest {

namespace {

testsupport::ScratchPostgres* theServer = nullptr;

struct Lines {
    const engine::Rules& rules;
    std::string text;
    bool drawn(const engine::State&, const engine::Decision& d) {
        text += record::writeDecision(d, rules) + "\n";
        return true;
    }
};

}  // namespace

testsupport::ScratchPostgres& server() { return *theServer; }
void setServer(testsupport::ScratchPostgres* pg) { theServer = pg; }

std::string freshDatabase(const std::string& name) {
    pqxx::connection super(server().superConninfo("postgres"));
    pqxx::nontransaction tx(super);
    tx.exec0("DROP DATABASE IF EXISTS " + tx.quote_name(name) + " WITH (FORCE)");
    for (const auto& row :
         tx.exec("SELECT rolname FROM pg_roles WHERE rolname LIKE " + tx.quote(name + "\\_%")))
        tx.exec0("DROP ROLE " + tx.quote_name(row[0].as<std::string>()));
    tx.exec0("CREATE DATABASE " + tx.quote_name(name));
    return server().superConninfo(name);
}

RandomRecord randomRecord(std::uint64_t seed, const engine::RulesSpec& spec) {
    auto rules = std::make_shared<const engine::Rules>(spec);
    engine::State state(rules);
    engine::Rng rng(seed);
    Lines lines{*rules, record::writeSetup(spec) + "\n"};
    if (auto problem = engine::players::playRandomly(state, rng, lines))
        throw std::runtime_error("random game " + std::to_string(seed) + ": " + *problem);
    auto result = record::replayRecord(lines.text);
    if (!result.value("ok", false))
        throw std::runtime_error("random game " + std::to_string(seed) + " does not replay");
    return {std::move(lines.text), std::move(result)};
}

club::GameUpload randomGame(std::uint64_t seed, int seats, const std::string& table,
                            const std::vector<std::optional<std::int64_t>>& members) {
    engine::RulesSpec spec;
    spec.seats = seats;
    const auto [record, result] = randomRecord(seed, spec);

    club::GameUpload g;
    char uid[33];
    std::snprintf(uid, sizeof uid, "%016llx%016llx", static_cast<unsigned long long>(seed),
                  static_cast<unsigned long long>(seats));
    g.uid = uid;
    g.table = table;
    g.localId = static_cast<std::int64_t>(seed);
    g.startedMs = 1'790'000'000'000 + static_cast<std::int64_t>(seed) * 3'600'000;
    g.endedMs = g.startedMs + 1'800'000;
    g.edition = "classic";
    g.complete = true;
    g.record = record;
    g.result = result.dump();
    const auto& winners = result["winners"];
    for (int seat = 0; seat < seats; ++seat) {
        club::SeatUpload s;
        s.seat = seat;
        s.player = seat;
        const auto idx = static_cast<std::size_t>(seat);
        s.member = idx < members.size() ? members[idx] : std::nullopt;
        s.bot = !s.member && seat % 3 == 2;
        s.name = s.member ? "member " + std::to_string(*s.member) : s.bot ? "bot" : "guest";
        s.score = result["totals"][idx].get<int>();
        s.winner = std::find(winners.begin(), winners.end(), seat) != winners.end();
        g.seats.push_back(s);
    }
    return g;
}

club::Standings recompute(const std::vector<club::GameUpload>& games) {
    club::Standings s;
    for (const auto& g : games) {
        // The record again, not the upload's seats: what the engine says.
        const auto result = record::replayRecord(g.record);
        club::RatedGame rated{g.edition, result.value("complete", false) && !g.abandoned, g.abandoned, {}};
        const auto& winners = result["winners"];
        for (const auto& seat : g.seats) {
            const auto idx = static_cast<std::size_t>(seat.seat);
            rated.players.push_back(
                club::RatedPlayer{seat.seat, seat.member, seat.bot, result["totals"][idx].get<int>(),
                                  std::find(winners.begin(), winners.end(), seat.seat) != winners.end()});
        }
        s.add(rated);
    }
    return s;
}

std::int64_t countOf(pqxx::connection_base& conn, const std::string& sql) {
    pqxx::nontransaction tx(conn);
    return tx.exec1(sql)[0].as<std::int64_t>();
}

}  // namespace vivaref::clubtest
