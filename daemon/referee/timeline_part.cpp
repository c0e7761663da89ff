// The timeline and undo: decisions applied to the state, written to the game
// log before anything acknowledges them and kept for undo; a round played
// again on the physical cards revealed; a game rebuilt from its log.
#include "daemon/referee/timeline_part.hpp"

#include "engine/record/line_reader.hpp"

namespace vivaref::referee {

using nlohmann::json;

std::optional<engine::Refusal> TimelinePart::apply(const engine::Action& a, bool automatic,
                                                   engine::EventList& events) {
    auto& state = ctx_.game.state;
    engine::State before = *state;
    if (auto why = state->apply(a, &events)) return why;
    history_.push_back(Decision{Decision::Kind::Action, automatic, std::move(before), a});
    ctx_.writeLog(
        [&](store::DecisionLog& s, store::GameId g) { return s.appendAction(g, a, ctx_.wallTime()); });
    if (a.kind() == engine::ActionKind::Pass)
        ++ctx_.counters.automaticPasses;
    else
        ++ctx_.counters.actionsAccepted;
    return std::nullopt;
}

std::optional<engine::Refusal> TimelinePart::apply(const engine::Deal& d, bool automatic,
                                                   engine::EventList& events) {
    auto& state = ctx_.game.state;
    engine::State before = *state;
    if (auto why = state->apply(d, &events)) return why;
    history_.push_back(Decision{Decision::Kind::Deal, automatic, std::move(before), d});
    ctx_.writeLog(
        [&](store::DecisionLog& s, store::GameId g) { return s.appendDeal(g, d, ctx_.wallTime()); });
    return std::nullopt;
}

std::optional<engine::Refusal> TimelinePart::apply(const engine::Reshuffle& r, bool automatic,
                                                   engine::EventList& events) {
    auto& state = ctx_.game.state;
    engine::State before = *state;
    if (auto why = state->apply(r, &events)) return why;
    history_.push_back(Decision{Decision::Kind::Reshuffle, automatic, std::move(before), r});
    ctx_.writeLog(
        [&](store::DecisionLog& s, store::GameId g) { return s.appendReshuffle(g, r, ctx_.wallTime()); });
    return std::nullopt;
}

int TimelinePart::takeBack() {
    // The last decision a person took, with what the referee did on its own after it.
    std::size_t keep = history_.size();
    while (keep > 0 && history_[keep - 1].automatic) --keep;
    if (keep == 0) return 0;
    --keep;
    const int taken = static_cast<int>(history_.size() - keep);
    for (int i = 0; i < taken; ++i)
        ctx_.writeLog(
            [&](store::DecisionLog& s, store::GameId g) { return s.appendUndo(g, ctx_.wallTime()); });
    ctx_.game.state = std::move(history_[keep].before);
    history_.erase(history_.begin() + static_cast<std::ptrdiff_t>(keep), history_.end());
    return taken;
}

std::optional<engine::Refusal> TimelinePart::replayRound(
    std::size_t dealIndex, const engine::Deal& deal,
    const std::optional<std::vector<engine::AmbitionCard>>& kept, bool favourites, bool ambitions) {
    engine::State s = history_[dealIndex].before;
    std::vector<Decision> redone;
    {
        engine::State before = s;
        if (auto why = s.apply(deal)) return why;
        redone.push_back(Decision{Decision::Kind::Deal, false, std::move(before), deal});
    }
    for (std::size_t i = dealIndex + 1; i < history_.size(); ++i) {
        Decision d{history_[i].kind, history_[i].automatic, s, history_[i].what};
        if (auto* a = std::get_if<engine::Action>(&d.what);
            a && a->kind() == engine::ActionKind::Keep && kept) {
            d.what = engine::Action::keep(a->player(), (*kept)[a->player().index]);
            d.automatic = false;  // the host entered it
        }
        std::optional<engine::Refusal> why = std::visit(
            [&](const auto& v) -> std::optional<engine::Refusal> {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, engine::Action>) return s.apply(v);
                if constexpr (std::is_same_v<T, engine::Deal>) return s.apply(v);
                if constexpr (std::is_same_v<T, engine::Reshuffle>) return s.apply(v);
            },
            d.what);
        if (why) {
            why->message = "The round cannot be played again on these cards: " + why->message;
            return why;
        }
        redone.push_back(std::move(d));
    }

