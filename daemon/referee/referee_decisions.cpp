// Decisions and the parts' reactions to them: each decision applied and
// logged by the timeline, then its events told to the table and passed on
// to the other parts (guidance when the engine moved characters, chance
// armed, physical cards wanted, the game finished). Resuming a game from
// the log after a crash.
#include <algorithm>

#include "daemon/referee/board_places.hpp"
#include "daemon/referee/referee_impl.hpp"
#include "daemon/words/words.hpp"
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

using engine::Message;
namespace say = engine::say;

engine::MessageValue character(const Context& ctx, engine::CharacterId c) {
    const auto& roster = ctx.game.state->rules().roster();
    return c.index < roster.size() ? say::character(roster[c]) : say::character("?", "?");
}

void tellDealt(Context& ctx, const PhysicalCardsPart& cards, const engine::Event& e, bool automatic) {
    auto& game = ctx.game;
    const char* code = cards.physical() ? "event.dealt-physical"
                       : automatic      ? "event.dealt-by-referee"
                                        : "event.dealt";
    game.lastAction = Message(code, {{"round", say::number(e.round)}});
    ctx.notice("dealt", game.lastAction, json{{"round", e.round}, {"by", automatic ? "referee" : "host"}});
}

void tellNotCrowned(Context& ctx, const engine::Event& e) {
    ctx.game.lastAction =
        Message("event.not-crowned", {{"character", character(ctx, e.character)}, {"to", say::place(e.to)}});
    ctx.notice("not-crowned", ctx.game.lastAction,
               json{{"character", ctx.slug(e.character)}, {"to", engine::placeName(e.to)}});
}

void tellPlaced(Context& ctx, const engine::Event& e) {
    ctx.game.lastAction = Message("event.placed", {{"seat", ctx.seatWords(e.seat)},
                                                   {"character", character(ctx, e.character)},
                                                   {"to", say::place(e.to)}});
    ctx.notice("accepted", ctx.game.lastAction,
               json{{"action", "place"},
                    {"seat", e.seat.index},
                    {"character", ctx.slug(e.character)},
                    {"to", engine::placeName(e.to)}});
}

void tellMoved(Context& ctx, const engine::Event& e) {
    ctx.game.lastAction = Message("event.moved", {{"seat", ctx.seatWords(e.seat)},
                                                  {"character", character(ctx, e.character)},
                                                  {"from", say::place(e.from)},
                                                  {"to", say::place(e.to)}});
    ctx.notice("accepted", ctx.game.lastAction,
               json{{"action", "move"},
                    {"seat", e.seat.index},
                    {"character", ctx.slug(e.character)},
                    {"from", engine::placeName(e.from)},
                    {"to", engine::placeName(e.to)}});
}

void tellPassed(Context& ctx, const engine::Event& e) {
    ctx.game.lastAction = Message("event.passed", {{"seat", ctx.seatWords(e.seat)}});
    ctx.notice("passed", ctx.game.lastAction, json{{"seat", e.seat.index}});
}

void tellElectionOpened(Context& ctx, const engine::Event& e) {
    ctx.notice("election-opened",
               Message("event.election-opened", {{"character", character(ctx, e.character)}}),
               json{{"candidate", ctx.slug(e.character)}, {"seat", e.seat.index}});
}

void tellVoteCast(Context& ctx, const engine::Event& e) {
    // Who voted, never what (the card is in the log, not here).
    ctx.game.lastAction = Message("event.voted", {{"seat", ctx.seatWords(e.seat)}});
    ctx.notice("vote-cast", ctx.game.lastAction, json{{"seat", e.seat.index}});
}

void tellRevealed(Context& ctx) {
    const auto& state = *ctx.game.state;
    auto view = record::publicViewJson(engine::publicView(state), state.rules());
    ctx.notice("revealed", Message("event.revealed"), view.value("last_reveal", json::object()));
}

void tellCrowned(Context& ctx, const engine::Event& e) {
    ctx.game.lastAction = Message("event.crowned", {{"character", character(ctx, e.character)}});
    ctx.notice("crowned", ctx.game.lastAction, json{{"character", ctx.slug(e.character)}});
}

void tellScored(Context& ctx, const PhysicalCardsPart& cards) {
    // Physical cards not yet entered: the scores are not known.
    if (!cards.revealNeeded())
        ctx.notice("scored", Message("event.scored"), json{{"totals", ctx.game.state->totals()}});
}

