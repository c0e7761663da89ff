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

engine::Message numberedPlayer(int p) {
    return engine::Message("breakdown.player-numbered", {{"number", engine::say::number(p + 1)}});
}

std::string characterSlug(const engine::Rules& rules, engine::CharacterId c) {
    return c.index < rules.roster().size() ? rules.roster()[c].id : "";
}

engine::MessageValue characterValue(const engine::Rules& rules, engine::CharacterId c) {
    if (c.index < rules.roster().size()) return engine::say::character(rules.roster()[c]);
    return engine::say::character("", "?");
}

// "+10", "0", "-4": points as the breakdown shows them, with their sign.
engine::MessageValue signedPoints(int points) {
    return engine::say::text((points > 0 ? "+" : "") + std::to_string(points));
}

engine::MessageValue ambitionTitleValue(engine::AmbitionCard c) {
    return engine::say::message(engine::Message("ambition." + std::string(engine::ambitionCardName(c))));
}

// One line in words: "Fiorello (the throne) +10".
engine::Message lineMessage(const engine::ScoreLine& line, const engine::Rules& rules) {
    using engine::Message;
    using engine::ScoreLineKind;
    namespace say = engine::say;
    switch (line.kind) {
        case ScoreLineKind::Favourite:
            return Message("breakdown.favourite", {{"character", characterValue(rules, line.character)},
                                                   {"place", say::place(line.place)},
                                                   {"points", signedPoints(line.points)}});
        case ScoreLineKind::Banished:
            return Message("breakdown.banished", {{"character", characterValue(rules, line.character)},
                                                  {"place", say::place(line.place)},
                                                  {"points", signedPoints(line.points)}});
        case ScoreLineKind::Ambition:
            // The title as a message, not as an Ambition card parameter ({"ambition": SLUG}):
            // the status's secret checks refuse that key, and a scored round's card is public.
            return Message(
                line.met ? "breakdown.ambition-met" : "breakdown.ambition-not-met",
                {{"title", ambitionTitleValue(line.ambition)}, {"points", signedPoints(line.points)}});
        case ScoreLineKind::Rule33:
            return Message("breakdown.rule33", {{"points", signedPoints(line.points)}});
        case ScoreLineKind::TeamPawn:
            return Message("breakdown.team-pawn", {{"points", signedPoints(line.points)}});
    }
    return Message("breakdown.rule33", {{"points", signedPoints(line.points)}});
}

json lineJson(const engine::ScoreLine& line, const engine::Rules& rules, const MessageJson& says) {
    using engine::Message;
    using engine::ScoreLineKind;
    json out{{"kind", engine::scoreLineKindName(line.kind)}, {"points", line.points}};
    switch (line.kind) {
        case ScoreLineKind::Favourite:
        case ScoreLineKind::Banished:
            out["character"] = characterSlug(rules, line.character);
            out["name"] = characterName(rules, line.character);
            out["place"] = engine::placeName(line.place);
            out["where"] = placeWords(line.place);
            if (says)
                out["where_says"] =
                    says(Message("breakdown.where", {{"place", engine::say::place(line.place)}}));
            break;
        case ScoreLineKind::Ambition:
            out["ambition_card"] = engine::ambitionCardName(line.ambition);
            out["name"] = ambitionTitle(line.ambition);
            out["met"] = line.met;
            if (says)
                out["name_says"] =
                    says(Message("ambition." + std::string(engine::ambitionCardName(line.ambition))));
            break;
        case ScoreLineKind::Rule33:
            out["name"] = "A round of exactly 0 scores 33";
            if (says) out["name_says"] = says(Message("breakdown.rule33-name"));
            break;
        case ScoreLineKind::TeamPawn:
            out["name"] = "The team's pawn moves by the lower score";
            if (says) out["name_says"] = says(Message("breakdown.team-pawn-name"));
            break;
    }
    if (says) out["says"] = says(lineMessage(line, rules));
    return out;
}

