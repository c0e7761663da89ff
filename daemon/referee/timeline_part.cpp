// The timeline and undo: decisions applied to the state, written to the game
// log before anything acknowledges them and kept for undo; a round played
// again on the physical cards revealed; a game rebuilt from its log.
#include "daemon/referee/timeline_part.hpp"

#include "daemon/words/words.hpp"
#include "engine/record/record_replayer.hpp"

namespace vivaref::referee {

using nlohmann::json;

namespace {

// A decision written to the log as its kind's line.
store::WriteStatus append(store::DecisionLog& log, store::GameId game, const engine::Decision& d,
                          store::WallTime at) {
    if (const auto* action = std::get_if<engine::Action>(&d)) return log.appendAction(game, *action, at);
    if (const auto* deal = std::get_if<engine::Deal>(&d)) return log.appendDeal(game, *deal, at);
    return log.appendReshuffle(game, std::get<engine::Reshuffle>(d), at);
}

}  // namespace

Verdict TimelinePart::apply(const engine::Decision& d, bool automatic, engine::EventList& events) {
    auto& state = ctx_.game.state;
    engine::State next = *state;
    if (auto why = next.apply(d, &events)) return Verdict::refused(std::move(*why));
    // On disk before anything shows it: a decision the log cannot save is
    // not taken (the board is judged again once it can).
    if (!ctx_.commit(
            [&](store::DecisionLog& s, store::GameId g) { return append(s, g, d, ctx_.wallTime()); })) {
        events.clear();
        return Verdict::notSaved();
    }
    history_.push_back(Decision{automatic, std::move(*state), d});
    *state = std::move(next);
    if (const auto* a = std::get_if<engine::Action>(&d)) {
        if (a->kind() == engine::ActionKind::Pass)
            ++ctx_.counters.automaticPasses;
        else
            ++ctx_.counters.actionsAccepted;
    }
    return Verdict::taken();
}

std::optional<std::size_t> TimelinePart::takeBackFrom() const {
    // The last decision a person took, with what the referee did on its own after it.
    std::size_t keep = history_.size();
    while (keep > 0 && history_[keep - 1].automatic) --keep;
    if (keep == 0) return std::nullopt;
    return keep - 1;
}

std::optional<int> TimelinePart::takeBack() {
    const auto from = takeBackFrom();
    if (!from) return 0;
    const std::size_t keep = *from;
    const int taken = static_cast<int>(history_.size() - keep);
    {
        LogBatch batch(ctx_);
        for (int i = 0; i < taken; ++i)
            ctx_.writeLog(
                [&](store::DecisionLog& s, store::GameId g) { return s.appendUndo(g, ctx_.wallTime()); });
        if (!batch.commit()) return std::nullopt;
    }
    ctx_.game.state = std::move(history_[keep].before);
    history_.erase(history_.begin() + static_cast<std::ptrdiff_t>(keep), history_.end());
    return taken;
}

Verdict TimelinePart::replayRound(std::size_t dealIndex, const engine::Deal& deal,
                                  const std::optional<std::vector<engine::AmbitionCard>>& kept,
                                  bool favourites, bool ambitions) {
    engine::State s = history_[dealIndex].before;
    std::vector<Decision> redone;
    {
        engine::State before = s;
        if (auto why = s.apply(deal)) return Verdict::refused(std::move(*why));
        redone.push_back(Decision{false, std::move(before), deal});
    }
    for (std::size_t i = dealIndex + 1; i < history_.size(); ++i) {
        Decision d{history_[i].automatic, s, history_[i].what};
        if (auto* a = std::get_if<engine::Action>(&d.what);
            a && a->kind() == engine::ActionKind::Keep && kept) {
            d.what = engine::Action::keep(a->player(), (*kept)[a->player().index]);
            d.automatic = false;  // the host entered it
        }
        if (auto why = s.apply(d.what)) {
            why->message = engine::Message("referee.round-not-replayable",
                                           {{"why", engine::say::message(why->message)}});
            return Verdict::refused(std::move(*why));
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
            if (d.automatic) {
                if (const auto* a = std::get_if<engine::Action>(&d.what);
                    a && a->kind() == engine::ActionKind::Keep)
                    ctx_.refereeEvent("automatic-keep", json{{"player", a->player().index}});
                else if (!a)
                    ctx_.refereeEvent(
                        "referee-chance",
                        json{{"kind", std::holds_alternative<engine::Deal>(d.what) ? "deal" : "reshuffle"}});
            }
            ctx_.writeLog(
                [&](store::DecisionLog& st, store::GameId g) { return append(st, g, d.what, wallTime); });
        }
        ctx_.refereeEvent("cards-entered",
                          json{{"round", deal.round}, {"favourites", favourites}, {"ambitions", ambitions}});
        if (!batch.commit()) return Verdict::notSaved();
    }
    ctx_.game.state = std::move(s);
    history_.erase(history_.begin() + static_cast<std::ptrdiff_t>(dealIndex), history_.end());
    for (auto& d : redone) history_.push_back(std::move(d));
    return Verdict::taken();
}

std::variant<LoggedGame, std::string> readLoggedGame(const std::vector<store::StoredEvent>& events,
                                                     const std::shared_ptr<const engine::Rules>& rules) {
    // Replay the log: decisions, undos (each takes back the last decision
    // in effect), the referee's own chance, pauses.
    LoggedGame out(rules);
    std::vector<Decision>& decisions = out.decisions;
    bool nextIsOwnChance = false;
    // Each decision is kept with the state before it, for undo.
    record::RecordReplayer replayer(
        engine::State(rules), {.before = [&](int, const engine::Decision& d, const engine::State& before) {
            bool automatic = nextIsOwnChance;
            if (const auto* deal = std::get_if<engine::Deal>(&d)) {
                out.favouritesEntered.erase(deal->round);
                out.ambitionsEntered.erase(deal->round);
            } else if (const auto* a = std::get_if<engine::Action>(&d)) {
                // The referee's passes are its own; its other actions are marked.
                automatic = automatic || a->kind() == engine::ActionKind::Pass;
            }
            decisions.push_back(Decision{automatic, before, d});
            return true;
        }});
    for (std::size_t i = 1; i < events.size(); ++i) {
        const auto& e = events[i];
        if (store::isDecisionKind(e.kind)) {
            if (!replayer.next(e.payload))
                return "event " + std::to_string(e.seq) + ": " +
                       words::inEnglish(replayer.failure()->refusal.message);
            nextIsOwnChance = false;
            out.plan = nullptr;  // made, or the game moved on
        } else if (e.kind == "seats" || e.kind == "plan") {
            auto payload = json::parse(e.payload, nullptr, false);
            if (!payload.is_object()) return "event " + std::to_string(e.seq) + " is not a JSON object.";
            (e.kind == "seats" ? out.seats : out.plan) = std::move(payload);
        } else if (e.kind == "undo") {
            out.plan = nullptr;
            if (!decisions.empty()) {
                replayer.restore(std::move(decisions.back().before));
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
                    return "event " + std::to_string(e.seq) +
                           " has a bot seat without its number or strength.";
                out.bots.push_back(
                    BotSeatRequest{seat["seat"].get<int>(), seat["strength"].get<std::string>()});
            }
        } else if (e.kind == "teaching") {
            auto payload = json::parse(e.payload, nullptr, false);
            out.teaching = payload.is_object() && payload.value("on", false);
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
    out.state = std::move(*replayer.state());
    return out;
}

}  // namespace vivaref::referee
