#include "daemon/server/game_archive.hpp"

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

}  // namespace

json gamesJson(store::GameStore& store) {
    json out = json::array();
    for (const auto& g : store.games()) out.push_back(summaryJson(g));
    return out;
}

std::optional<json> gameJson(store::GameStore& store, store::GameId id) {
    auto summary = store.game(id);
    if (!summary) return std::nullopt;
    json out = summaryJson(*summary);
    if (!finished(*summary)) {
        out["withheld"] = "the game is in progress: its events are shown once it is over";
        return out;
    }
    out["events"] = json::array();
    for (const auto& e : store.events(id)) {
        json event = {{"seq", e.seq}, {"at", millis(e.at)}, {"round", e.round}, {"kind", e.kind}};
        event["seat"] = e.seat ? json(*e.seat) : json(nullptr);
        event["payload"] = parsedOrText(e.payload);
        out["events"].push_back(std::move(event));
    }
    out["record"] = json::array();
    for (const auto& line : store.recordLines(id)) out["record"].push_back(parsedOrText(line));
    return out;
}

}  // namespace vivaref::server
