// Physical cards: what is face up and must be entered, the placeholder keeps,
// and a `reveal` request read into the round's real deal.
#include "daemon/referee/physical_cards_part.hpp"

#include "engine/record/deal_reader.hpp"
#include "engine/record/line_writer.hpp"

namespace vivaref::referee {

using engine::Phase;
using nlohmann::json;

namespace {

HostAnswer badReveal(const engine::Message& why, std::optional<store::GameId> game) {
    return HostAnswer::refused("bad-reveal", why, game);
}

HostAnswer badReveal(const char* code, std::optional<store::GameId> game) {
    return badReveal(engine::Message(code), game);
}

// The number of coronations that end a round with every card scored.
std::size_t fullCoronations(const engine::Rules& rules) {
    return rules.variant() == engine::Variant::RoyalCouple ? 2 : 1;
}

// What a reveal's body lacks or has too much of for round `round`, with
// `need` the cards still wanted.
std::optional<HostAnswer> revealFormProblem(const json& body, int round,
                                            const std::optional<RevealNeed>& need, const engine::Rules& rules,
                                            std::optional<store::GameId> gameId) {
    for (const auto& [key, value] : body.items())
        if (key != "round" && key != "favourites" && key != "banished" && key != "ambitions")
            return badReveal(engine::Message("reveal.unknown-key", {{"key", engine::say::text(key)}}),
                             gameId);
    const auto roundIt = body.find("round");
    if (roundIt == body.end() || !roundIt->is_number_integer()) return badReveal("reveal.no-round", gameId);
    if (roundIt->get<std::int64_t>() != round)
        return HostAnswer::refused(
            "wrong-round",
            engine::Message("host.reveal-wrong-round", {{"round", engine::say::number(round)}}), gameId);
    const bool hasFavourites = body.contains("favourites");
    const bool hasAmbitions = body.contains("ambitions");
    if (need && need->favourites && !hasFavourites) return badReveal("reveal.favourites-needed", gameId);
    if (need && need->ambitions && !hasAmbitions) return badReveal("reveal.ambitions-needed", gameId);
    if (!hasFavourites && !hasAmbitions) return badReveal("reveal.nothing", gameId);
    if (body.contains("banished") && !hasFavourites)
        return badReveal("reveal.seals-without-favourites", gameId);
    if (hasFavourites && rules.options().banished && !body.contains("banished"))
        return badReveal("reveal.seals-needed", gameId);
    if (hasAmbitions && !rules.options().ambition) return badReveal("reveal.no-ambitions", gameId);
    return std::nullopt;
}

// The Ambition card each player kept, and the record's pairs for them: the
// card each player returned unseen is unknown, and the record needs a pair,
// so each kept card is paired with one nobody kept. Nothing (and `why`)
// when the list is not one card a player.
std::optional<std::vector<engine::AmbitionCard>> keptAmbitions(const json& list, const engine::Rules& rules,
                                                               json& pairs, engine::Message& why) {
    if (!list.is_array() || static_cast<int>(list.size()) != rules.players()) {
        why = engine::Message("reveal.ambitions-count", {{"players", engine::say::number(rules.players())}});
        return std::nullopt;
    }
    std::vector<engine::AmbitionCard> kept;
    for (const auto& slug : list) {
        const auto card = slug.is_string() ? engine::parseAmbitionCard(slug.get<std::string>())
                                           : engine::AmbitionCard::Unknown;
        if (card == engine::AmbitionCard::Unknown) {
            why = engine::Message("reveal.not-ambition", {{"given", engine::say::text(slug.dump())}});
            return std::nullopt;
        }
        kept.push_back(card);
    }
    std::vector<bool> used(engine::kAmbitionCardCount, false);
    for (auto card : kept) used[static_cast<std::size_t>(card)] = true;
    pairs = json::array();
    int next = 0;
    for (auto card : kept) {
        while (next < engine::kAmbitionCardCount && used[static_cast<std::size_t>(next)]) ++next;
        if (next == engine::kAmbitionCardCount) {
            why = engine::Message("reveal.ambitions-left");
            return std::nullopt;
        }
        used[static_cast<std::size_t>(next)] = true;
        pairs.push_back(json{engine::ambitionCardName(card),
                             engine::ambitionCardName(static_cast<engine::AmbitionCard>(next))});
    }
    return kept;
}

}  // namespace

void PhysicalCardsPart::startGame(FavouritesMode mode) {
    mode_ = mode;
    favouritesEntered_.clear();
    ambitionsEntered_.clear();
}

void PhysicalCardsPart::resumeGame(FavouritesMode mode, std::set<int> favouritesEntered,
                                   std::set<int> ambitionsEntered) {
    mode_ = mode;
    favouritesEntered_ = std::move(favouritesEntered);
    ambitionsEntered_ = std::move(ambitionsEntered);
}

void PhysicalCardsPart::forgetRound(int round) {
    favouritesEntered_.erase(round);
    ambitionsEntered_.erase(round);
}

void PhysicalCardsPart::entered(int round, bool favourites, bool ambitions) {
    if (favourites) favouritesEntered_.insert(round);
    if (ambitions) ambitionsEntered_.insert(round);
}

std::optional<int> PhysicalCardsPart::revealRound() const {
    const auto& state = ctx_.game.state;
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

std::optional<int> PhysicalCardsPart::correctableRound() const {
    if (auto round = revealRound()) return round;
    // Entered cards stay correctable through the next round, until its own
    // coronation turns new cards face up.
    const auto& state = ctx_.game.state;
    if (!physical() || !state || state->finishedRounds().empty()) return std::nullopt;
    const int last = state->finishedRounds().back().round;
    if (!favouritesEntered_.contains(last)) return std::nullopt;
    return last;
}

std::optional<RevealNeed> PhysicalCardsPart::revealNeeded() const {
    const auto round = correctableRound();
    if (!round) return std::nullopt;
    const auto& state = ctx_.game.state;
    RevealNeed need{*round};
    need.favourites = !favouritesEntered_.contains(*round);
    const auto& rules = state->rules();
    const auto phase = state->phase();
    const bool roundScored = (phase == Phase::AwaitDeal || phase == Phase::GameOver) &&
                             state->finishedRounds().back().kings.size() == fullCoronations(rules);
    // Ambition cards score only at the coronation that ends the round.
    need.ambitions = rules.options().ambition && roundScored && !ambitionsEntered_.contains(*round);
    if (!need.favourites && !need.ambitions) return std::nullopt;
    return need;
}

bool PhysicalCardsPart::autoKeep(Decider& decider) {
    const auto& state = ctx_.game.state;
    if (!physical() || !ctx_.game.playing() || state->phase() != Phase::KeepAmbition) return false;
    // Each keep on disk before the next (no decision is taken inside a batch).
    bool kept = false;
    for (int p = 0; p < state->rules().players(); ++p) {
        const engine::PlayerId player{static_cast<std::uint8_t>(p)};
        if (state->keptAmbition(player) != engine::AmbitionCard::Unknown) continue;
        // A placeholder: the player's real card is entered at the coronation.
        if (!ctx_.refereeEvent("automatic-keep", json{{"player", p}})) break;
        if (!decider.decide(engine::Action::keep(player, state->ambitionChoices(player)[0]), true).isTaken())
            break;
        kept = true;
    }
    return kept;
}

std::variant<CardsEntered, HostAnswer> PhysicalCardsPart::read(const RevealRequest& r,
                                                               const std::vector<Decision>& timeline) const {
    const auto& gameId = ctx_.game.id;
    if (!physical())
        return HostAnswer::refused("not-physical", engine::Message("host.reveal-not-physical"), gameId);
    const auto round = correctableRound();
    if (!round)
        return HostAnswer::refused("nothing-to-reveal", engine::Message("host.reveal-nothing-face-up"),
                                   gameId);
    const auto& rules = ctx_.game.state->rules();
    const json& body = r.reveal;
    if (auto refused = revealFormProblem(body, *round, revealNeeded(), rules, gameId)) return *refused;
    const bool hasFavourites = body.contains("favourites");
    const bool hasAmbitions = body.contains("ambitions");

    // The round's deal in effect, with the entered cards in place of its own
    // (a correction may come once the next round is dealt: the replay then
    // goes through that round too).
    std::size_t dealIndex = timeline.size();
    while (dealIndex > 0 && !(std::holds_alternative<engine::Deal>(timeline[dealIndex - 1].what) &&
                              std::get<engine::Deal>(timeline[dealIndex - 1].what).round == *round))
        --dealIndex;
    if (dealIndex == 0)
        return HostAnswer::refused(
            "bad-log", engine::Message("reveal.deal-unknown", {{"round", engine::say::number(*round)}}),
            gameId);
    --dealIndex;
    json dealJson =
        json::parse(record::writeDeal(std::get<engine::Deal>(timeline[dealIndex].what), rules)).at("deal");
    if (hasFavourites) {
        dealJson["favourites"] = body["favourites"];
        if (body.contains("banished"))
            dealJson["banished"] = body["banished"];
        else
            dealJson.erase("banished");
    }
    std::optional<std::vector<engine::AmbitionCard>> kept;
    if (hasAmbitions) {
        engine::Message why;
        json pairs;
        kept = keptAmbitions(body["ambitions"], rules, pairs, why);
        if (!kept) return badReveal(why, gameId);
        dealJson["ambitions"] = std::move(pairs);
    }
    auto read = record::readDeal(dealJson, rules);
    if (auto* why = std::get_if<engine::Refusal>(&read))
        return HostAnswer::refused(std::string(engine::refusalCodeName(why->code)), why->message, gameId);
    return CardsEntered{*round,          dealIndex,     std::get<engine::Deal>(read),
                        std::move(kept), hasFavourites, hasAmbitions};
}

}  // namespace vivaref::referee
