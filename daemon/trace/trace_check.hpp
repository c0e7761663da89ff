// Whether a trace line can act on a board: the reader a `scan` or
// `reader-fault` line names and the place a `put` names must be the
// layout's. `vivaref simulate` checks every line of a trace before the first
// acts, the simulation rig each line it consumes, and the simulated castle's
// web routes a put on no place, all with the same sentences.
#pragma once

#include <optional>
#include <string>

#include "daemon/trace/trace_line.hpp"
#include "drivers/sensing/board_layout.hpp"

namespace vivaref::trace {

// A sentence when `line` names a reader or a place `layout` does not have
// ("the board has no place \"attic\" (0, 1, 2, ...)"); nullopt when it can act.
std::optional<std::string> lineProblem(const drivers::BoardLayout& layout, const TraceLine& line);

}  // namespace vivaref::trace
