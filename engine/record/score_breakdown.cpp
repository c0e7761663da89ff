#include "engine/record/score_breakdown.hpp"

#include <algorithm>
#include <array>

namespace vivaref::record {

using nlohmann::json;

namespace {

std::string playerName(const std::vector<std::string>& names, int p) {
    if (static_cast<std::size_t>(p) < names.size() && !names[p].empty()) return names[p];
    return "Player " + std::to_string(p + 1);
}

std::string characterName(const engine::Rules& rules, engine::CharacterId c) {
    return c.index < rules.roster().size() ? rules.roster()[c].name : "?";
}

std::string characterSlug(const engine::Rules& rules, engine::CharacterId c) {
    return c.index < rules.roster().size() ? rules.roster()[c].id : "";
}

json lineJson(const engine::ScoreLine& line, const engine::Rules& rules) {
    using engine::ScoreLineKind;
    json out{{"kind", engine::scoreLineKindName(line.kind)}, {"points", line.points}};
    switch (line.kind) {
        case ScoreLineKind::Favourite:
        case ScoreLineKind::Banished:
            out["character"] = characterSlug(rules, line.character);
            out["name"] = characterName(rules, line.character);
            out["place"] = engine::placeName(line.place);
            out["where"] = placeWords(line.place);
            break;
        case ScoreLineKind::Ambition:
            out["ambition_card"] = engine::ambitionCardName(line.ambition);
            out["name"] = ambitionTitle(line.ambition);
            out["met"] = line.met;
            break;
        case ScoreLineKind::Rule33:
            out["name"] = "A round of exactly 0 scores 33";
            break;
        case ScoreLineKind::TeamPawn:
            out["name"] = "The team's pawn moves by the lower score";
            break;
    }
    return out;
}

json sheetJson(const engine::ScoreSheet& sheet, const engine::Rules& rules) {
    json lines = json::array();
    for (const auto& line : sheet.lines) lines.push_back(lineJson(line, rules));
    return json{{"total", sheet.total}, {"lines", std::move(lines)}};
}

// The text of one line: "Fiorello on the throne: 10".
std::string lineText(const engine::ScoreLine& line, const engine::Rules& rules) {
    using engine::ScoreLineKind;
    std::string text;
    switch (line.kind) {
        case ScoreLineKind::Favourite:
            text = characterName(rules, line.character) + " (" + placeWords(line.place) + ")";
            break;
        case ScoreLineKind::Banished:
            text = characterName(rules, line.character) + " (banished, " + placeWords(line.place) + ")";
            break;
        case ScoreLineKind::Ambition:
            text = "Ambition " + ambitionTitle(line.ambition) + (line.met ? " (met)" : " (not met)");
            break;
        case ScoreLineKind::Rule33:
            text = "round 3 score of exactly 0 becomes 33";
            break;
        case ScoreLineKind::TeamPawn:
            text = "team pawn, the lower score";
            break;
    }
    return text + " " + (line.points > 0 ? "+" : "") + std::to_string(line.points);
}

}  // namespace

std::string placeWords(engine::Place p) {
    using engine::Place;
    if (p == Place::Throne) return "the throne";
    if (engine::isFloor(p)) return "floor " + std::to_string(engine::floorOf(p));
    if (p == Place::Wc3) return "WC 3";
    if (p == Place::Wc4) return "WC 4";
    if (engine::isDungeon(p))
        return "dungeon " + std::to_string(static_cast<int>(p) - static_cast<int>(Place::Dungeon1) + 1);
    if (p == Place::Box) return "the box";
    if (p == Place::BesideThrone) return "beside the throne";
    if (p == Place::Reserve) return "off the board";
    return "unknown";
}

std::string ambitionTitle(engine::AmbitionCard c) {
    using engine::AmbitionCard;
    switch (c) {
        case AmbitionCard::JesterKing:
            return "Jester King";
        case AmbitionCard::ItsAQueen:
            return "It's a Queen!";
        case AmbitionCard::ItsAKing:
            return "It's a King!";
        case AmbitionCard::Wc0:
            return "0 favourites in a WC";
        case AmbitionCard::Wc1:
            return "1 favourite in a WC";
        case AmbitionCard::Wc2:
            return "2 favourites in a WC";
        case AmbitionCard::NoFloors01:
            return "No favourite on floors 0 and 1";
        case AmbitionCard::NoFloors23:
            return "No favourite on floors 2 and 3";
        case AmbitionCard::NoFloors45:
            return "No favourite on floors 4 and 5";
        case AmbitionCard::Dungeons1:
            return "1 favourite in the dungeons";
        case AmbitionCard::Dungeons2:
            return "2 favourites in the dungeons";
        case AmbitionCard::Dungeons3:
            return "3 favourites in the dungeons";
        case AmbitionCard::NoWcNoDungeon:
            return "No WC and no dungeon";
        case AmbitionCard::OnlyYes:
            return "Only Yes";
        case AmbitionCard::FriendOfTheKing:
            return "Friend of the King";
        case AmbitionCard::Under11:
            return "Under 11 points";
        case AmbitionCard::Unknown:
            break;
    }
    return "no card kept";
}

json roundBreakdownJson(const engine::RoundResult& round, const engine::Rules& rules,
                        const std::vector<std::string>& names) {
    json coronations = json::array();
    for (const auto& k : round.coronations) {
        json players = json::array();
        for (std::size_t p = 0; p < k.players.size(); ++p) {
            json sheet = sheetJson(k.players[p], rules);
            sheet["player"] = p;
            sheet["name"] = playerName(names, static_cast<int>(p));
            players.push_back(std::move(sheet));
        }
        json c{{"king", characterSlug(rules, k.king)},
               {"king_name", characterName(rules, k.king)},
               {"crown", k.crown.index},
               {"jester_king", k.jesterKing},
               {"players", std::move(players)}};
        if (k.emissary) c["emissary"] = sheetJson(*k.emissary, rules);
        coronations.push_back(std::move(c));
    }
    json out{{"round", round.round},
             {"scores", round.scores},
             {"compensation", round.compensation},
             {"coronations", std::move(coronations)}};
    if (rules.hasEmissary()) out["emissary_score"] = round.emissaryScore;
    return out;
}

json standingJson(const engine::State& state, const std::vector<std::string>& names) {
    json out = json::array();
    if (!state.isOver()) return out;
    const auto& rules = state.rules();
    const auto totals = state.totals();
    const auto winners = state.winners();
    const int players = rules.players();
    std::vector<int> result(totals.begin(), totals.end());
    if (rules.hasTeams()) {
        // RULES §6: a team's result is the lower of its two scores.
        for (int p = 0; p < players; ++p) {
            const engine::Seat seat = rules.seatOf(engine::PlayerId{static_cast<std::uint8_t>(p)});
            for (int i = 0; i < rules.playersAt(seat); ++i)
                result[p] = std::min(result[p], totals[rules.playerAt(seat, i).index]);
        }
    }
    auto isWinner = [&](int p) {
        return std::any_of(winners.begin(), winners.end(), [&](engine::PlayerId w) { return w.index == p; });
    };
    // Ahead: a winner before anyone else, then the higher result.
    auto ahead = [&](int a, int b) {
        if (isWinner(a) != isWinner(b)) return isWinner(a);
        return result[a] > result[b];
    };
    std::vector<int> order(static_cast<std::size_t>(players));
    for (int p = 0; p < players; ++p) order[p] = p;
    std::stable_sort(order.begin(), order.end(), ahead);
    for (int p : order) {
        int place = 1;
        for (int q = 0; q < players; ++q)
            if (ahead(q, p)) ++place;
        out.push_back(json{{"player", p},
                           {"name", playerName(names, p)},
                           {"seat", rules.seatOf(engine::PlayerId{static_cast<std::uint8_t>(p)}).index},
                           {"place", place},
                           {"score", totals[p]},
                           {"result", result[p]},
                           {"winner", isWinner(p)}});
    }
    return out;
}

std::string roundBreakdownText(const engine::RoundResult& round, const engine::Rules& rules,
                               const std::vector<std::string>& names) {
    std::string out;
    for (const auto& k : round.coronations) {
        out += "  " + characterName(rules, k.king) + " crowned";
        if (k.jesterKing) out += ": the Jester is King, floors and dungeons score reversed";
        out += "\n";
        for (std::size_t p = 0; p < k.players.size(); ++p) {
            out += "    " + playerName(names, static_cast<int>(p)) + " " +
                   std::to_string(k.players[p].total) + ":";
            for (std::size_t i = 0; i < k.players[p].lines.size(); ++i) {
                out += i ? ", " : " ";
                out += lineText(k.players[p].lines[i], rules);
            }
            out += "\n";
        }
        if (k.emissary) {
            out += "    The Emissary " + std::to_string(k.emissary->total) + ":";
            for (std::size_t i = 0; i < k.emissary->lines.size(); ++i) {
                out += i ? ", " : " ";
                out += lineText(k.emissary->lines[i], rules);
            }
            out += "\n";
        }
    }
    bool anyCompensation = false;
    for (int c : round.compensation) anyCompensation = anyCompensation || c != 0;
    if (anyCompensation) {
        out += "    Compensation at the deal:";
        bool first = true;
        for (std::size_t p = 0; p < round.compensation.size(); ++p) {
            if (round.compensation[p] == 0) continue;
            out += first ? " " : ", ";
            out += playerName(names, static_cast<int>(p)) + " +" + std::to_string(round.compensation[p]);
            first = false;
        }
        out += "\n";
    }
    return out;
}

}  // namespace vivaref::record
