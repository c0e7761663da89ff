// What each audience may see (engine/views.hpp) as JSON, in the record's
// spellings: character slugs, place names, seat and player indices. The
// views already hold only what their audience may know; this adds nothing.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/rules.hpp"
#include "engine/views.hpp"

namespace vivaref::record {

nlohmann::json publicViewJson(const engine::PublicView& view, const engine::Rules& rules);
nlohmann::json playerViewJson(const engine::PlayerView& view, const engine::Rules& rules);

}  // namespace vivaref::record
