// Chance: the referee's own deals and piles after the grace.
#include "daemon/referee/chance_part.hpp"

#include "engine/record/line_writer.hpp"

namespace vivaref::referee {

using nlohmann::json;

void ChancePart::startGame(std::uint64_t seed) { rng_.emplace(seed); }

void ChancePart::resumeGame(std::uint64_t seed, std::size_t loggedEvents) {
    rng_.emplace(seed + 0x9E3779B97F4A7C15ull * (loggedEvents + 1));
}

std::optional<Timestamp> ChancePart::deadline() const {
    const auto& game = ctx_.game;
    if (!game.playing() || !game.state || !game.state->awaitsChance() || !dueSince_) return std::nullopt;
    return *dueSince_ + ctx_.options.chanceGrace;
}

void ChancePart::makeOwn(Decider& decider) {
    const auto& state = *ctx_.game.state;
    const auto& rules = state.rules();
    if (state.phase() == engine::Phase::AwaitDeal) {
        auto deal = engine::randomDeal(state, *rng_);
        json host{{"deal", json::parse(record::writeDeal(deal, rules)).at("deal")}};
        ctx_.refereeEvent("referee-chance", json{{"kind", "deal"}});
        if (!decider.decide(deal, true)) ownChance_.push_back({ctx_.now, std::move(host)});
    } else {
        auto pile = engine::randomReshuffle(state, *rng_);
        json host{{"reshuffle", json::parse(record::writeReshuffle(pile)).at("reshuffle")}};
        ctx_.refereeEvent("referee-chance", json{{"kind", "reshuffle"}});
        if (!decider.decide(pile, true)) ownChance_.push_back({ctx_.now, std::move(host)});
    }
}

}  // namespace vivaref::referee