void tellRoundEnded(Context& ctx, const PhysicalCardsPart& cards, const engine::Event& e) {
    ctx.notice("round-ended", Message("event.round-ended", {{"round", say::number(e.round)}}),
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
            ctx.notice("compensated", Message("event.compensated", {{"seat", ctx.seatWords(e.seat)}}));
            return false;
        case EventKind::AmbitionKept:
            ctx.notice("ambition-kept",
                       Message("event.ambition-kept", {{"player", say::player(ctx.playerName(e.player))}}),
                       json{{"player", e.player.index}});
            return false;
        case EventKind::Placed:
            tellPlaced(ctx, e);
            return false;
        case EventKind::Moved:
            tellMoved(ctx, e);
            return false;
        case EventKind::PlacementEnded:
            ctx.notice("placement-ended", Message("event.placement-ended"));
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
            ctx.notice("reshuffled", Message(automatic ? "event.reshuffled-by-referee" : "event.reshuffled"));
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
    teaching.afterDecision(events, timeline.decisions().size());
    return verdict;
}

void Referee::Impl::afterDecision(const engine::EventList& events, bool automatic) {
    auto& game = ctx.game;
    bool engineMoved = false;
    for (const auto& e : events)
        if (tellEvent(ctx, cards, e, automatic)) engineMoved = true;
    if (engineMoved) board.guide();
    if (auto need = cards.revealNeeded()) {
        const char* which = need->favourites && need->ambitions ? "both"
                            : need->favourites                  ? "favourites"
                                                                : "ambitions";
        game.lastAction = Message("event.cards-wanted", {{"cards", say::text(which)}});
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
    std::vector<engine::MessageValue> winners;
    for (const auto& w : result["winners"])
        winners.push_back(
            say::player(ctx.playerName(engine::PlayerId{static_cast<std::uint8_t>(w.get<std::size_t>())})));
    const auto count = static_cast<std::int64_t>(winners.size());
    ctx.notice("game-over",
               winners.empty() ? Message("event.game-over-emissary")
                               : Message("event.game-over", {{"count", say::number(count)},
                                                             {"winners", say::list(std::move(winners))}}),
               result);
}

HostAnswer Referee::Impl::resumeFromLog(store::GameId id) {
    auto& game = ctx.game;
    const auto gameNumber = say::number(static_cast<std::int64_t>(id.value));
    if (!ctx.store) return HostAnswer::refused("no-log", Message("resume.no-log"));
    if (game.status == GameStatus::Playing || game.status == GameStatus::Paused)
        return HostAnswer::refused(
            "game-in-progress",
            Message("host.game-in-progress", {{"game", say::text(std::to_string(game.id->value))}}), game.id);
    std::optional<store::GameSummary> summary;
    std::vector<store::StoredEvent> events;
    try {
        summary = ctx.store->game(id);
        if (summary) events = ctx.store->events(id);
    } catch (const std::exception& e) {
        return HostAnswer::refused("bad-log", Message("resume.unreadable", {{"why", say::text(e.what())}}),
                                   id);
    }
    if (!summary)
        return HostAnswer::refused("no-such-game", Message("resume.no-such-game", {{"game", gameNumber}}));
    if (summary->ended)
        return HostAnswer::refused("game-over", Message("resume.over", {{"game", gameNumber}}), id);
    // Why the log's game does not read back: a format problem is the log's
    // own English (as a record's is), shown as written.
    auto bad = [&](engine::MessageValue why) {
        return HostAnswer::refused(
            "bad-log", Message("resume.cannot", {{"game", gameNumber}, {"why", std::move(why)}}), id);
    };
    if (events.empty() || events.front().kind != "setup")
        return bad(say::message(Message("resume.setup-missing")));
    auto setup = record::readLine(events.front().payload, nullptr);
    if (!setup.line || !std::holds_alternative<engine::RulesSpec>(*setup.line))
        return bad(say::message(Message("resume.setup-unreadable")));
    auto rules = std::make_shared<const engine::Rules>(std::get<engine::RulesSpec>(*setup.line));
    auto read = readLoggedGame(events, rules);
    if (auto* why = std::get_if<std::string>(&read)) return bad(say::text(*why));
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
    seats.resumeGame(logged.seats);
    bots.resumeGame(logged.bots);
    teaching.resumeGame(logged.teaching, timeline.decisions());
    board.startGame();  // the board goes back to the logged position first
    // A question about an order the readers missed, still open when the game
    // stopped (no decision logged after it): asked again.
    for (auto e = events.rbegin(); e != events.rend(); ++e) {
        if (store::isDecisionKind(e->kind) || e->kind == "undo") break;
        if (e->kind != "order-question") continue;
        std::vector<std::string> characters;
        const auto asked = json::parse(e->payload, nullptr, false);
        if (asked.is_object() && asked.contains("characters") && asked["characters"].is_array())
            for (const auto& c : asked["characters"])
                if (c.is_string()) characters.push_back(c.get<std::string>());
        board.askAgainAfterResume(characters);
        break;
    }
    game.status = logged.paused ? GameStatus::Paused : GameStatus::Playing;
    // A move chosen from afar that the table had not made yet is shown again.
    seats.restorePlan(logged.plan);
    armChance();
    game.lastAction = Message("event.resumed-from-log");
    ctx.refereeEvent("restart", json{{"decisions", timeline.decisions().size()}});
    ctx.notice("resumed-from-log", Message("resume.notice", {{"game", gameNumber}}),
               json{{"game", id.value}});
    finishIfOver();
    settle();
    return HostAnswer::accepted(id, Message("answer.resumed-from-log", {{"game", gameNumber}}));
}

}  // namespace vivaref::referee
