// The random player: a uniformly random legal action of its seat. The
// yardstick at the bottom, and the search player's rollouts (which use the
// engine's faster randomAction over every seat).
#pragma once

#include "engine/players/player.hpp"

namespace vivaref::engine::players {

class RandomPlayer : public Player {
public:
    Action choose(const State& state, Seat seat, Rng& rng) override;
    std::string name() const override { return "random"; }
};

}  // namespace vivaref::engine::players
