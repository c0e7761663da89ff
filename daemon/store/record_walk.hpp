// A logged game's record played through the engine one line at a time, with
// the events each line caused: what `show` narrates, `stats` counts and
// `verify` checks. The engine is the judge of what happened; the log only
// holds the decisions.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/event.hpp"
#include "engine/record/line_reader.hpp"
#include "engine/refusal.hpp"
#include "engine/state.hpp"

namespace vivaref::store {

struct WalkStep {
    int line = 0;  // 1-based
    const record::RecordLine& decision;
    const engine::State& state;  // after the line
    const engine::EventList& events;
};

struct WalkFailure {
    int line = 0;
    engine::Refusal refusal;
};

struct Walk {
    std::optional<engine::State> state;  // after the last line read
    std::optional<WalkFailure> failure;  // the first line that was refused
};

// Plays `lines` (a setup line first); `onStep` sees each line after it was
// applied (the setup line too, with no events).
Walk walkRecord(const std::vector<std::string>& lines,
                const std::function<void(const WalkStep&)>& onStep = {});

}  // namespace vivaref::store
