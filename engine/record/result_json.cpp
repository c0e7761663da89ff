#include "engine/record/result_json.hpp"

#include <algorithm>
#include <array>

namespace vivaref::record {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

json indices(const std::vector<engine::Seat>& seats) {
    json out = json::array();
    for (auto s : seats) out.push_back(s.index);
    return out;
}

json indices(const std::vector<engine::PlayerId>& players) {
    json out = json::array();
    for (auto p : players) out.push_back(p.index);
    return out;
}

json roundJson(const engine::RoundResult& r, const engine::Roster& roster) {
    json kings = json::array();
    for (auto c : r.kings) kings.push_back(c.index < roster.size() ? roster[c].id : std::string());
    return json{
        {"round", r.round}, {"kings", std::move(kings)}, {"crown", r.crown.index}, {"scores", r.scores}};
}

// GAME-RECORD's key order: the result object's, then a round's.
constexpr std::array<std::string_view, 14> kKeyOrder = {
    "ok",      "line",     "error",  "message", "rounds", "totals", "emissary_total",
    "winners", "complete", "to_act", "round",   "kings",  "crown",  "scores"};

int rank(const std::string& key) {
    auto it = std::find(kKeyOrder.begin(), kKeyOrder.end(), key);
    return static_cast<int>(it - kKeyOrder.begin());
}

ordered_json ordered(const json& v) {
    if (v.is_array()) {
        ordered_json out = ordered_json::array();
        for (const auto& item : v) out.push_back(ordered(item));
        return out;
    }
    if (!v.is_object()) return ordered_json(v);
    std::vector<std::string> keys;
    for (auto it = v.begin(); it != v.end(); ++it) keys.push_back(it.key());
    // json keeps keys sorted, so a stable sort by rank leaves the unknown
    // ones sorted among themselves.
    std::stable_sort(keys.begin(), keys.end(),
                     [](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    ordered_json out = ordered_json::object();
    for (const auto& k : keys) out[k] = ordered(v.at(k));
    return out;
}

}  // namespace

json resultJson(const engine::State& state) {
    const auto& rules = state.rules();
    json rounds = json::array();
    for (const auto& r : state.finishedRounds()) rounds.push_back(roundJson(r, rules.roster()));
    json out{{"ok", true}, {"rounds", std::move(rounds)}, {"totals", state.totals()}};
    if (rules.hasEmissary()) out["emissary_total"] = state.emissaryTotal();
    out["winners"] = state.isOver() ? indices(state.winners()) : json::array();
    out["complete"] = state.isOver();
    if (!state.isOver()) out["to_act"] = indices(state.toAct());
    return out;
}

json failureJson(int line, const engine::Refusal& refusal, const engine::MessageText& words) {
    return json{{"ok", false},
                {"line", line},
                {"error", engine::refusalCodeName(refusal.code)},
                {"message", words(refusal.message)}};
}

std::string resultText(const json& result) {
    return ordered(result).dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

}  // namespace vivaref::record
