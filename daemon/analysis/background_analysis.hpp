// serve's background analysis: the finished games of the log that have no
// analysis yet, newest first, analysed in the gaps of the table's work and
// kept in the log (store::GameStore::saveAnalysis).
//
// The share of a core is bounded by a duty cycle on the loop's clock: work
// goes in slices of at most `slice`, each made of pieces (one step of an
// engine::players::AnalysisJob: a few rollouts or one search, about a
// millisecond on a Pi); once a slice has used `u`, the next may begin only
// `u / share` after this one began. So over any stretch the work takes at
// most `share` of the time, plus one piece. The caller runs one piece at a
// time (serve posts each on the io_context, so whatever became ready for
// the table in between runs first) and says whether the table is quiet: a
// table that is not stops the slice at once.
//
// Only a finished game is ever analysed (the analysis knows every card);
// a game in progress is never looked at.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "daemon/analysis/analysis_report.hpp"
#include "daemon/store/game_store.hpp"
#include "drivers/time/loop_clock.hpp"
#include "engine/players/analysis_job.hpp"

namespace vivaref::analysis {

struct BackgroundAnalysisOptions {
    double share = 0.25;                        // of one core, 0 < share <= 1
    std::chrono::microseconds slice{5000};      // at most this much work in a row
    std::chrono::milliseconds lookEvery{2000};  // how often the log is asked for new finished games
    // `vivaref analyse`'s, but for the search player's iterations: its search
    // is the one piece that cannot be cut (about 10 us an iteration here), so
    // serve's default is kIterations, not 2000.
    static constexpr std::int64_t kIterations = 500;
    engine::players::AnalysisSettings settings{.iterations = kIterations};
    std::uint64_t seed = 1;        // the same game, settings and seed: the same analysis as `vivaref analyse`
    int rolloutsPerPiece = 50;     // about 0.4 ms here for a classic game
    store::WallTime wallAtZero{};  // the wall time of the clock's 0: when an analysis was made
    // A sentence for the daemon's log when an analysis is kept or fails.
    std::function<void(const std::string&)> onNote;
};

struct BackgroundAnalysisCounters {
    std::int64_t pieces = 0;
    std::int64_t slices = 0;
    std::chrono::microseconds work{0};  // the pieces' time, on the clock
    std::int64_t analysed = 0;          // kept in the log
    std::int64_t failed = 0;
};

class BackgroundAnalysis {
public:
    // Both must outlive it.
    BackgroundAnalysis(store::GameStore& log, const drivers::LoopClock& clock,
                       BackgroundAnalysisOptions options);

    // When a piece may run next, on the clock's microseconds: now or later.
    std::chrono::microseconds nextDue() const;
    // Runs one piece when one is due and `tableQuiet`: looks for a finished
    // game to analyse, steps the analysis under way, or keeps a finished
    // one in the log. True when it worked (then it is worth asking again
    // soon). With the table busy it does nothing, and ends the slice.
    bool runPiece(bool tableQuiet);

    // The game under way and the share of it done (0..1).
    struct Progress {
        store::GameId game;
        double done = 0;
    };
    std::optional<Progress> underWay() const;
    // A game whose analysis failed (its record unreadable, the log refusing
    // the row): why, in a sentence; not tried again until serve restarts.
    std::optional<std::string> failure(store::GameId game) const;

    const BackgroundAnalysisCounters& counters() const { return counters_; }
    const BackgroundAnalysisOptions& options() const { return options_; }

private:
    struct Job {
        store::GameId game;
        AnalysedGame analysed;
        std::unique_ptr<engine::players::AnalysisJob> job;
    };
    void work();
    void startNext();
    void keep();
    void fail(store::GameId game, const std::string& why);
    void endSlice();

    store::GameStore& log_;
    const drivers::LoopClock& clock_;
    BackgroundAnalysisOptions options_;
    std::optional<Job> job_;
    std::map<store::GameId, std::string> failed_;
    std::chrono::microseconds nextLook_{0};
    std::optional<std::chrono::microseconds> sliceStart_;
    std::chrono::microseconds sliceUsed_{0};
    std::chrono::microseconds nextSlice_{0};
    BackgroundAnalysisCounters counters_;
};

}  // namespace vivaref::analysis
