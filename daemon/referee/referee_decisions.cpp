// Decisions and the parts' reactions to them: each decision applied and
// logged by the timeline, then its events told to the table and passed on
// to the other parts (guidance when the engine moved characters, chance
// armed, physical cards wanted, the game finished). Resuming a game from
// the log after a crash.
#include <algorithm>

#include "daemon/referee/board_places.hpp"
#include "daemon/referee/referee_impl.hpp"
#include "engine/record/line_reader.hpp"
#include "engine/record/result_json.hpp"
#include "engine/record/view_json.hpp"
#include "engine/views.hpp"

namespace vivaref::referee {

using engine::EventKind;
using nlohmann::json;

namespace {

// Each event told to the table: a notice, and for some the last action's
// sentence.

void tellDealt(Context& ctx, const PhysicalCardsPart& cards, const engine::Event& e, bool automatic) {
    auto& game = ctx.game;
    game.lastAction = cards.physical() ? "Round " + std::to_string(e.round) +
                                             " starts: deal your own Favourites cards, and keep them hidden."
                                       : "Round " + std::to_string(e.round) + " is dealt" +
                                             (automatic ? " by the referee." : ".");
    ctx.notice("dealt", game.lastAction, json{{"round", e.round}, {"by", automatic ? "referee" : "host"}});
}

void tellNotCrowned(Context& ctx, const engine::Event& e) {
    ctx.game.lastAction =
        ctx.characterName(e.character) + " is not crowned and goes to " + placeWord(e.to) + ".";
    ctx.notice("not-crowned", ctx.game.lastAction,
               json{{"character", ctx.slug(e.character)}, {"to", engine::placeName(e.to)}});
}

void tellPlaced(Context& ctx, const engine::Event& e) {
    ctx.game.lastAction =
        ctx.seatName(e.seat) + " placed " + ctx.characterName(e.character) + " on " + placeWord(e.to) + ".";
    ctx.notice("accepted", ctx.game.lastAction,
               json{{"action", "place"},
                    {"seat", e.seat.index},
                    {"character", ctx.slug(e.character)},
                    {"to", engine::placeName(e.to)}});
}

void tellMoved(Context& ctx, const engine::Event& e) {
    ctx.game.lastAction = ctx.seatName(e.seat) + " moved " + ctx.characterName(e.character) + " from " +
                          placeWord(e.from) + " to " + placeWord(e.to) + ".";
    ctx.notice("accepted", ctx.game.lastAction,
               json{{"action", "move"},
                    {"seat", e.seat.index},
                    {"character", ctx.slug(e.character)},
                    {"from", engine::placeName(e.from)},
                    {"to", engine::placeName(e.to)}});
}

void tellPassed(Context& ctx, const engine::Event& e) {
    ctx.game.lastAction = ctx.seatName(e.seat) + " cannot move and passes.";
    ctx.notice("passed", ctx.game.lastAction, json{{"seat", e.seat.index}});
}

void tellElectionOpened(Context& ctx, const engine::Event& e) {
    ctx.notice("election-opened",
               ctx.characterName(e.character) + " is on the throne: every seat votes with its station.",
               json{{"candidate", ctx.slug(e.character)}, {"seat", e.seat.index}});
}

void tellVoteCast(Context& ctx, const engine::Event& e) {
    // Who voted, never what (the card is in the log, not here).
    ctx.game.lastAction = ctx.seatName(e.seat) + " has voted.";
    ctx.notice("vote-cast", ctx.game.lastAction, json{{"seat", e.seat.index}});
}

void tellRevealed(Context& ctx) {
    const auto& state = *ctx.game.state;
    auto view = record::publicViewJson(engine::publicView(state), state.rules());
    ctx.notice("revealed", "The votes are revealed.", view.value("last_reveal", json::object()));
}

void tellCrowned(Context& ctx, const engine::Event& e) {
    ctx.game.lastAction = ctx.characterName(e.character) + " is crowned.";
    ctx.notice("crowned", ctx.game.lastAction, json{{"character", ctx.slug(e.character)}});
}

void tellScored(Context& ctx, const PhysicalCardsPart& cards) {
    // Physical cards not yet entered: the scores are not known.
    if (!cards.revealNeeded())
        ctx.notice("scored", "The coronation is scored.", json{{"totals", ctx.game.state->totals()}});
}

void tellRoundEnded(Context& ctx, const PhysicalCardsPart& cards, const engine::Event& e) {
    ctx.notice("round-ended", "Round " + std::to_string(e.round) + " is over: clear the board.",
               cards.revealNeeded() ? json{{"round", e.round}}
                                    : json{{"round", e.round}, {"totals", ctx.game.state->totals()}});
}

// One event told to the table; true when the engine moved characters on
// the board.
bool tellEvent(Context& ctx, const PhysicalCardsPart& cards, const engine::Event& e, bool automatic) {
    switch (e.kind) {
        case EventKind::RoundDealt:
            tellDealt(ctx, cards, e, automatic);
            return true;  // every character back beside the board
        case EventKind::JesterSetUp:
        case EventKind::LeftToFloor0:
        case EventKind::PlacedAtRandom:
            return true;
        case EventKind::Rejected:
        case EventKind::Eliminated:
        case EventKind::Cancelled:
            tellNotCrowned(ctx, e);
            return true;
        case EventKind::Compensated:
            ctx.notice("compensated",
                       ctx.seatName(e.seat) + " gains 3 points for placing only one character.");
            return false;
        case EventKind::AmbitionKept:
            ctx.notice("ambition-kept", ctx.playerName(e.player) + " kept an Ambition card.",
                       json{{"player", e.player.index}});
            return false;
        case EventKind::Placed:
            tellPlaced(ctx, e);
            return false;
        case EventKind::Moved:
            tellMoved(ctx, e);
            return false;
        case EventKind::PlacementEnded:
            ctx.notice("placement-ended", "Placement is over: the characters left go to floor 0.");
            return false;
        case EventKind::Passed:
            tellPassed(ctx, e);
            return false;
        case EventKind::ElectionOpened:
            tellElectionOpened(ctx, e);
            return false;
        case EventKind::VoteCast:
            tellVoteCast(ctx, e);
            return false;
        case EventKind::VotesRevealed:
            tellRevealed(ctx);
            return false;
        case EventKind::Crowned:
            tellCrowned(ctx, e);
            return false;
        case EventKind::PileReshuffled:
            ctx.notice("reshuffled", std::string("The Emissary's pile is shuffled") +
                                         (automatic ? " by the referee." : "."));
            return false;
        case EventKind::CoronationScored:
            tellScored(ctx, cards);
            return false;
        case EventKind::RoundEnded:
            tellRoundEnded(ctx, cards, e);
            return false;
        case EventKind::GameOver:
            return false;
    }
    return false;
}

}  // namespace

Verdict Referee::Impl::decide(const engine::Decision& d, bool automatic) {
    engine::EventList events;
    auto verdict = timeline.apply(d, automatic, events);
    if (!verdict.isTaken()) return verdict;
    // Physical cards: a new deal of a round is placeholders again.
    if (const auto* deal = std::get_if<engine::Deal>(&d)) cards.forgetRound(deal->round);
    afterDecision(events, automatic);
    return verdict;
}

void Referee::Impl::afterDecision(const engine::EventList& events, bool automatic) {
    auto& game = ctx.game;
    bool engineMoved = false;
    for (const auto& e : events)
        if (tellEvent(ctx, cards, e, automatic)) engineMoved = true;
    if (engineMoved) board.guide();
    if (auto need = cards.revealNeeded()) {
        game.lastAction = std::string("Show your ") + (need->favourites ? "Favourites" : "") +
                          (need->favourites && need->ambitions ? " and " : "") +
                          (need->ambitions ? "Ambition" : "") +
                          " cards: the host enters them, then the scores are counted.";
        ctx.notice(
            "cards-wanted", game.lastAction,
            json{{"round", need->round}, {"favourites", need->favourites}, {"ambitions", need->ambitions}});
    }
    armChance();
    finishIfOver();
}

void Referee::Impl::armChance() {
    const auto& game = ctx.game;
    chance.arm(game.playing() && game.state && game.state->awaitsChance() && !cards.revealNeeded());
}

void Referee::Impl::finishIfOver() {
    auto& game = ctx.game;
    if (!game.state->isOver() || game.status != GameStatus::Playing || cards.revealNeeded()) return;
    auto result = record::resultJson(*game.state);
    // Finished once the log says so (settle() tries again once it can).
    if (!ctx.commit(
            [&](store::DecisionLog& s, store::GameId g) { return s.finishGame(g, result, ctx.wallTime()); }))
        return;
    game.status = GameStatus::Finished;
    board.stop();
    ++ctx.counters.gamesFinished;
    ctx.counters.results.push_back(result);
    std::string text = "The game is over.";
    if (!result["winners"].empty()) {
        text += " Winner:";
        for (const auto& w : result["winners"]) {
            auto p = w.get<std::size_t>();
            text += " " + ctx.playerName(engine::PlayerId{static_cast<std::uint8_t>(p)});
        }
        text += ".";
    } else {
        text += " The Emissary wins.";
    }
    ctx.notice("game-over", text, result);
}

HostAnswer Referee::Impl::resumeFromLog(store::GameId id) {
    auto& game = ctx.game;
    if (!ctx.store) return HostAnswer::refused("no-log", "There is no game log to resume from.");
    if (game.status == GameStatus::Playing || game.status == GameStatus::Paused)
        return HostAnswer::refused("game-in-progress", "A game is being played: abandon it first.", game.id);
    std::optional<store::GameSummary> summary;
    std::vector<store::StoredEvent> events;
    try {
        summary = ctx.store->game(id);
        if (summary) events = ctx.store->events(id);
    } catch (const std::exception& e) {
        return HostAnswer::refused("bad-log", std::string("The game log cannot be read: ") + e.what(), id);
    }
    if (!summary)
        return HostAnswer::refused("no-such-game", "The log holds no game " + std::to_string(id.value) + ".");
    if (summary->ended)
        return HostAnswer::refused("game-over", "Game " + std::to_string(id.value) + " is already over.", id);
    auto bad = [&](const std::string& why) {
        return HostAnswer::refused("bad-log",
                                   "Game " + std::to_string(id.value) + " cannot be resumed: " + why, id);
    };
    if (events.empty() || events.front().kind != "setup") return bad("its setup is missing.");
    auto setup = record::readLine(events.front().payload, nullptr);
    if (!setup.line || !std::holds_alternative<engine::RulesSpec>(*setup.line))
        return bad("its setup is unreadable.");
    auto rules = std::make_shared<const engine::Rules>(std::get<engine::RulesSpec>(*setup.line));
    auto read = readLoggedGame(events, rules);
    if (auto* why = std::get_if<std::string>(&read)) return bad(*why);
    auto& logged = std::get<LoggedGame>(read);

    game.id = id;
    game.state.emplace(std::move(logged.state));
    ctx.names.useRoster(game.state->rules().roster());
    timeline.restart(std::move(logged.decisions));
    cards.resumeGame(logged.favouritesMode, std::move(logged.favouritesEntered),
                     std::move(logged.ambitionsEntered));
    game.players.assign(static_cast<std::size_t>(rules->players()), std::string());
    for (const auto& p : summary->players)
        if (p.player >= 0 && p.player < rules->players())
            game.players[static_cast<std::size_t>(p.player)] = p.name;
    chance.resumeGame(summary->seed.value_or(ctx.options.seed), events.size());
    bots.resumeGame(logged.bots);
    board.startGame();  // the board goes back to the logged position first
    game.status = logged.paused ? GameStatus::Paused : GameStatus::Playing;
    armChance();
    game.lastAction = "The game resumed from the log.";
    ctx.refereeEvent("restart", json{{"decisions", timeline.decisions().size()}});
    ctx.notice(
        "resumed-from-log",
        "Game " + std::to_string(id.value) + " resumes from the log: put the board as shown, then play on.",
        json{{"game", id.value}});
    finishIfOver();
    settle();
    return HostAnswer::accepted(id, "Game " + std::to_string(id.value) + " resumed.");
}

}  // namespace vivaref::referee
