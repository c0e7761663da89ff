#include "daemon/store/game_stats.hpp"

#include "engine/record/record_replayer.hpp"

namespace vivaref::store {

GameLogStats gatherStats(GameStore& log) {
    GameLogStats stats;
    for (const auto& game : log.games()) {
        if (game.abandoned) continue;
        auto& edition = stats.editions[game.edition];
        ++edition.games;
        auto nameOf = [&](int player) {
            for (const auto& p : game.players)
                if (p.player == player) return p.name;
            return "player " + std::to_string(player + 1);
        };
        auto walk = record::replayLines(log.recordLines(game.id), {.after = [&](const record::ReplayStep& s) {
                                            const auto& roster = s.state.rules().roster();
                                            for (const auto& e : s.events) {
                                                if (e.character.index >= roster.size()) continue;
                                                auto& c = edition.characters[roster[e.character].name];
                                                switch (e.kind) {
                                                    case engine::EventKind::ElectionOpened:
                                                        ++c.elections;
                                                        break;
                                                    case engine::EventKind::Crowned:
                                                        ++c.crowned;
                                                        break;
                                                    case engine::EventKind::Rejected:
                                                    case engine::EventKind::Eliminated:
                                                    case engine::EventKind::Cancelled:
                                                        ++c.rejected;
                                                        break;
                                                    default:
                                                        break;
                                                }
                                            }
                                            return true;
                                        }});
        if (walk.failure || !walk.state) {
            ++stats.unreadable;
            continue;
        }
        const auto& state = *walk.state;
        for (const auto& p : game.players) ++edition.players[p.name].games;
        for (const auto& round : state.finishedRounds())
            for (std::size_t p = 0; p < round.scores.size(); ++p) {
                auto& ps = edition.players[nameOf(static_cast<int>(p))];
                ++ps.rounds;
                ps.roundPoints += round.scores[p];
            }
        if (state.isOver()) {
            ++edition.complete;
            const auto winners = state.winners();
            if (winners.empty()) ++edition.emissaryWins;
            for (auto w : winners) ++edition.players[nameOf(w.index)].wins;
        }
    }
    return stats;
}

nlohmann::ordered_json statsJson(const GameLogStats& stats) {
    nlohmann::ordered_json out;
    out["editions"] = nlohmann::ordered_json::object();
    for (const auto& [name, e] : stats.editions) {
        nlohmann::ordered_json ed;
        ed["games"] = e.games;
        ed["complete"] = e.complete;
        ed["emissary_wins"] = e.emissaryWins;
        ed["players"] = nlohmann::ordered_json::object();
        for (const auto& [player, p] : e.players)
            ed["players"][player] = {{"games", p.games},
                                     {"wins", p.wins},
                                     {"rounds", p.rounds},
                                     {"average_round_score", p.averageRoundScore()}};
        ed["characters"] = nlohmann::ordered_json::object();
        for (const auto& [character, c] : e.characters)
            ed["characters"][character] = {
                {"elections", c.elections}, {"crowned", c.crowned}, {"rejected", c.rejected}};
        out["editions"][name] = std::move(ed);
    }
    out["unreadable_games"] = stats.unreadable;
    return out;
}

}  // namespace vivaref::store
