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

    std::uint64_t next() {
        // xoshiro256** (Blackman and Vigna, 2018).
        const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const std::uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }

    // Uniform in [0, bound), bound > 0, without modulo bias (Lemire's
    // multiply-and-reject: it rarely divides). One loop with one next():
    // small enough that GCC inlines it where a separate redraw was not.
    // Forced inline: random play calls it about 100 times a game from
    // randomAction, where GCC 12 kept it a call (38 instructions each).
    [[gnu::always_inline]] std::uint32_t below(std::uint32_t bound) {
        for (;;) {
            const std::uint64_t m = (next() >> 32) * bound;
            const auto low = static_cast<std::uint32_t>(m);
            // The threshold is below `bound`, so it is worked out only when low is too.
            if (low >= bound || low >= (0u - bound) % bound) return static_cast<std::uint32_t>(m >> 32);
        }
    }

    friend bool operator==(const Rng&, const Rng&) = default;

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t s_[4];
};

// A deal for the state's next round: favourites (6 distinct, never the
// Jester, no two cards the same set), and as the rules call for them the
// seals, Ambition pairs, the Emissary's card and pile, the online placement.
Deal randomDeal(const State& state, Rng& rng);
// Random play's deal: randomDeal's, started at once without checking it
// again (the state awaits a deal). The same as state.apply(randomDeal(...)).
void playRandomDeal(State& state, Rng& rng);
// The Emissary's current pile shuffled (the state awaits a reshuffle).
Reshuffle randomReshuffle(const State& state, Rng& rng);
// A uniformly random legal action; the state must not await chance.
Action randomAction(const State& state, Rng& rng);
// Random play's hot path: randomAction's draw, applied at once without a
// second legality test and without events. The same draws and the same
// state after as state.apply(randomAction(state, rng)) (the engine's tests
// hold the two equal step by step); returns the action it applied.
Action playRandomAction(State& state, Rng& rng);

// A state `viewer` cannot tell from `truth`: every secret the seat has not
// seen redrawn at random, consistent with what it has (RULES §7): the
// other players' Favourites cards (6 distinct, never the Jester, no two the
// same set, theirs never the viewer's; a new seal with Banished) unless the
// round revealed them; their Ambition pairs from the 14 cards the viewer
// was not dealt, a kept card among them for those who kept; the unrevealed
// votes of the others from the hands they hold; the Emissary's pile in a new
// order. What is public or follows from it stays: positions, scores, the
// hands (every No and Stomachache played was revealed), the Emissary's
// card. A search player sees only this (engine/players/).
State sampleWorld(const State& truth, Seat viewer, Rng& rng);

}  // namespace vivaref::engine
