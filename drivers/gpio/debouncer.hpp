// One key's debouncing, in time given by the caller: a pure state machine
// fed with the line's edges (the kernel's timestamps) and the loop's clock,
// so tests drive it in virtual time.
//
// Decisions:
// - A press is the line going active and then staying active, with no edge
//   at all, for the debounce window. It is reported once, stamped with the
//   time of that last active edge (the start of the stable run).
// - Edges closer together than the window (contact bounce, a glitch) decide
//   nothing; a glitch shorter than the window is never a press.
// - A held key is one press, however long; a new press needs the key to be
//   released first, and a release is likewise the line staying inactive for
//   the window. A release is not an event.
// - The level at start-up counts as settled: a key held while the daemon
//   starts is not a press until released and pressed again.
// - An edge reporting the level the line already had means the kernel lost
//   the edge in between (its queue is short, and it reads the level late):
//   like any edge, it ends the run before it (which counts if it was long
//   enough) and restarts the window. An edge stamped before the previous one
//   counts as at the previous one's time.
#pragma once

#include <chrono>
#include <optional>

#include "drivers/time/timestamp.hpp"

namespace vivaref::drivers {

class Debouncer {
public:
    explicit Debouncer(std::chrono::milliseconds window, bool initiallyActive = false);

    // The line went to `active` at `at`. Returns the press that this edge
    // proves (the run before it was long enough and confirmed a press).
    std::optional<Timestamp> edge(Timestamp at, bool active);

    // The time is now `now` (no edge since the last one): returns the press
    // confirmed by the window having passed.
    std::optional<Timestamp> advance(Timestamp now);

    // When advance() would next decide something; none while settled.
    std::optional<Timestamp> deadline() const;

    bool pressed() const { return settled_; }

private:
    std::optional<Timestamp> settle(Timestamp now);

    std::chrono::milliseconds window_;
    bool settled_;                        // the debounced level
    bool level_;                          // the line's level after the last edge
    Timestamp since_ = Timestamp::min();  // the last edge's time
};

}  // namespace vivaref::drivers
