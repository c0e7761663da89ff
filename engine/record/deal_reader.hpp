// The deal line's payload read into an engine::Deal for a game's rules.
// Form only: unknown character slugs become invalid ids and unknown cards
// Unknown, so that State::apply reports them in GAME-RECORD's order.
#pragma once

#include <variant>

#include <nlohmann/json.hpp>

#include "engine/action.hpp"
#include "engine/refusal.hpp"
#include "engine/rules.hpp"

namespace vivaref::record {

// A refusal is bad-deal (or bad-record for a missing key).
std::variant<engine::Deal, engine::Refusal> readDeal(const nlohmann::json& payload,
                                                     const engine::Rules& rules);

}  // namespace vivaref::record
