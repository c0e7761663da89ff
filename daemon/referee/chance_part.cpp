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
    // Still awaited from the same moment if the log cannot save it (taken,
    // the decision arms what comes next itself).
    const auto awaitedSince = std::exchange(dueSince_, std::nullopt);
    const bool deal = state.phase() == engine::Phase::AwaitDeal;
    if (!ctx_.refereeEvent("referee-chance", json{{"kind", deal ? "deal" : "reshuffle"}})) {
        dueSince_ = awaitedSince;
        return;
    }
    engine::Decision chance = deal ? engine::Decision(engine::randomDeal(state, *rng_))
                                   : engine::Decision(engine::randomReshuffle(state, *rng_));
    const json host =
        deal
            ? json{{"deal", json::parse(record::writeDeal(std::get<engine::Deal>(chance), rules)).at("deal")}}
            : json{
                  {"reshuffle",
                   json::parse(record::writeReshuffle(std::get<engine::Reshuffle>(chance))).at("reshuffle")}};
    const auto verdict = decider.decide(chance, true);
    if (verdict.isTaken())
        ownChance_.push_back({ctx_.now, host});
    else if (verdict.isNotSaved())
        dueSince_ = awaitedSince;
}

}  // namespace vivaref::referee
