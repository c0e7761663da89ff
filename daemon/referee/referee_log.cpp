// Decisions: applied to the state, written to the game log before anything
// acknowledges them, kept for undo, and told to the table. Resuming a game
// from the log after a crash.
#include <algorithm>

#include "daemon/referee/referee_impl.hpp"
#include "engine/record/line_reader.hpp"
#include "engine/record/result_json.hpp"
#include "engine/record/view_json.hpp"
#include "engine/views.hpp"

namespace vivaref::referee {

using engine::EventKind;
using nlohmann::json;

std::optional<engine::Refusal> Referee::Impl::decide(const engine::Action& a, bool automatic) {
    engine::State before = *state;
    engine::EventList events;
    if (auto why = state->apply(a, &events)) return why;
    history.push_back(Decision{Decision::Kind::Action, automatic, std::move(before), a});
    writeLog([&](store::DecisionLog& s, store::GameId g) { return s.appendAction(g, a, wallTime()); });
    if (a.kind() == engine::ActionKind::Pass)
        ++counters.automaticPasses;
    else
        ++counters.actionsAccepted;
    afterDecision(Decision::Kind::Action, events, automatic);
    return std::nullopt;
}

std::optional<engine::Refusal> Referee::Impl::decide(const engine::Deal& d, bool automatic) {
    engine::State before = *state;
    engine::EventList events;
    if (auto why = state->applyDeal(d, &events)) return why;
    history.push_back(Decision{Decision::Kind::Deal, automatic, std::move(before), d});
    // Physical cards: a new deal of a round is placeholders again.
    favouritesEntered.erase(d.round);
    ambitionsEntered.erase(d.round);
    writeLog([&](store::DecisionLog& s, store::GameId g) { return s.appendDeal(g, d, wallTime()); });
    afterDecision(Decision::Kind::Deal, events, automatic);
    return std::nullopt;
}

std::optional<engine::Refusal> Referee::Impl::decide(const engine::Reshuffle& r, bool automatic) {
    engine::State before = *state;
    engine::EventList events;
    if (auto why = state->applyReshuffle(r, &events)) return why;
    history.push_back(Decision{Decision::Kind::Reshuffle, automatic, std::move(before), r});
    writeLog([&](store::DecisionLog& s, store::GameId g) { return s.appendReshuffle(g, r, wallTime()); });
    afterDecision(Decision::Kind::Reshuffle, events, automatic);
    return std::nullopt;
}

void Referee::Impl::afterDecision(Decision::Kind kind, const engine::EventList& events, bool automatic) {
    const auto& rules = state->rules();
    bool engineMoved = false;
    for (const auto& e : events) {
        switch (e.kind) {
            case EventKind::RoundDealt:
                engineMoved = true;  // every character back beside the board
                lastAction = physical() ? "Round " + std::to_string(e.round) +
                                              " starts: deal your own Favourites cards, and keep them hidden."
                                        : "Round " + std::to_string(e.round) + " is dealt" +
                                              (automatic ? " by the referee." : ".");
                notice("dealt", lastAction, json{{"round", e.round}, {"by", automatic ? "referee" : "host"}});
                break;
            case EventKind::JesterSetUp:
            case EventKind::LeftToFloor0:
            case EventKind::PlacedAtRandom:
            case EventKind::Rejected:
            case EventKind::Eliminated:
            case EventKind::Cancelled:
                engineMoved = true;
                break;
            case EventKind::Compensated:
                notice("compensated", seatName(e.seat) + " gains 3 points for placing only one character.");
                break;
            case EventKind::AmbitionKept:
                notice("ambition-kept",
                       "Player " + std::to_string(e.player.index) + " kept an Ambition card.",
                       json{{"player", e.player.index}});
                break;
            case EventKind::Placed:
                lastAction = seatName(e.seat) + " placed " + slug(e.character) + " on " +
                             std::string(engine::placeName(e.to)) + ".";
                notice("accepted", lastAction,
                       json{{"action", "place"},
                            {"seat", e.seat.index},
                            {"character", slug(e.character)},
                            {"to", engine::placeName(e.to)}});
                break;
            case EventKind::Moved:
                lastAction = seatName(e.seat) + " moved " + slug(e.character) + " from " +
                             std::string(engine::placeName(e.from)) + " to " +
                             std::string(engine::placeName(e.to)) + ".";
                notice("accepted", lastAction,
                       json{{"action", "move"},
                            {"seat", e.seat.index},
                            {"character", slug(e.character)},
                            {"from", engine::placeName(e.from)},
                            {"to", engine::placeName(e.to)}});
                break;
            case EventKind::PlacementEnded:
                notice("placement-ended", "Placement is over: the characters left go to floor 0.");
                break;
            case EventKind::Passed:
                lastAction = seatName(e.seat) + " cannot move and passes.";
                notice("passed", lastAction, json{{"seat", e.seat.index}});
                break;
            case EventKind::ElectionOpened:
                notice("election-opened",
                       slug(e.character) + " is on the throne: every seat votes with its station.",
                       json{{"candidate", slug(e.character)}, {"seat", e.seat.index}});
                break;
            case EventKind::VoteCast:
                // Who voted, never what (the card is in the log, not here).
                lastAction = seatName(e.seat) + " has voted.";
                notice("vote-cast", lastAction, json{{"seat", e.seat.index}});
                break;
            case EventKind::VotesRevealed: {
                auto view = record::publicViewJson(engine::publicView(*state), rules);
                notice("revealed", "The votes are revealed.", view.value("last_reveal", json::object()));
                break;
            }
            case EventKind::Crowned:
                lastAction = slug(e.character) + " is crowned.";
                notice("crowned", lastAction, json{{"character", slug(e.character)}});
                break;
            case EventKind::PileReshuffled:
                notice("reshuffled", std::string("The Emissary's pile is shuffled") +
                                         (automatic ? " by the referee." : "."));
                break;
            case EventKind::CoronationScored:
                // Physical cards not yet entered: the scores are not known.
                if (!revealNeeded())
                    notice("scored", "The coronation is scored.", json{{"totals", state->totals()}});
                break;
            case EventKind::RoundEnded:
                notice("round-ended", "Round " + std::to_string(e.round) + " is over: clear the board.",
                       revealNeeded() ? json{{"round", e.round}}
                                      : json{{"round", e.round}, {"totals", state->totals()}});
                break;
            case EventKind::GameOver:
                break;
        }
        if (e.kind == EventKind::Rejected || e.kind == EventKind::Eliminated ||
            e.kind == EventKind::Cancelled) {
            lastAction = slug(e.character) + " is not crowned: it goes to " +
                         std::string(engine::placeName(e.to)) + ".";
            notice("not-crowned", lastAction,
                   json{{"character", slug(e.character)}, {"to", engine::placeName(e.to)}});
        }
    }
    (void)kind;
    if (engineMoved) {
        refusal.reset();
        startGuiding();
    }
    if (auto need = revealNeeded()) {
        lastAction = std::string("Show your ") + (need->favourites ? "Favourites" : "") +
                     (need->favourites && need->ambitions ? " and " : "") +
                     (need->ambitions ? "Ambition" : "") +
                     " cards: the host enters them, then the scores are counted.";
        notice(
            "cards-wanted", lastAction,
            json{{"round", need->round}, {"favourites", need->favourites}, {"ambitions", need->ambitions}});
    }
    armChance();
    finishIfOver();
}

void Referee::Impl::finishIfOver() {
    if (!state->isOver() || status != GameStatus::Playing || revealNeeded()) return;
    auto result = record::resultJson(*state);
    writeLog([&](store::DecisionLog& s, store::GameId g) { return s.finishGame(g, result, wallTime()); });
    status = GameStatus::Finished;
    stopGuiding();
    refusal.reset();
    ++counters.gamesFinished;
    counters.results.push_back(result);
    std::string text = "The game is over.";
    if (!result["winners"].empty()) {
        text += " Winner:";
        for (const auto& w : result["winners"]) {
            auto p = w.get<std::size_t>();
            text += " " + (p < players.size() ? players[p] : "player " + std::to_string(p));
        }
        text += ".";
    } else {
        text += " The Emissary wins.";
    }
    notice("game-over", text, result);
}

void Referee::Impl::writeLog(
    const std::function<store::WriteStatus(store::DecisionLog&, store::GameId)>& write) {
    if (!store || !gameId) return;
    try {
        noteLog(write(*store, *gameId));
    } catch (const std::exception& e) {
        // The log broke beyond a full disk: say so loudly, play on in memory.
        noteLog(store::WriteStatus{false, std::string("the game log failed: ") + e.what(), store->waiting()});
    }
}

Referee::Impl::LogBatch::LogBatch(Impl& m) : m_(m) {
    if (m_.store && m_.gameId) m_.store->beginBatch();
}

Referee::Impl::LogBatch::~LogBatch() {
    m_.writeLog([](store::DecisionLog& s, store::GameId) { return s.endBatch(); });
}

void Referee::Impl::refereeEvent(std::string_view kind, const json& payload) {
    writeLog([&](store::DecisionLog& s, store::GameId g) {
        return s.appendRefereeEvent(g, kind, payload.dump(), wallTime());
    });
}

void Referee::Impl::noteLog(const store::WriteStatus& written) {
    const bool wasDurable = log.durable;
    log = written;
    if (wasDurable && !written.durable)
        notice("log-problem",
               "THE GAME LOG CANNOT BE WRITTEN: " + written.problem + ". The game goes on in memory.",
               json{{"problem", written.problem}, {"waiting", written.waiting}});
    else if (!wasDurable && written.durable)
        notice("log-ok", "The game log is written again: nothing was lost.");
}

HostAnswer Referee::Impl::resumeFromLog(store::GameId id) {
    if (!store) return HostAnswer::refused("no-log", "There is no game log to resume from.");
    if (status == GameStatus::Playing || status == GameStatus::Paused)
        return HostAnswer::refused("game-in-progress", "A game is being played: abandon it first.", gameId);
    std::optional<store::GameSummary> summary;
    std::vector<store::StoredEvent> events;
    try {
        summary = store->game(id);
        if (summary) events = store->events(id);
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

    // Replay the log: decisions, undos (each takes back the last decision
    // in effect), the referee's own chance, pauses.
    engine::State rebuilt(rules);
    std::vector<Decision> decisions;
    bool wasPaused = false;
    bool nextIsOwnChance = false;
    FavouritesMode mode = FavouritesMode::Dealt;
    std::set<int> favouritesIn;
    std::set<int> ambitionsIn;
    for (std::size_t i = 1; i < events.size(); ++i) {
        const auto& e = events[i];
        if (store::isDecisionKind(e.kind)) {
            auto read = record::readLine(e.payload, rules.get());
            if (!read.line) return bad("event " + std::to_string(e.seq) + ": " + read.refusal->message);
            engine::State before = rebuilt;
            std::optional<engine::Refusal> why;
            Decision::Kind kind = Decision::Kind::Action;
            bool automatic = nextIsOwnChance;
            DecisionValue what;
            if (auto* d = std::get_if<engine::Deal>(&*read.line)) {
                kind = Decision::Kind::Deal;
                why = rebuilt.applyDeal(*d);
                what = *d;
                favouritesIn.erase(d->round);
                ambitionsIn.erase(d->round);
            } else if (auto* a = std::get_if<engine::Action>(&*read.line)) {
                // The referee's passes are its own; its other actions are marked.
                automatic = automatic || a->kind() == engine::ActionKind::Pass;
                why = rebuilt.apply(*a);
                what = *a;
            } else if (auto* r = std::get_if<engine::Reshuffle>(&*read.line)) {
                kind = Decision::Kind::Reshuffle;
                why = rebuilt.applyReshuffle(*r);
                what = *r;
            } else {
                return bad("event " + std::to_string(e.seq) + " is a second setup.");
            }
            if (why) return bad("event " + std::to_string(e.seq) + ": " + why->message);
            decisions.push_back(Decision{kind, automatic, std::move(before), std::move(what)});
            nextIsOwnChance = false;
        } else if (e.kind == "undo") {
            if (!decisions.empty()) {
                rebuilt = std::move(decisions.back().before);
                decisions.pop_back();
            }
        } else if (e.kind == "referee-chance" || e.kind == "automatic-keep") {
            nextIsOwnChance = true;
        } else if (e.kind == "favourites-mode") {
            auto payload = json::parse(e.payload, nullptr, false);
            if (payload.is_object() && payload.value("mode", "") == "physical")
                mode = FavouritesMode::Physical;
        } else if (e.kind == "cards-entered") {
            auto payload = json::parse(e.payload, nullptr, false);
            if (!payload.is_object() || !payload.contains("round") || !payload["round"].is_number_integer())
                return bad("event " + std::to_string(e.seq) + " names no round.");
            const int round = payload["round"].get<int>();
            if (payload.value("favourites", false)) favouritesIn.insert(round);
            if (payload.value("ambitions", false)) ambitionsIn.insert(round);
        } else if (e.kind == "pause") {
            wasPaused = true;
        } else if (e.kind == "resume") {
            wasPaused = false;
        }
    }

    gameId = id;
    state.emplace(std::move(rebuilt));
    history = std::move(decisions);
    favouritesMode = mode;
    favouritesEntered = std::move(favouritesIn);
    ambitionsEntered = std::move(ambitionsIn);
    players.assign(static_cast<std::size_t>(rules->players()), std::string());
    for (const auto& p : summary->players)
        if (p.player >= 0 && p.player < rules->players())
            players[static_cast<std::size_t>(p.player)] = p.name;
    seed = summary->seed.value_or(options.seed);
    // A fresh stream for what is left: the log holds what was dealt before.
    rng.emplace(seed + 0x9E3779B97F4A7C15ull * (events.size() + 1));
    refusal.reset();
    flashPlace.reset();
    stationBlinkUntil.clear();
    stationNotices.clear();
    liftedAt.clear();
    heldKeys.clear();
    boardActionAt = now;
    startGuiding();  // the board goes back to the logged position first
    status = wasPaused ? GameStatus::Paused : GameStatus::Playing;
    armChance();
    lastAction = "The game resumed from the log.";
    refereeEvent("restart", json{{"decisions", history.size()}});
    notice(
        "resumed-from-log",
        "Game " + std::to_string(id.value) + " resumes from the log: put the board as shown, then play on.",
        json{{"game", id.value}});
    finishIfOver();
    settle();
    return HostAnswer::accepted(id, "Game " + std::to_string(id.value) + " resumed.");
}

}  // namespace vivaref::referee
