#include "daemon/analysis/background_analysis.hpp"

#include <algorithm>
#include <cmath>

namespace vivaref::analysis {

using std::chrono::microseconds;

BackgroundAnalysis::BackgroundAnalysis(store::GameStore& log, const drivers::LoopClock& clock,
                                       BackgroundAnalysisOptions options)
    : log_(log), clock_(clock), options_(std::move(options)) {
    options_.share = std::clamp(options_.share, 0.001, 1.0);
    options_.slice = std::max(options_.slice, microseconds(1));
}

microseconds BackgroundAnalysis::nextDue() const {
    const microseconds now = clock_.nowMicros();
    if (sliceStart_) return now;
    return std::max({now, nextSlice_, job_ ? microseconds(0) : microseconds(nextLook_)});
}

bool BackgroundAnalysis::runPiece(bool tableQuiet) {
    const microseconds now = clock_.nowMicros();
    if (!tableQuiet) {
        if (sliceStart_) endSlice();
        return false;
    }
    if (!sliceStart_ && now < nextSlice_) return false;
    if (!job_) {
        if (now < nextLook_) return false;
        nextLook_ = now + options_.lookEvery;
    }
    if (!sliceStart_) {
        sliceStart_ = now;
        sliceUsed_ = microseconds(0);
        ++counters_.slices;
    }
    try {
        work();
    } catch (const std::exception& e) {
        // The log failing to read (a damaged file): the game under way is
        // given up; the table goes on, and the log says why once.
        if (job_)
            fail(job_->game, e.what());
        else if (options_.onNote)
            options_.onNote(std::string("background analysis: the game log cannot be read: ") + e.what());
    }
    const microseconds used = clock_.nowMicros() - now;
    sliceUsed_ += used;
    counters_.work += used;
    ++counters_.pieces;
    if (sliceUsed_ >= options_.slice || !job_) endSlice();
    return true;
}

void BackgroundAnalysis::endSlice() {
    // The next slice only once this one's work is `share` of the time since it began.
    const auto spacing = microseconds(std::llround(static_cast<double>(sliceUsed_.count()) / options_.share));
    nextSlice_ = *sliceStart_ + spacing;
    sliceStart_.reset();
}

void BackgroundAnalysis::work() {
    if (!job_) return startNext();
    if (job_->job->done()) return keep();
    job_->job->step();
}

void BackgroundAnalysis::startNext() {
    for (const auto id : log_.analyses().awaiting()) {
        if (failed_.contains(id)) continue;
        const auto summary = log_.game(id);
        // The log's query asks for finished games only; asked again, as the
        // one rule that must never break: nothing of a game in progress.
        if (!summary || !isFinished(*summary)) continue;
        std::string why;
        auto game = readLoggedGame(log_, *summary, why);
        if (!game) {
            fail(id, "its record cannot be read (" + why + ")");
            continue;
        }
        const engine::State initial(game->rules);
        auto job = std::make_unique<engine::players::AnalysisJob>(initial, game->decisions, options_.settings,
                                                                  engine::Rng(options_.seed),
                                                                  options_.rolloutsPerPiece);
        job_ = Job{id, std::move(*game), std::move(job)};
        return;
    }
}

void BackgroundAnalysis::keep() {
    const store::GameId id = job_->game;
    const auto& result = job_->job->result();
    const std::string what = "game " + std::to_string(id.value);
    const auto text = analysisJson(job_->analysed, result, options_.settings, options_.seed, what)
                          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const auto settings = settingsJson(options_.settings, options_.seed).dump();
    const auto status = log_.analyses().save(id, settings, text, options_.wallAtZero + clock_.now());
    if (!status.durable) return fail(id, status.problem);
    ++counters_.analysed;
    if (options_.onNote)
        options_.onNote("background analysis: " + what + " analysed (" +
                        std::to_string(result.decisions.size()) + " decisions) and kept in the game log");
    job_.reset();
    nextLook_ = microseconds(0);  // the next waiting game at once
}

void BackgroundAnalysis::fail(store::GameId game, const std::string& why) {
    ++counters_.failed;
    failed_[game] = why;
    if (job_ && job_->game == game) job_.reset();
    if (options_.onNote)
        options_.onNote("background analysis: game " + std::to_string(game.value) +
                        " was not analysed: " + why);
}

std::optional<BackgroundAnalysis::Progress> BackgroundAnalysis::underWay() const {
    if (!job_) return std::nullopt;
    return Progress{job_->game, job_->job->progress()};
}

std::optional<std::string> BackgroundAnalysis::failure(store::GameId game) const {
    const auto it = failed_.find(game);
    if (it == failed_.end()) return std::nullopt;
    return it->second;
}

}  // namespace vivaref::analysis
