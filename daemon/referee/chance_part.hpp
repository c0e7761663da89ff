// Chance: the deals and the Emissary's piles the referee makes itself, from
// its seeded generator, when the host has not made them within the grace
// (REFEREE-NOTES.md, "Chance: who deals"). Not part of the API.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "daemon/referee/referee_context.hpp"
#include "engine/chance.hpp"

namespace vivaref::referee {

class ChancePart {
public:
    explicit ChancePart(Context& ctx) : ctx_(ctx) {}

    // A new game's generator (the log keeps `seed`).
    void startGame(std::uint64_t seed);
    // After a resume: a fresh stream from the stored seed mixed with the
    // number of logged events (the log holds what was dealt before).
    void resumeGame(std::uint64_t seed, std::size_t loggedEvents);

    // A due deal or pile is awaited from now on (`awaited`), or not.
    void arm(bool awaited) { dueSince_ = awaited ? std::optional<Timestamp>(ctx_.now) : std::nullopt; }
    void disarm() { dueSince_.reset(); }
    // When the referee makes its own, if it is awaited.
    std::optional<Timestamp> deadline() const;
    // The referee's own deal or pile, decided; kept for the stored trace.
    void makeOwn(Decider& decider);
    std::vector<OwnChance> takeOwnChance() { return std::exchange(ownChance_, {}); }

private:
    Context& ctx_;
    std::optional<engine::Rng> rng_;
    std::optional<Timestamp> dueSince_;  // a deal or pile awaited since then
    std::vector<OwnChance> ownChance_;   // made, for the stored trace
};

}  // namespace vivaref::referee
