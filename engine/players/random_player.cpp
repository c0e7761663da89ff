#include "engine/players/random_player.hpp"

namespace vivaref::engine::players {

Action RandomPlayer::choose(const State& state, Seat seat, Rng& rng) {
    ActionList legal;
    legalActionsOf(state, seat, legal);
    return legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
}

}  // namespace vivaref::engine::players
