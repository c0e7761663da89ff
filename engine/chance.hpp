// Chance, made explicit and portable: our own generator (xoshiro256**,
// seeded by splitmix64) and our own uniform draws, so a seed gives the same
// deal on every standard library and machine. std:: distributions do not.
#pragma once

#include <cstdint>

#include "engine/action.hpp"
#include "engine/state.hpp"

namespace vivaref::engine {

class Rng {
public:
    explicit Rng(std::uint64_t seed);
    std::uint64_t next();
    // Uniform in [0, bound), bound > 0, without modulo bias.
    std::uint32_t below(std::uint32_t bound);
    friend bool operator==(const Rng&, const Rng&) = default;

private:
    std::uint64_t s_[4];
};

// A deal for the state's next round: favourites (6 distinct, never the
// Jester, no two cards the same set), and as the rules call for them the
// seals, Ambition pairs, the Emissary's card and pile, the online placement.
Deal randomDeal(const State& state, Rng& rng);
// The Emissary's current pile shuffled (the state awaits a reshuffle).
Reshuffle randomReshuffle(const State& state, Rng& rng);
// A uniformly random legal action; the state must not await chance.
Action randomAction(const State& state, Rng& rng);

}  // namespace vivaref::engine
