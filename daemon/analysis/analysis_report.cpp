#include "daemon/analysis/analysis_report.hpp"

#include <algorithm>
#include <cmath>

#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/record_replayer.hpp"

namespace vivaref::analysis {

using nlohmann::json;
namespace players = engine::players;
namespace say = engine::say;

std::optional<AnalysedGame> readGame(const std::vector<std::string>& lines, std::string& why) {
    AnalysedGame game;
    int decisionLine = 0;
    const auto replay =
        record::replayLines(lines, {.before = [&](int line, const engine::Decision& d, const engine::State&) {
                                decisionLine = line;
                                game.decisions.push_back(d);
                                return true;
                            }});
    // A decision the rules refuse stays in: the analysis stops before it and says so.
    if (const auto& failure = replay.failure;
        failure && (failure->unreadable || !replay.state || failure->line != decisionLine)) {
        why = "line " + std::to_string(failure->line) + ": " + words::inEnglish(failure->refusal.message);
        return std::nullopt;
    }
    game.rules = replay.state->rulesPtr();
    return game;
}

bool isFinished(const store::GameSummary& game) {
    return game.ended.has_value() || game.complete || game.abandoned;
}

std::optional<AnalysedGame> readLoggedGame(store::GameStore& log, const store::GameSummary& summary,
                                           std::string& why) {
    auto game = readGame(log.recordLines(summary.id), why);
    if (!game) return std::nullopt;
    for (const auto& p : summary.players) {
        if (p.player < 0) continue;
        if (game->names.size() <= static_cast<std::size_t>(p.player))
            game->names.resize(static_cast<std::size_t>(p.player) + 1);
        game->names[static_cast<std::size_t>(p.player)] = p.name;
    }
    // The seats the referee's bots played, so the page can tell people's choices from theirs.
    for (const auto& e : log.events(summary.id)) {
        if (e.kind != "bots") continue;
        const json payload = json::parse(e.payload, nullptr, false);
        if (!payload.is_object() || !payload.contains("seats") || !payload["seats"].is_array()) continue;
        for (const auto& seat : payload["seats"])
            if (seat.is_object() && seat.contains("seat") && seat["seat"].is_number_integer())
                game->botSeats.push_back(seat["seat"].get<int>());
    }
    return game;
}

namespace {

// The game's decisions as messages ("analysis.*"): the words the pages and
// `vivaref analyse` render in their reader's language.
class Telling {
public:
    explicit Telling(const AnalysedGame& g) : game_(g) {}
    std::string player(engine::PlayerId p) const {
        return p.index < game_.names.size() && !game_.names[p.index].empty()
                   ? game_.names[p.index]
                   : "Player " + std::to_string(p.index + 1);
    }
    std::string seat(engine::Seat s) const {
        std::string out;
        for (int i = 0; i < game_.rules->playersAt(s); ++i)
            out += (out.empty() ? "" : " and ") + player(game_.rules->playerAt(s, i));
        return out;
    }
    // A decision; `state` is the position before it.
    engine::Message decision(const engine::State& state, const engine::Decision& d) const {
        if (const auto* deal = std::get_if<engine::Deal>(&d))
            return engine::Message("analysis.dealt", {{"round", say::number(deal->round)}});
        if (std::holds_alternative<engine::Reshuffle>(d)) return engine::Message("analysis.reshuffled");
        return action(state, std::get<engine::Action>(d));
    }
    engine::Message action(const engine::State& state, const engine::Action& a) const {
        using engine::Message;
        switch (a.kind()) {
            case engine::ActionKind::Place:
                return Message("analysis.places", {{"seat", seatValue(a.seat())},
                                                   {"players", seatPlayers(a.seat())},
                                                   {"character", character(a.character())},
                                                   {"to", say::place(a.to())}});
            case engine::ActionKind::Move:
                return Message("analysis.moves", {{"seat", seatValue(a.seat())},
                                                  {"players", seatPlayers(a.seat())},
                                                  {"character", character(a.character())},
                                                  {"from", say::place(state.placeOf(a.character()))},
                                                  {"to", say::place(a.to())}});
            case engine::ActionKind::Vote:
                return Message("analysis.votes", {{"seat", seatValue(a.seat())},
                                                  {"players", seatPlayers(a.seat())},
                                                  {"card", say::vote(a.card())}});
            case engine::ActionKind::Keep:
                return Message("analysis.keeps",
                               {{"player", playerValue(a.player())}, {"card", say::ambition(a.ambition())}});
            case engine::ActionKind::Pass:
                return Message("analysis.passes",
                               {{"seat", seatValue(a.seat())}, {"players", seatPlayers(a.seat())}});
        }
        return Message("analysis.passes",
                       {{"seat", seatValue(a.seat())}, {"players", seatPlayers(a.seat())}});
    }

