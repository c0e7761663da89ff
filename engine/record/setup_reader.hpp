// The setup line's payload read into an engine::RulesSpec. Only its form is
// checked here; whether the rules allow it is Rules::validate's question.
#pragma once

#include <optional>
#include <variant>

#include <nlohmann/json.hpp>

#include "engine/refusal.hpp"
#include "engine/rules.hpp"

namespace vivaref::record {

// A refusal is bad-setup (or bad-record for a missing key).
std::variant<engine::RulesSpec, engine::Refusal> readSetup(const nlohmann::json& payload);

}  // namespace vivaref::record