json sheetJson(const engine::ScoreSheet& sheet, const engine::Rules& rules, const MessageJson& says) {
    json lines = json::array();
    for (const auto& line : sheet.lines) lines.push_back(lineJson(line, rules, says));
    return json{{"total", sheet.total}, {"lines", std::move(lines)}};
}

engine::MessageValue linesValue(const engine::ScoreSheet& sheet, const engine::Rules& rules) {
    std::vector<engine::MessageValue> items;
    for (const auto& line : sheet.lines) items.push_back(engine::say::message(lineMessage(line, rules)));
    return engine::say::list(std::move(items));
}

bool named(const std::vector<std::string>& names, int p) {
    return static_cast<std::size_t>(p) < names.size() && !names[p].empty();
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
                        const std::vector<std::string>& names, const MessageJson& says) {
    json coronations = json::array();
    for (const auto& k : round.coronations) {
        json players = json::array();
        for (std::size_t p = 0; p < k.players.size(); ++p) {
            json sheet = sheetJson(k.players[p], rules, says);
            sheet["player"] = p;
            sheet["name"] = playerName(names, static_cast<int>(p));
            if (says && !named(names, static_cast<int>(p)))
                sheet["name_says"] = says(numberedPlayer(static_cast<int>(p)));
            players.push_back(std::move(sheet));
        }
        json c{{"king", characterSlug(rules, k.king)},
               {"king_name", characterName(rules, k.king)},
               {"crown", k.crown.index},
               {"jester_king", k.jesterKing},
               {"players", std::move(players)}};
        if (k.emissary) c["emissary"] = sheetJson(*k.emissary, rules, says);
        coronations.push_back(std::move(c));
    }
    json out{{"round", round.round},
             {"scores", round.scores},
             {"compensation", round.compensation},
             {"coronations", std::move(coronations)}};
    if (rules.hasEmissary()) out["emissary_score"] = round.emissaryScore;
    return out;
}

json standingJson(const engine::State& state, const std::vector<std::string>& names,
                  const MessageJson& says) {
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
        if (says && !named(names, p)) out.back()["name_says"] = says(numberedPlayer(p));
    }
    return out;
}

engine::MessageValue playerValue(const std::vector<std::string>& names, int player) {
    if (named(names, player)) return engine::say::player(names[player]);
    return engine::say::message(numberedPlayer(player));
}

std::vector<BreakdownLine> roundBreakdownLines(const engine::RoundResult& round, const engine::Rules& rules,
                                               const std::vector<std::string>& names) {
    using engine::Message;
    namespace say = engine::say;
    std::vector<BreakdownLine> out;
    for (const auto& k : round.coronations) {
        out.push_back({1, Message(k.jesterKing ? "breakdown.crowned-jester-king" : "breakdown.crowned",
                                  {{"character", characterValue(rules, k.king)}})});
        for (std::size_t p = 0; p < k.players.size(); ++p)
            out.push_back({2, Message("breakdown.sheet", {{"who", playerValue(names, static_cast<int>(p))},
                                                          {"total", say::number(k.players[p].total)},
                                                          {"lines", linesValue(k.players[p], rules)}})});
        if (k.emissary)
            out.push_back(
                {2, Message("breakdown.sheet-emissary", {{"total", say::number(k.emissary->total)},
                                                         {"lines", linesValue(*k.emissary, rules)}})});
    }
    std::vector<engine::MessageValue> gains;
    for (std::size_t p = 0; p < round.compensation.size(); ++p)
        if (round.compensation[p] != 0)
            gains.push_back(
                say::message(Message("breakdown.gain", {{"who", playerValue(names, static_cast<int>(p))},
                                                        {"points", signedPoints(round.compensation[p])}})));
    if (!gains.empty())
        out.push_back({2, Message("breakdown.compensation", {{"gains", say::list(std::move(gains))}})});
    return out;
}

}  // namespace vivaref::record