    engine::MessageValue playerValue(engine::PlayerId p) const {
        if (p.index < game_.names.size() && !game_.names[p.index].empty())
            return say::player(game_.names[p.index]);
        return say::message(
            engine::Message("breakdown.player-numbered", {{"number", say::number(p.index + 1)}}));
    }

private:
    // A team's verbs agree with both players ("Ann and Bob move").
    engine::MessageValue seatPlayers(engine::Seat s) const {
        return say::number(std::max(1, game_.rules->playersAt(s)));
    }
    engine::MessageValue seatValue(engine::Seat s) const {
        std::vector<engine::MessageValue> players;
        for (int i = 0; i < game_.rules->playersAt(s); ++i)
            players.push_back(playerValue(game_.rules->playerAt(s, i)));
        return players.size() == 1 ? players.front() : say::list(std::move(players));
    }
    engine::MessageValue character(engine::CharacterId c) const {
        return say::character(game_.rules->roster()[c]);
    }

    const AnalysedGame& game_;
};

json estimateJson(const players::OutcomeEstimate& e) {
    return json{
        {"expected_score", e.expectedScore}, {"win_chance", e.winChance}, {"emissary_wins", e.emissaryWins}};
}

}  // namespace

json settingsJson(const players::AnalysisSettings& settings, std::uint64_t seed) {
    return json{{"rollouts", settings.rollouts},
                {"iterations", settings.iterations},
                {"seed", seed},
                {"worth_telling", settings.worthTelling}};
}

json analysisJson(const AnalysedGame& game, const players::GameAnalysis& analysis,
                  const players::AnalysisSettings& settings, std::uint64_t seed, const std::string& what) {
    const Telling telling(game);
    const int playerCount = game.rules->players();
    engine::State before(game.rules);
    json decisions = json::array();
    const players::OutcomeEstimate* previous = &analysis.before;
    for (std::size_t i = 0; i < analysis.decisions.size(); ++i) {
        const auto& d = analysis.decisions[i];
        // Whose chance moved most: the swing's player.
        std::size_t moved = 0;
        for (std::size_t p = 1; p < d.after.winChance.size(); ++p)
            if (std::abs(d.after.winChance[p] - previous->winChance[p]) >
                std::abs(d.after.winChance[moved] - previous->winChance[moved]))
                moved = p;
        const auto said = telling.decision(before, game.decisions[i]);
        json entry{{"decision", i + 1},
                   {"text", words::inEnglish(said)},
                   {"says", words::messageJson(said)},
                   {"after", estimateJson(d.after)},
                   {"swing", d.swing},
                   {"swing_player", moved}};
        if (d.review) {
            const auto preferred = telling.action(before, d.review->preferred);
            entry["review"] =
                json{{"seat", d.review->seat.index},
                     {"by", telling.seat(d.review->seat)},
                     {"preferred", words::inEnglish(preferred)},
                     {"preferred_says", words::messageJson(preferred)},
                     {"preferred_line", json::parse(record::writeAction(d.review->preferred, *game.rules))},
                     {"played_chance", d.review->playedChance},
                     {"preferred_chance", d.review->preferredChance},
                     {"gain", d.review->gain()},
                     {"bot", std::find(game.botSeats.begin(), game.botSeats.end(), d.review->seat.index) !=
                                 game.botSeats.end()}};
        }
        decisions.push_back(std::move(entry));
        previous = &d.after;
        before.apply(game.decisions[i]);
    }
    json swings = json::array();
    for (int s : analysis.swings) swings.push_back(s + 1);
    json names = json::array();
    json namesSaid = json::array();
    json seats = json::array();
    for (int p = 0; p < playerCount; ++p) {
        const engine::PlayerId id{static_cast<std::uint8_t>(p)};
        names.push_back(telling.player(id));
        namesSaid.push_back(
            words::messageJson(engine::Message("analysis.player", {{"player", telling.playerValue(id)}})));
        seats.push_back(game.rules->seatOf(id).index);
    }
    return json{{"format", kAnalysisFormat},
                {"game", what},
                {"players", std::move(names)},
                {"players_says", std::move(namesSaid)},
                {"seats", std::move(seats)},
                {"bots", game.botSeats},
                {"settings", settingsJson(settings, seed)},
                {"decision_count", game.decisions.size()},
                {"before", estimateJson(analysis.before)},
                {"decisions", std::move(decisions)},
                {"swings", std::move(swings)}};
}

namespace {

bool saysMessage(const json& v) {
    try {
        (void)words::messageFromJson(v);
        return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
}

bool isChance(const json& v) {
    return v.is_number() && v.get<double>() >= -1e-9 && v.get<double>() <= 1 + 1e-9;
}

std::optional<std::string> estimateProblem(const json& e, std::size_t players, const std::string& where) {
    if (!e.is_object()) return where + " is not an object";
    for (const char* key : {"win_chance", "expected_score"}) {
        if (!e.contains(key) || !e[key].is_array() || e[key].size() != players)
            return where + "'s " + key + " is not a list of one number per player";
        for (const auto& v : e[key])
            if (!v.is_number() || (std::string(key) == "win_chance" && !isChance(v)))
                return where + "'s " + key + " holds something other than " +
                       (std::string(key) == "win_chance" ? "a chance from 0 to 1" : "a number");
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> analysisProblem(const json& a) {
    if (!a.is_object()) return std::string("it is not a JSON object");
    if (!a.contains("format") || a["format"] != kAnalysisFormat)
        return "its format is not " + std::to_string(kAnalysisFormat);
    if (!a.contains("players") || !a["players"].is_array() || a["players"].empty())
        return std::string("it names no players");
    for (const auto& p : a["players"])
        if (!p.is_string()) return std::string("a player's name is not text");
    const std::size_t players = a["players"].size();
    if (!a.contains("seats") || !a["seats"].is_array() || a["seats"].size() != players)
        return std::string("it has no seat for each player");
    for (const auto& s : a["seats"])
        if (!s.is_number_integer()) return std::string("a player's seat is not a number");
    if (!a.contains("settings") || !a["settings"].is_object()) return std::string("it has no settings");
    if (!a.contains("before")) return std::string("it has no estimate before the first decision");
    if (auto bad = estimateProblem(a["before"], players, "the estimate before the first decision"))
        return bad;
    if (!a.contains("decisions") || !a["decisions"].is_array())
        return std::string("it has no list of decisions");
    const auto& decisions = a["decisions"];
    for (std::size_t i = 0; i < decisions.size(); ++i) {
        const auto& d = decisions[i];
        const std::string where = "decision " + std::to_string(i + 1);
        if (!d.is_object()) return where + " is not an object";
        if (!d.contains("text") || !d["text"].is_string()) return where + " has no words";
        // Made before messages (issue 33): no "says", the page shows "text".
        if (d.contains("says") && !saysMessage(d["says"])) return where + "'s message is not a message";
        if (!d.contains("after")) return where + " has no estimate after it";
        if (auto bad = estimateProblem(d["after"], players, "the estimate after " + where)) return bad;
        if (!d.contains("swing") || !isChance(d["swing"]))
            return where + "'s swing is not a chance from 0 to 1";
        if (!d.contains("swing_player") || !d["swing_player"].is_number_integer() ||
            d["swing_player"].get<std::int64_t>() < 0 || d["swing_player"].get<std::size_t>() >= players)
            return where + "'s swing names no player";
        if (d.contains("review")) {
            const auto& r = d["review"];
            if (!r.is_object() || !r.contains("preferred") || !r["preferred"].is_string() ||
                !r.contains("by") || !r["by"].is_string() || !r.contains("played_chance") ||
                !isChance(r["played_chance"]) || !r.contains("preferred_chance") ||
                !isChance(r["preferred_chance"]) || !r.contains("gain") || !r["gain"].is_number() ||
                (r.contains("bot") && !r["bot"].is_boolean()) ||
                (r.contains("preferred_says") && !saysMessage(r["preferred_says"])))
                return where + "'s review is incomplete";
        }
    }
    if (!a.contains("swings") || !a["swings"].is_array() || a["swings"].size() > 3)
        return std::string("it has no list of the three largest swings");
    for (const auto& s : a["swings"])
        if (!s.is_number_integer() || s.get<std::int64_t>() < 1 || s.get<std::size_t>() > decisions.size())
            return std::string("a swing names no decision of the game");
    return std::nullopt;
}

}  // namespace vivaref::analysis
