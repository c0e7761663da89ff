// What a valid castle configuration amounts to, in one paragraph for people
// and as JSON for machines (`vivaref check-config`). Never the host token.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "daemon/config/castle_config.hpp"

namespace vivaref::config {

std::string summaryText(const CastleConfig& config);
nlohmann::ordered_json summaryJson(const CastleConfig& config);

}  // namespace vivaref::config
