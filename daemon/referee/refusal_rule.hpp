// The rule a refusal applies, as a rule id: the anchor of its explanation
// on the rules page (web-ui/rules.html#ID; the ids are listed in
// web-ui/API.md, "Refusals and their rules"). Pure.
#pragma once

#include <string>
#include <string_view>

#include "engine/message.hpp"

namespace vivaref::referee {

// `code`: the refusal's code (the engine's, or the referee's own:
// several-moved, character-gone, not-in-game, bot-move); `message`: the
// engine's message, whose code says more than the refusal's code (a full
// floor and a full WC share one). Every refusal has a rule: "move" when
// nothing more precise fits.
std::string refusalRule(std::string_view code, const engine::Message& message);

}  // namespace vivaref::referee
