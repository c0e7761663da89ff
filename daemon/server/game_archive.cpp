#include "daemon/server/game_archive.hpp"

#include <memory>

#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"
#include "engine/record/record_replayer.hpp"
#include "engine/record/score_breakdown.hpp"
#include "engine/record/view_json.hpp"
#include "engine/state.hpp"
#include "engine/views.hpp"

namespace vivaref::server {

using nlohmann::json;

namespace {

std::int64_t millis(const store::WallTime& t) { return t.time_since_epoch().count(); }

bool finished(const store::GameSummary& g) { return g.ended.has_value() || g.complete || g.abandoned; }

json summaryJson(const store::GameSummary& g) {
    json out = {{"id", g.id.value}, {"startedAt", millis(g.started)}, {"edition", g.edition}};
    out["endedAt"] = g.ended ? json(millis(*g.ended)) : json(nullptr);
    // The setup line is public (edition, seats, options); a damaged one is shown as missing.
    const json line = json::parse(g.setupLine, nullptr, false);
    out["setup"] = line.is_object() && line.contains("setup") ? line["setup"] : json(nullptr);
    out["players"] = json::array();
    for (const auto& p : g.players)
        out["players"].push_back({{"player", p.player}, {"seat", p.seat}, {"name", p.name}});
    out["status"] = g.abandoned   ? "abandoned"
                    : g.complete  ? "complete"
                    : finished(g) ? "incomplete"
                                  : "in-progress";
    if (finished(g) && g.result) out["result"] = *g.result;
    return out;
}

json parsedOrText(const std::string& text) {
    json value = json::parse(text, nullptr, false);
    return value.is_discarded() ? json(text) : value;
}

// The castle after each record line, for the review page: the lines go
// through the engine, which also moves what the players do not (leftovers,
// election outcomes, the board cleared between rounds). A line the engine
// refuses (a damaged log) ends the timeline with the reason.
// `breakdown`: each round the replay scored, why (score_breakdown.hpp).
json timelineJson(const std::vector<std::string>& lines, std::string& error, json& errorSays,
                  const std::vector<std::string>& names, json& breakdown) {
    json timeline = json::array();
    auto replay = record::replayLines(
        lines, {.after = [&](const record::ReplayStep& step) {
            timeline.push_back(
                {{"line", parsedOrText(lines[static_cast<std::size_t>(step.line - 1)])},
                 {"view", record::publicViewJson(engine::publicView(step.state), step.state.rules())}});
            return true;
        }});
    if (replay.failure) {
        error = "line " + std::to_string(replay.failure->line) + ": " +
                words::inEnglish(replay.failure->refusal.message);
        errorSays = words::messageJson(replay.failure->refusal.message);
    }
    const auto& state = replay.state;
    breakdown = json::array();
    if (state)
        for (const auto& r : state->finishedRounds())
            breakdown.push_back(record::roundBreakdownJson(r, state->rules(), names, words::messageJson));
    return timeline;
}

// "record", "timeline", "score_breakdown" (and "timelineError", with its
// message as "timelineError_says") of a finished game.
void addRecord(json& out, const std::vector<std::string>& lines, const std::vector<std::string>& names) {
    out["record"] = json::array();
    for (const auto& line : lines) out["record"].push_back(parsedOrText(line));
    std::string error;
    json errorSays;
    json breakdown;
    out["timeline"] = timelineJson(lines, error, errorSays, names, breakdown);
    out["score_breakdown"] = std::move(breakdown);
    if (!error.empty()) out["timelineError"] = error;
    if (!errorSays.is_null()) out["timelineError_says"] = std::move(errorSays);
}

}  // namespace

json archiveFromRecord(json summary, const std::string& recordText, const std::vector<std::string>& names) {
    std::vector<std::string> lines;
    std::size_t from = 0;
    while (from < recordText.size()) {
        auto end = recordText.find('\n', from);
        if (end == std::string::npos) end = recordText.size();
        std::string line = recordText.substr(from, end - from);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty()) lines.push_back(std::move(line));
        from = end + 1;
    }
    addRecord(summary, lines, names);
    return summary;
}

json gamesJson(store::GameStore& store) {
    json out = json::array();
    for (const auto& g : store.games()) out.push_back(summaryJson(g));
    return out;
}

namespace {

json gameJsonOf(store::GameStore& store, store::GameId id, const store::GameSummary& game) {
    const auto* summary = &game;
    json out = summaryJson(*summary);
    if (!finished(*summary)) {
        out["withheld"] = "the game is in progress: its events are shown once it is over";
        return out;
    }
    out["events"] = json::array();
    for (const auto& e : store.events(id)) {
        // The table's language the game was played in (the host's last choice).
        if (e.kind == "table-language")
            if (const json l = parsedOrText(e.payload); l.is_object() && l.contains("language"))
                out["language"] = l["language"];
        json event = {{"seq", e.seq}, {"at", millis(e.at)}, {"round", e.round}, {"kind", e.kind}};
        event["seat"] = e.seat ? json(*e.seat) : json(nullptr);
        event["payload"] = parsedOrText(e.payload);
        out["events"].push_back(std::move(event));
    }
    std::vector<std::string> names;
    for (const auto& p : summary->players) {
        if (p.player < 0) continue;
        if (names.size() <= static_cast<std::size_t>(p.player))
            names.resize(static_cast<std::size_t>(p.player) + 1);
        names[p.player] = p.name;
    }
    addRecord(out, store.recordLines(id), names);
    return out;
}

std::string dumped(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

std::optional<json> gameJson(store::GameStore& store, store::GameId id) {
    auto summary = store.game(id);
    if (!summary) return std::nullopt;
    return gameJsonOf(store, id, *summary);
}

std::optional<std::string> gameText(store::GameStore& store, store::GameId id, ArchiveCache& cache) {
    auto summary = store.game(id);
    if (!summary) return std::nullopt;
    // A game in progress shows its summary only: cheap, and it changes as it goes.
    if (!finished(*summary)) return dumped(gameJsonOf(store, id, *summary));
    // Its version: what the row's end would change.
    std::string version = std::to_string(summary->ended ? millis(*summary->ended) : -1) + "/" +
                          (summary->complete ? "c" : "") + (summary->abandoned ? "a" : "") + "/" +
                          (summary->result ? dumped(*summary->result) : "");
    if (auto kept = cache.find(id.value, version)) return *kept;
    return *cache.keep(id.value, std::move(version), dumped(gameJsonOf(store, id, *summary)));
}

}  // namespace vivaref::server
