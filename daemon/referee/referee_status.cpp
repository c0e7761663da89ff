// What the screens and the LEDs show. The public status is built only from
// the engine's public view and the board (which every player sees anyway:
// board_status.cpp); a player's page adds that player's own view. Nothing
// here reads a hand, a favourites card, an Ambition card or a vote but
// through those views.
#include "daemon/referee/led_decision.hpp"
#include "daemon/referee/referee_impl.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"
#include "engine/record/score_breakdown.hpp"
#include "engine/record/view_json.hpp"
#include "engine/views.hpp"

namespace vivaref::referee {

using engine::Phase;
using nlohmann::json;

namespace {

json seatList(const std::vector<engine::Seat>& seats) {
    json out = json::array();
    for (auto s : seats) out.push_back(s.index);
    return out;
}

// Who sits where, and the seats the referee plays (their bots' strength).
json seatedJson(const Game& game, const engine::Rules& rules) {
    json seated = json::array();
    for (int p = 0; p < rules.players(); ++p) {
        const auto player = engine::PlayerId{static_cast<std::uint8_t>(p)};
        const auto seat = rules.seatOf(player);
        seated.push_back(
            json{{"player", p},
                 {"seat", seat.index},
                 {"name", static_cast<std::size_t>(p) < game.players.size() ? game.players[p] : ""},
                 // The bot's strength for a seat the referee plays; null for people.
                 {"bot", game.botAt(seat) ? json(game.seats[seat.index].strength()) : json(nullptr)}});
    }
    return seated;
}

json rosterJson(const engine::Roster& roster) {
    json characters = json::array();
    for (const auto& c : roster.characters())
        characters.push_back(
            json{{"id", c.id}, {"name", c.name}, {"kind", engine::characterKindName(c.kind)}});
    return characters;
}

// Physical cards: the revealed cards the host has to enter, or may still
// correct.
void addReveal(json& out, const PhysicalCardsPart& cards, const std::optional<RevealNeed>& need,
               const engine::Rules& rules) {
    out["reveal"] = need ? json{{"round", need->round},
                                {"favourites", need->favourites},
                                {"ambitions", need->ambitions},
                                {"banished", rules.options().banished}}
                         : json(nullptr);
    const auto correctable = need ? std::nullopt : cards.correctableRound();
    out["reveal_correction"] = correctable && cards.favouritesEntered(*correctable)
                                   ? json{{"round", *correctable},
                                          {"ambitions", cards.ambitionsEntered(*correctable)},
                                          {"banished", rules.options().banished}}
                                   : json(nullptr);
}

json electionJson(const engine::State& state, const Context& ctx) {
    if (state.phase() != Phase::Election) return nullptr;
    json voted = json::array();
    for (int s = 0; s < state.rules().seats(); ++s)
        if (state.hasVoted(engine::Seat{static_cast<std::uint8_t>(s)})) voted.push_back(s);
    return json{{"candidate", ctx.slug(state.candidate())},
                {"crown_holder", state.crownHolder().index},
                {"voted", std::move(voted)},
                {"waiting", seatList(state.toAct())}};
}

// Who still has to keep an Ambition card: names only, never which card.
json ambitionWaitingJson(const engine::State& state, const Context& ctx, bool physicalCards) {
    json waiting = json::array();
    if (state.phase() != Phase::KeepAmbition || physicalCards) return waiting;
    for (int p = 0; p < state.rules().players(); ++p) {
        const engine::PlayerId player{static_cast<std::uint8_t>(p)};
        if (state.keptAmbition(player) == engine::AmbitionCard::Unknown)
            waiting.push_back(json{{"player", p}, {"name", ctx.playerName(player)}});
    }
    return waiting;
}

// What the game's phase waits for, in one sentence.
engine::Message phaseWaitsFor(const engine::State& state, const Context& ctx) {
    using engine::Message;
    switch (state.phase()) {
        case Phase::AwaitDeal:
            return Message("wait.deal", {{"round", engine::say::number(state.round())}});
        case Phase::AwaitReshuffle:
            return Message("wait.reshuffle");
        case Phase::KeepAmbition:
            return Message("wait.keep-ambition");
        case Phase::Placement:
            return Message("wait.place", {{"seat", ctx.seatWords(state.seatToAct())}});
        case Phase::Ascent:
            return Message("wait.move", {{"seat", ctx.seatWords(state.seatToAct())}});
        case Phase::Election:
            return Message(
                "wait.votes",
                {{"character", engine::say::character(state.rules().roster()[state.candidate()])}});
        case Phase::GameOver:
            return Message("wait.game-over");
    }
    return Message("wait.game-over");
}

// A message parameter as the API sends it ({"player": NAME}, a list...).
json wireValue(const engine::MessageValue& value) {
    return words::messageJson(engine::Message("value", {{"value", value}}))["args"]["value"];
}

// What concerns one player now, for the banner at the top of their page
// (API.md, "A player's page"): their seat's turn, the refusal of their
// seat's move (`refusal`: the public status's), their vote, their Ambition
// choice (their own two cards: this player's page only); else who plays
// now. Nothing in it that the public status or their own view does not
// already show them.
json playerMomentJson(const Context& ctx, json refusal, bool physicalCards, engine::PlayerId p) {
    const auto& game = ctx.game;
    const auto& state = *game.state;
    const auto& rules = state.rules();
    const auto seat = rules.seatOf(p);
    const auto phase = state.phase();
    json out{{"kind", "wait"},      {"action", nullptr},   {"to_act", nullptr}, {"refusal", nullptr},
             {"election", nullptr}, {"ambition", nullptr}, {"choices", nullptr}};
    const bool moving = phase == Phase::Placement || phase == Phase::Ascent;
    if (moving) {
        const auto toAct = state.seatToAct();
        out["action"] = phase == Phase::Placement ? "place" : "move";
        out["to_act"] = json{{"seat", toAct.index},
                             {"bot", game.botAt(toAct)},
                             {"remote", game.remoteAt(toAct)},
                             {"who", wireValue(ctx.seatWords(toAct))}};
        // A bot's move, or one chosen from afar, shown for the table to make:
        // anyone may make it.
        out["to_act"]["plan_says"] = game.plan ? words::messageJson(ctx.planCall()) : json(nullptr);
        // A seat played from afar chooses on its page: every legal placement
        // or move (engine), until the table has made the one chosen.
        if (toAct == seat && game.remoteAt(seat) && game.playing()) {
            engine::ActionList legal;
            state.legalActions(legal);
            json choices = json::array();
            for (const auto& a : legal) {
                if (a.kind() != engine::ActionKind::Place && a.kind() != engine::ActionKind::Move) continue;
                choices.push_back(json{{"action", a.kind() == engine::ActionKind::Place ? "place" : "move"},
                                       {"character", ctx.slug(a.character())},
                                       {"from", placeJson(boardPlace(state.placeOf(a.character())))},
                                       {"to", placeJson(boardPlace(a.to()).value_or(a.to()))}});
            }
            out["choices"] = std::move(choices);
        }
        // A board refused while a seat is to place or move stands for that
        // seat's move: it is theirs to put back.
        if (toAct == seat && !refusal.is_null()) {
            refusal["seat"] = toAct.index;
            out["refusal"] = std::move(refusal);
        }
    }
    if (phase == Phase::Election) {
        const auto& hand = state.hand(seat);
        json keys = json::array();
        for (auto card : {engine::VoteCard::Yes, engine::VoteCard::No, engine::VoteCard::Stomachache})
            if (hand.holds(card)) keys.push_back(engine::voteCardName(card));
        const auto candidate = state.candidate();
        out["election"] =
            json{{"candidate", candidate.index < rules.roster().size()
                                   ? wireValue(engine::say::character(rules.roster()[candidate]))
                                   : json(nullptr)},
                 {"voted", state.hasVoted(seat)},
                 {"keys", std::move(keys)},
                 // Whether this page votes (issue 35): its seat votes on the phone.
                 {"by_phone", game.votesAt(seat) != VoteSource::Station && !game.botAt(seat)}};
    }
    const bool choosing = phase == Phase::KeepAmbition || state.ambitionChangeable(p);
    if (rules.options().ambition && !physicalCards && choosing) {
        const auto kept = state.keptAmbition(p);
        json choices = json::array();
        for (auto c : state.ambitionChoices(p)) choices.push_back(engine::ambitionCardName(c));
        out["ambition"] =
            json{{"kept", kept == engine::AmbitionCard::Unknown ? json(nullptr)
                                                                : json(engine::ambitionCardName(kept))},
                 {"choices", std::move(choices)},
                 {"changeable", state.ambitionChangeable(p)}};
    }
    const char* kind = "wait";
    if (game.status == GameStatus::Paused)
        kind = "paused";
    else if (game.status == GameStatus::Finished || game.status == GameStatus::Abandoned)
        kind = "over";
    else if (!game.playing())
        kind = "wait";
    else if (!out["refusal"].is_null())
        kind = "refused";
    else if (!out["ambition"].is_null() && out["ambition"]["kept"].is_null())
        kind = "ambition";
    else if (!out["election"].is_null())
        kind = out["election"]["voted"].get<bool>() ? "voted" : "vote";
    else if (moving && state.seatToAct() == seat && !game.botAt(seat))
        kind = !game.remoteAt(seat) ? "turn" : game.plan ? "planned" : "choose";
    out["kind"] = kind;
    return out;
}

}  // namespace

json Referee::Impl::publicStatus() const {
    const auto& game = ctx.game;
    const auto& log = ctx.log;
    json out{
        {"state", gameStatusName(game.status)},
        {"game", game.id ? json(game.id->value) : json(nullptr)},
        {"log",
         {{"kept", ctx.store != nullptr},
          {"durable", log.durable},
          {"problem", log.problem},
          {"waiting", log.waiting}}},
        {"readers", board.readersJson()},
        // While the log cannot save: why, in words for the table (nothing new is accepted).
        {"log_problem", ctx.logBlocked() ? json(ctx.logRefusal()) : json(nullptr)},
        {"log_problem_says", ctx.logBlocked() ? words::messageJson(ctx.logRefusalMessage()) : json(nullptr)}};
    // A new game teaches unless its request says otherwise (the host page's box starts so).
    out["teaching_default"] = ctx.options.teaching;
    if (!game.state) return out;
    const auto& state = game.state;
    const auto& rules = state->rules();

    out["players"] = seatedJson(game, rules);
    out["roster"] = rosterJson(rules.roster());
    out["edition"] = engine::editionName(rules.edition());
    out["variant"] = engine::variantName(rules.variant());
    out["view"] = record::publicViewJson(engine::publicView(*state), rules);
    out["favourites_mode"] = favouritesModeName(cards.mode());
    const auto need = cards.revealNeeded();
    addReveal(out, cards, need, rules);
    const auto& history = timeline.decisions();
    if (need && !history.empty()) {
        // The coronation was scored on placeholder cards: the scores stand as
        // they were before it, and no card is shown, until the real ones are in.
        auto before = record::publicViewJson(engine::publicView(history.back().before), rules);
        for (const char* key : {"totals", "finished_rounds", "emissary_total", "winners"})
            if (before.contains(key)) out["view"][key] = before[key];
        out["view"]["revealed_favourites"] = json::array();
    }

    // Why each scored round scored what it did, and the final standing: only
    // rounds already scored, whose cards the coronation revealed (API.md).
    const engine::State& scored = need && !history.empty() ? history.back().before : *state;
    json breakdown = json::array();
    for (const auto& r : scored.finishedRounds())
        breakdown.push_back(record::roundBreakdownJson(r, rules, game.players, words::messageJson));
    out["score_breakdown"] = std::move(breakdown);
    out["standing"] = record::standingJson(scored, game.players, words::messageJson);

    // The board, the differences, the guidance or the refusal.
    board.addStatus(out);

    out["election"] = electionJson(*state, ctx);
    out["ambition_waiting"] = ambitionWaitingJson(*state, ctx, cards.physical());
    out["last_action"] = game.lastAction.code.empty() ? "" : words::english().say(game.lastAction);
    out["last_action_says"] =
        game.lastAction.code.empty() ? json(nullptr) : words::messageJson(game.lastAction);
    // A table that teaches: whether it does, and a rule explained the first time.
    out["teaching"] = teaching.on();
    out["teach"] = teaching.statusJson(timeline.decisions().size());
    // A bot's placement or move to carry out (its votes and keeps stay
    // secret), or one chosen from afar; "bot_plan" is its old name.
    out["plan"] = ctx.planJson();
    out["bot_plan"] = out["plan"];
    // How each seat plays: its votes, from afar, a bot (issue 35).
    out["seats"] = seats.statusJson();

    // What the referee waits for, in one sentence.
    engine::Message waiting;
    if (game.status == GameStatus::Paused)
        waiting = engine::Message("wait.paused");
    else if (need && game.status == GameStatus::Playing)
        waiting = engine::Message("wait.cards-entered", {{"round", engine::say::number(need->round)}});
    else if (game.status == GameStatus::Finished)
        waiting = engine::Message("wait.game-over");
    else if (game.status == GameStatus::Abandoned)
        waiting = engine::Message("wait.abandoned");
    else if (auto boardWaits = board.waitingFor())
        waiting = *boardWaits;
    else
        waiting = phaseWaitsFor(*state, ctx);
    out["waiting_for"] = words::english().say(waiting);
    out["waiting_says"] = words::messageJson(waiting);
    return out;
}

json Referee::Impl::playerStatus(engine::PlayerId p) const {
    const auto& game = ctx.game;
    const auto& state = game.state;
    if (!state || p.index >= state->rules().players()) {
        const engine::Message why("referee.no-such-player");
        return json{{"error", "no-such-player"},
                    {"message", words::english().say(why)},
                    {"says", words::messageJson(why)}};
    }
    const auto& rules = state->rules();
    json own = record::playerViewJson(engine::playerView(*state, p), rules);
    // Physical cards: the player holds them; the referee's are placeholders.
    if (cards.physical())
        for (const char* key : {"favourites", "banished", "ambition_choices", "ambition"}) own.erase(key);
    // The seat's station's last private notice (e.g. a second key press, not counted).
    json stationNotice = nullptr;
    if (const Notice* n = board.stationNotice(rules.seatOf(p))) {
        stationNotice = json{{"kind", n->kind}, {"text", n->text}, {"at", n->at.count()}};
        if (n->says) stationNotice["says"] = words::messageJson(*n->says);
        if (n->detail.contains("code")) stationNotice["code"] = n->detail["code"];
        if (n->detail.contains("rule")) stationNotice["rule"] = n->detail["rule"];
    }
    json boardJson = json::object();
    board.addStatus(boardJson);
    return json{{"game", game.id ? json(game.id->value) : json(nullptr)},
                {"moment", playerMomentJson(ctx, boardJson["refusal"], cards.physical(), p)},
                {"station_notice", std::move(stationNotice)},
                {"state", gameStatusName(game.status)},
                {"player", p.index},
                {"name", p.index < game.players.size() ? game.players[p.index] : ""},
                {"seat", rules.seatOf(p).index},
                // How this player's seat plays (issue 35): its votes, from afar, a bot standing in.
                {"seat_play", seats.seatJson(rules.seatOf(p))},
                // The game's decisions so far: a move chosen from afar says
                // which position it was chosen for (issue 35).
                {"step", timeline.decisions().size()},
                {"favourites_mode", favouritesModeName(cards.mode())},
                {"private", std::move(own)}};
}

drivers::LedStates Referee::Impl::leds(Timestamp at) const {
    const auto& game = ctx.game;
    LedFacts facts;
    const bool inGame =
        game.state && (game.status == GameStatus::Playing || game.status == GameStatus::Paused);
    board.addLedFacts(facts, inGame);
    // A table that teaches: where the piece in hand may go (never while paused).
    if (teaching.on() && game.status == GameStatus::Playing && !ctx.logBlocked()) board.addHintFacts(facts);
    if (inGame) {
        const auto phase = game.state->phase();
        for (auto s : game.state->toAct()) {
            if (phase == Phase::Election)
                facts.votingSeats.push_back(s);
            else
                facts.turnSeats.push_back(s);
        }
        facts.paused = game.status == GameStatus::Paused;
    }
    // The log cannot save: the turn LEDs pulse as when paused, and nothing
    // flashes as accepted (the move that met the full disk is not saved).
    if (ctx.logBlocked()) {
        facts.paused = true;
        facts.flashPlace.reset();
    }
    return decideLeds(facts, at);
}

}  // namespace vivaref::referee
