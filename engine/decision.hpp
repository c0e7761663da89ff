// A decision: what a player decides (an Action) or what chance decides (a
// round's Deal, the Emissary's Reshuffle). State::apply takes any of them in
// one call, and State::awaits says which kind it waits for; records, logs,
// random play and the players all go through that one entry point.
#pragma once

#include <cstdint>
#include <string_view>
#include <variant>

#include "engine/action.hpp"

namespace vivaref::engine {

using Decision = std::variant<Action, Deal, Reshuffle>;

// In the order of Decision's alternatives: kindOf(d) == d.index().
enum class DecisionKind : std::uint8_t { Action, Deal, Reshuffle };

inline DecisionKind kindOf(const Decision& d) { return static_cast<DecisionKind>(d.index()); }

inline std::string_view decisionKindName(DecisionKind k) {
    switch (k) {
        case DecisionKind::Action:
            return "action";
        case DecisionKind::Deal:
            return "deal";
        case DecisionKind::Reshuffle:
            return "reshuffle";
    }
    return "action";
}

}  // namespace vivaref::engine
