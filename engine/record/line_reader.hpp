// One GAME-RECORD line read into the engine value it stands for: a setup
// (RulesSpec), a deal, a player action, or the Emissary's reshuffled pile.
#pragma once

#include <optional>
#include <string_view>
#include <variant>

#include "engine/action.hpp"
#include "engine/refusal.hpp"
#include "engine/rules.hpp"

namespace vivaref::record {

using RecordLine = std::variant<engine::RulesSpec, engine::Deal, engine::Action, engine::Reshuffle>;

struct LineRead {
    std::optional<RecordLine> line;
    std::optional<engine::Refusal> refusal;  // set when `line` is not
};

// True for a line the record skips (empty or only JSON whitespace).
bool isBlankLine(std::string_view text);

// Reads one non-blank line. `rules` are the game's once its setup line has
// been read (nullptr before): deals and actions need its roster and options,
// so before it only a setup line reads. Checks form only (GAME-RECORD's
// strictness); legality is the engine's. Never throws but std::bad_alloc.
LineRead readLine(std::string_view text, const engine::Rules* rules);

}  // namespace vivaref::record
