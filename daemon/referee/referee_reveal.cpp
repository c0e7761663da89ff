// Physical cards: a table that plays with its own Favourites (and Ambition)
// cards keeps them hidden until a coronation turns them face up. Until then
// the referee plays the round on placeholder cards from its own generator,
// which nobody is shown (no rule before scoring reads a player's card); when
// a coronation has scored, it accepts nothing more until the host enters the
// cards as revealed, then takes the round back to its deal and plays it
// again on the real cards. The log holds that as undos and the decisions
// again, in one transaction, so an export's deal is the real one and a
// resume needs nothing new. REFEREE-NOTES.md, "Physical cards".
#include <algorithm>

#include "daemon/referee/referee_impl.hpp"
#include "engine/record/deal_reader.hpp"
#include "engine/record/line_writer.hpp"

namespace vivaref::referee {

using engine::Phase;
using nlohmann::json;

namespace {

HostAnswer badReveal(std::string message, std::optional<store::GameId> game) {
    return HostAnswer::refused("bad-reveal", std::move(message), game);
}

// The number of coronations that end a round with every card scored.
std::size_t fullCoronations(const engine::Rules& rules) {
    return rules.variant() == engine::Variant::RoyalCouple ? 2 : 1;
}

}  // namespace

std::optional<int> Referee::Impl::revealRound() const {
    if (!physical() || !state) return std::nullopt;
    const auto phase = state->phase();
    if (phase == Phase::AwaitDeal || phase == Phase::GameOver) {
        const auto& rounds = state->finishedRounds();
        if (rounds.empty() || rounds.back().kings.empty()) return std::nullopt;
        return rounds.back().round;
    }
    // A royal couple's first coronation leaves the cards face up.
    if (state->favouritesRevealed()) return state->round();
    return std::nullopt;
}

std::optional<int> Referee::Impl::correctableRound() const {
    if (auto round = revealRound()) return round;
    // Entered cards stay correctable through the next round, until its own
    // coronation turns new cards face up.
    if (!physical() || !state || state->finishedRounds().empty()) return std::nullopt;
    const int last = state->finishedRounds().back().round;
    if (!favouritesEntered.contains(last)) return std::nullopt;
    return last;
}

std::optional<RevealNeed> Referee::Impl::revealNeeded() const {
    const auto round = correctableRound();
    if (!round) return std::nullopt;
    RevealNeed need{*round};
    need.favourites = !favouritesEntered.contains(*round);
    const auto& rules = state->rules();
    const auto phase = state->phase();
    const bool roundScored = (phase == Phase::AwaitDeal || phase == Phase::GameOver) &&
                             state->finishedRounds().back().kings.size() == fullCoronations(rules);
    // Ambition cards score only at the coronation that ends the round.
    need.ambitions = rules.options().ambition && roundScored && !ambitionsEntered.contains(*round);
    if (!need.favourites && !need.ambitions) return std::nullopt;
    return need;
}

bool Referee::Impl::autoKeep() {
    if (!physical() || status != GameStatus::Playing || state->phase() != Phase::KeepAmbition) return false;
    LogBatch batch(*this);
    bool kept = false;
    for (int p = 0; p < state->rules().players(); ++p) {
        const engine::PlayerId player{static_cast<std::uint8_t>(p)};
        if (state->keptAmbition(player) != engine::AmbitionCard::Unknown) continue;
        // A placeholder: the player's real card is entered at the coronation.
        refereeEvent("automatic-keep", json{{"player", p}});
        if (!decide(engine::Action::keep(player, state->ambitionChoices(player)[0]), true)) kept = true;
    }
    return kept;
}

HostAnswer Referee::Impl::reveal(const RevealRequest& r) {
    if (auto bad = needPlaying()) return *bad;
    if (!physical())
        return HostAnswer::refused(
            "not-physical", "The referee dealt this game's Favourites cards: there is nothing to enter.",
            gameId);
    const auto round = correctableRound();
    if (!round)
        return HostAnswer::refused(
            "nothing-to-reveal",
            "No Favourites card is face up yet: enter them when a coronation reveals them.", gameId);
    const auto& rules = state->rules();
    const json& body = r.reveal;
    for (const auto& [key, value] : body.items())
        if (key != "round" && key != "favourites" && key != "banished" && key != "ambitions")
            return badReveal("Unknown key '" + key + "' (round, favourites, banished, ambitions).", gameId);
    const auto roundIt = body.find("round");
    if (roundIt == body.end() || !roundIt->is_number_integer())
        return badReveal("Say which round's cards these are (\"round\").", gameId);
    if (roundIt->get<std::int64_t>() != *round)
        return HostAnswer::refused("wrong-round",
                                   "The cards face up are round " + std::to_string(*round) + "'s.", gameId);
    const bool hasFavourites = body.contains("favourites");
    const bool hasAmbitions = body.contains("ambitions");
    const auto need = revealNeeded();
    if (need && need->favourites && !hasFavourites)
        return badReveal("Enter every player's six favourites.", gameId);
    if (need && need->ambitions && !hasAmbitions)
        return badReveal("Enter the Ambition card each player kept.", gameId);
    if (!hasFavourites && !hasAmbitions)
        return badReveal("Enter the favourites or the kept Ambition cards.", gameId);
    if (body.contains("banished") && !hasFavourites)
        return badReveal("The seals come with the favourites: enter both.", gameId);
    if (hasFavourites && rules.options().banished && !body.contains("banished"))
        return badReveal("Enter each card's sealed character too.", gameId);
    if (hasAmbitions && !rules.options().ambition)
        return badReveal("This game plays without Ambition cards.", gameId);

    // The round's deal in effect, with the entered cards in place of its own
    // (a correction may come once the next round is dealt: the replay then
    // goes through that round too).
    std::size_t dealIndex = history.size();
    while (dealIndex > 0 && !(history[dealIndex - 1].kind == Decision::Kind::Deal &&
                              std::get<engine::Deal>(history[dealIndex - 1].what).round == *round))
        --dealIndex;
    if (dealIndex == 0)
        return HostAnswer::refused("bad-log", "Round " + std::to_string(*round) + "'s deal is not known.",
                                   gameId);
    --dealIndex;
    json dealJson =
        json::parse(record::writeDeal(std::get<engine::Deal>(history[dealIndex].what), rules)).at("deal");
    if (hasFavourites) {
        dealJson["favourites"] = body["favourites"];
        if (body.contains("banished"))
            dealJson["banished"] = body["banished"];
        else
            dealJson.erase("banished");
    }
    std::optional<std::vector<engine::AmbitionCard>> kept;
    if (hasAmbitions) {
        const json& list = body["ambitions"];
        if (!list.is_array() || static_cast<int>(list.size()) != rules.players())
            return badReveal("Give one kept Ambition card for each of the " +
                                 std::to_string(rules.players()) + " players.",
                             gameId);
        kept.emplace();
        for (const auto& slug : list) {
            const auto card = slug.is_string() ? engine::parseAmbitionCard(slug.get<std::string>())
                                               : engine::AmbitionCard::Unknown;
            if (card == engine::AmbitionCard::Unknown)
                return badReveal(slug.dump() + " is not an Ambition card.", gameId);
            kept->push_back(card);
        }
        // The card each player returned unseen is unknown: the record needs a
        // pair, so each kept card is paired with one nobody kept.
        std::vector<bool> used(engine::kAmbitionCardCount, false);
        for (auto card : *kept) used[static_cast<std::size_t>(card)] = true;
        json pairs = json::array();
        int next = 0;
        for (auto card : *kept) {
            while (next < engine::kAmbitionCardCount && used[static_cast<std::size_t>(next)]) ++next;
            if (next == engine::kAmbitionCardCount)
                return badReveal("Too few Ambition cards are left.", gameId);
            used[static_cast<std::size_t>(next)] = true;
            pairs.push_back(json{engine::ambitionCardName(card),
                                 engine::ambitionCardName(static_cast<engine::AmbitionCard>(next))});
        }
        dealJson["ambitions"] = std::move(pairs);
    }
    auto read = record::readDeal(dealJson, rules);
    if (auto* why = std::get_if<engine::Refusal>(&read))
        return HostAnswer::refused(std::string(engine::refusalCodeName(why->code)), why->message, gameId);
    const int taken = static_cast<int>(history.size() - dealIndex);
    if (auto why = replayRound(dealIndex, std::get<engine::Deal>(read), kept, hasFavourites, hasAmbitions))
        return HostAnswer::refused(std::string(engine::refusalCodeName(why->code)), why->message, gameId);

    lastAction =
        "The revealed cards of round " + std::to_string(*round) + " are entered: the scores are counted.";
    notice("cards-entered", lastAction,
           json{{"round", *round}, {"decisions", taken}, {"totals", state->totals()}});
    refusal.reset();
    armChance();
    finishIfOver();
    settle();
    return HostAnswer::accepted(gameId, lastAction);
}

std::optional<engine::Refusal> Referee::Impl::replayRound(
    std::size_t dealIndex, const engine::Deal& deal,
    const std::optional<std::vector<engine::AmbitionCard>>& kept, bool favourites, bool ambitions) {
    engine::State s = history[dealIndex].before;
    std::vector<Decision> redone;
    {
        engine::State before = s;
        if (auto why = s.applyDeal(deal)) return why;
        redone.push_back(Decision{Decision::Kind::Deal, false, std::move(before), deal});
    }
    for (std::size_t i = dealIndex + 1; i < history.size(); ++i) {
        Decision d{history[i].kind, history[i].automatic, s, history[i].what};
        if (auto* a = std::get_if<engine::Action>(&d.what);
            a && a->kind() == engine::ActionKind::Keep && kept) {
            d.what = engine::Action::keep(a->player(), (*kept)[a->player().index]);
            d.automatic = false;  // the host entered it
        }
        std::optional<engine::Refusal> why = std::visit(
            [&](const auto& v) -> std::optional<engine::Refusal> {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, engine::Action>) return s.apply(v);
                if constexpr (std::is_same_v<T, engine::Deal>) return s.applyDeal(v);
                if constexpr (std::is_same_v<T, engine::Reshuffle>) return s.applyReshuffle(v);
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
        LogBatch batch(*this);
        for (std::size_t i = dealIndex; i < history.size(); ++i)
            writeLog([&](store::DecisionLog& st, store::GameId g) { return st.appendUndo(g, wallTime()); });
        for (const auto& d : redone) {
            if (const auto* a = std::get_if<engine::Action>(&d.what)) {
                if (d.automatic && a->kind() == engine::ActionKind::Keep)
                    refereeEvent("automatic-keep", json{{"player", a->player().index}});
                writeLog([&](store::DecisionLog& st, store::GameId g) {
                    return st.appendAction(g, *a, wallTime());
                });
            } else if (const auto* dl = std::get_if<engine::Deal>(&d.what)) {
                if (d.automatic) refereeEvent("referee-chance", json{{"kind", "deal"}});
                writeLog([&](store::DecisionLog& st, store::GameId g) {
                    return st.appendDeal(g, *dl, wallTime());
                });
            } else if (const auto* r = std::get_if<engine::Reshuffle>(&d.what)) {
                if (d.automatic) refereeEvent("referee-chance", json{{"kind", "reshuffle"}});
                writeLog([&](store::DecisionLog& st, store::GameId g) {
                    return st.appendReshuffle(g, *r, wallTime());
                });
            }
        }
        refereeEvent("cards-entered",
                     json{{"round", deal.round}, {"favourites", favourites}, {"ambitions", ambitions}});
    }
    state = std::move(s);
    history.erase(history.begin() + static_cast<std::ptrdiff_t>(dealIndex), history.end());
    for (auto& d : redone) history.push_back(std::move(d));
    if (favourites) favouritesEntered.insert(deal.round);
    if (ambitions) ambitionsEntered.insert(deal.round);
    return std::nullopt;
}

}  // namespace vivaref::referee
