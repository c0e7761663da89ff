#include "engine/refusal.hpp"

#include <array>

namespace vivaref::engine {

std::string_view refusalCodeName(RefusalCode code) {
    static constexpr std::array<std::string_view, 23> kNames = {
        "bad-record",        "bad-setup",      "bad-deal",
        "bad-pile",          "wrong-phase",    "not-your-turn",
        "unknown-seat",      "unknown-player", "unknown-character",
        "unknown-place",     "unknown-card",   "already-placed",
        "floor-not-allowed", "floor-full",     "floor-not-full",
        "wc-occupied",       "not-adjacent",   "character-not-in-castle",
        "cannot-move",       "card-not-held",  "already-voted",
        "already-kept",      "must-move"};
    auto i = static_cast<std::size_t>(code);
    return i < kNames.size() ? kNames[i] : std::string_view{"bad-record"};
}

}  // namespace vivaref::engine