    // Logged as one transaction: the round's decisions taken back, then
    // played again (the referee's own ones marked as before), then what was
    // entered.
    {
        LogBatch batch(ctx_);
        const auto wallTime = ctx_.wallTime();
        for (std::size_t i = dealIndex; i < history_.size(); ++i)
            ctx_.writeLog(
                [&](store::DecisionLog& st, store::GameId g) { return st.appendUndo(g, wallTime); });
        for (const auto& d : redone) {
            if (const auto* a = std::get_if<engine::Action>(&d.what)) {
                if (d.automatic && a->kind() == engine::ActionKind::Keep)
                    ctx_.refereeEvent("automatic-keep", json{{"player", a->player().index}});
                ctx_.writeLog([&](store::DecisionLog& st, store::GameId g) {
                    return st.appendAction(g, *a, wallTime);
                });
            } else if (const auto* dl = std::get_if<engine::Deal>(&d.what)) {
                if (d.automatic) ctx_.refereeEvent("referee-chance", json{{"kind", "deal"}});
                ctx_.writeLog(
                    [&](store::DecisionLog& st, store::GameId g) { return st.appendDeal(g, *dl, wallTime); });
            } else if (const auto* r = std::get_if<engine::Reshuffle>(&d.what)) {
                if (d.automatic) ctx_.refereeEvent("referee-chance", json{{"kind", "reshuffle"}});
                ctx_.writeLog([&](store::DecisionLog& st, store::GameId g) {
                    return st.appendReshuffle(g, *r, wallTime);
                });
            }
        }
        ctx_.refereeEvent("cards-entered",
                          json{{"round", deal.round}, {"favourites", favourites}, {"ambitions", ambitions}});
    }
    ctx_.game.state = std::move(s);
    history_.erase(history_.begin() + static_cast<std::ptrdiff_t>(dealIndex), history_.end());
    for (auto& d : redone) history_.push_back(std::move(d));
    return std::nullopt;
}

std::variant<LoggedGame, std::string> readLoggedGame(const std::vector<store::StoredEvent>& events,
                                                     const std::shared_ptr<const engine::Rules>& rules) {
    // Replay the log: decisions, undos (each takes back the last decision
    // in effect), the referee's own chance, pauses.
    LoggedGame out(rules);
    engine::State& rebuilt = out.state;
    std::vector<Decision>& decisions = out.decisions;
    bool nextIsOwnChance = false;
    for (std::size_t i = 1; i < events.size(); ++i) {
        const auto& e = events[i];
        if (store::isDecisionKind(e.kind)) {
            auto read = record::readLine(e.payload, rules.get());
            if (!read.line) return "event " + std::to_string(e.seq) + ": " + read.refusal->message;
            engine::State before = rebuilt;
            std::optional<engine::Refusal> why;
            Decision::Kind kind = Decision::Kind::Action;
            bool automatic = nextIsOwnChance;
            DecisionValue what;
            if (auto* d = std::get_if<engine::Deal>(&*read.line)) {
                kind = Decision::Kind::Deal;
                why = rebuilt.apply(*d);
                what = *d;
                out.favouritesEntered.erase(d->round);
                out.ambitionsEntered.erase(d->round);
            } else if (auto* a = std::get_if<engine::Action>(&*read.line)) {
                // The referee's passes are its own; its other actions are marked.
                automatic = automatic || a->kind() == engine::ActionKind::Pass;
                why = rebuilt.apply(*a);
                what = *a;
            } else if (auto* r = std::get_if<engine::Reshuffle>(&*read.line)) {
                kind = Decision::Kind::Reshuffle;
                why = rebuilt.apply(*r);
                what = *r;
            } else {
                return "event " + std::to_string(e.seq) + " is a second setup.";
            }
            if (why) return "event " + std::to_string(e.seq) + ": " + why->message;
            decisions.push_back(Decision{kind, automatic, std::move(before), std::move(what)});
            nextIsOwnChance = false;
        } else if (e.kind == "undo") {
            if (!decisions.empty()) {
                rebuilt = std::move(decisions.back().before);
                decisions.pop_back();
            }
        } else if (e.kind == "referee-chance" || e.kind == "automatic-keep" || e.kind == "bot-decision") {
            // The referee's own decision (a bot's vote, keep or pass too):
            // an undo takes it back with the person's decision before it.
            nextIsOwnChance = true;
        } else if (e.kind == "bots") {
            auto payload = json::parse(e.payload, nullptr, false);
            if (!payload.is_object() || !payload.contains("seats") || !payload["seats"].is_array())
                return "event " + std::to_string(e.seq) + " lists no bot seats.";
            for (const auto& seat : payload["seats"]) {
                if (!seat.is_object() || !seat.contains("seat") || !seat["seat"].is_number_integer() ||
                    !seat.contains("strength") || !seat["strength"].is_string())
                    return "event " + std::to_string(e.seq) + " has a bot seat without its number or strength.";
                out.bots.push_back(BotSeatRequest{seat["seat"].get<int>(), seat["strength"].get<std::string>()});
            }
        } else if (e.kind == "favourites-mode") {
            auto payload = json::parse(e.payload, nullptr, false);
            if (payload.is_object() && payload.value("mode", "") == "physical")
                out.favouritesMode = FavouritesMode::Physical;
        } else if (e.kind == "cards-entered") {
            auto payload = json::parse(e.payload, nullptr, false);
            if (!payload.is_object() || !payload.contains("round") || !payload["round"].is_number_integer())
                return "event " + std::to_string(e.seq) + " names no round.";
            const int round = payload["round"].get<int>();
            if (payload.value("favourites", false)) out.favouritesEntered.insert(round);
            if (payload.value("ambitions", false)) out.ambitionsEntered.insert(round);
        } else if (e.kind == "pause") {
            out.paused = true;
        } else if (e.kind == "resume") {
            out.paused = false;
        }
    }
    return out;
}

}  // namespace vivaref::referee
