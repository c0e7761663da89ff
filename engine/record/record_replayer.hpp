// The one record replayer: a GAME-RECORD's lines read (line_reader.hpp) and
// played through the engine in turn, for every place that walks a record or
// a game log: `vivaref replay`, the log's walk and checks, the games
// archive, table scripts, the referee's resume, the analysis. The setup line
// makes the game; every other line is one engine::Decision for
// State::apply. The first line that reads badly or is refused ends the
// replay with its number and refusal; blank lines are skipped but counted.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/decision.hpp"
#include "engine/event.hpp"
#include "engine/refusal.hpp"
#include "engine/state.hpp"

namespace vivaref::record {

// One line played.
struct ReplayStep {
    int line = 0;                      // 1-based, blank lines counted
    const engine::Decision* decision;  // nullptr for the setup line
    const engine::State& state;        // after the line
    const engine::EventList& events;   // what the decision caused (none for the setup line)
};

// Either hook may be empty. Returning false stops the replay there (not a failure).
struct ReplayObserver {
    // Before a decision is applied, with the state it is applied to.
    std::function<bool(int line, const engine::Decision& decision, const engine::State& before)> before = {};
    // After each line played, the setup line too.
    std::function<bool(const ReplayStep& step)> after = {};
};

struct ReplayFailure {
    int line = 0;
    engine::Refusal refusal;
    // The line's form (GAME-RECORD's strictness) refused it, not the rules.
    bool unreadable = false;
};

class RecordReplayer {
public:
    explicit RecordReplayer(ReplayObserver observer = {});
    // Goes on from a game already set up (a game log whose setup was read apart).
    explicit RecordReplayer(engine::State game, ReplayObserver observer = {});

    // The next line, read and played. False once the replay has ended: a
    // line refused (failure()) or the observer stopped it. Never throws:
    // running out of memory is a failure of the line too; what an
    // observer's hook throws goes to the caller.
    bool next(std::string_view text);
    // Every line of `text` (split at '\n'), until its end or the replay's.
    bool play(std::string_view text);
    // After the last line: a record without a setup line fails one line
    // past its end.
    bool finish();

    // An undo in a game log: the game goes back to an earlier state.
    void restore(engine::State earlier) { game_ = std::move(earlier); }

    int line() const { return line_; }
    const std::optional<engine::State>& state() const { return game_; }
    std::optional<engine::State>& state() { return game_; }
    const std::optional<ReplayFailure>& failure() const { return failure_; }
    bool stopped() const { return stopped_; }
    bool ended() const { return stopped_ || failure_.has_value(); }

private:
    bool fail(engine::Refusal refusal, bool unreadable = false);
    bool setUp(const engine::RulesSpec& spec);
    bool decide(engine::Decision decision);

    ReplayObserver observer_;
    std::optional<engine::State> game_;
    std::optional<ReplayFailure> failure_;
    bool stopped_ = false;
    int line_ = 0;
    engine::EventList events_;
};

// A whole record played, from its text or its lines, with finish().
struct Replay {
    std::optional<engine::State> state;    // after the last line played
    std::optional<ReplayFailure> failure;  // the first line refused, or no setup line
    bool stopped = false;                  // by the observer
};
Replay replayText(std::string_view text, ReplayObserver observer = {});
Replay replayLines(const std::vector<std::string>& lines, ReplayObserver observer = {});

}  // namespace vivaref::record
