// How the game log keeps a time: milliseconds since the epoch in an INTEGER
// column (games.started_ms, the outbox's and the analyses' times).
#pragma once

#include <chrono>
#include <cstdint>

#include "daemon/store/decision_log.hpp"

namespace vivaref::store {

inline std::int64_t toMs(WallTime t) { return t.time_since_epoch().count(); }
inline WallTime fromMs(std::int64_t ms) { return WallTime(std::chrono::milliseconds(ms)); }

}  // namespace vivaref::store
