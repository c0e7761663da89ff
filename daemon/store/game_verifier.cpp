#include "daemon/store/game_verifier.hpp"

#include <variant>

#include "daemon/words/words.hpp"
#include "engine/record/record_replayer.hpp"
#include "engine/record/replay.hpp"
#include "engine/record/result_json.hpp"

namespace vivaref::store {

namespace {

std::string seatText(const std::optional<int>& seat) { return seat ? std::to_string(*seat) : "none"; }

// The round and seat columns the engine would log for `decision` taken in
// `state` (before it is applied).
std::pair<int, std::optional<int>> expectedColumns(const engine::Decision& decision,
                                                   const engine::State& state) {
    if (const auto* deal = std::get_if<engine::Deal>(&decision)) return {deal->round, std::nullopt};
    if (const auto* action = std::get_if<engine::Action>(&decision)) {
        if (action->kind() == engine::ActionKind::Keep)
            return {state.round(), state.rules().seatOf(action->player()).index};
        return {state.round(), action->seat().index};
    }
    return {state.round(), std::nullopt};  // a reshuffle
}

// Each logged decision's round and seat columns against the engine's, undos
// applied as the log applies them. A decision the engine refuses stops the
// walk quietly: the replay check names it.
std::optional<std::string> checkEventColumns(GameStore& log, GameId id) {
    std::optional<std::string> wrong;
    const StoredEvent* event = nullptr;
    std::vector<engine::State> before;  // the state before each decision still in effect
    record::RecordReplayer replayer(
        {.before = [&](int, const engine::Decision& decision, const engine::State& state) {
            const auto [round, seat] = expectedColumns(decision, state);
            if (event->round != round || event->seat != seat) {
                wrong = "event " + std::to_string(event->seq) + " (" + event->kind + ") is logged in round " +
                        std::to_string(event->round) + " for seat " + seatText(event->seat) +
                        ", the engine says round " + std::to_string(round) + " for seat " + seatText(seat);
                return false;
            }
            before.push_back(state);
            return true;
        }});
    const auto events = log.events(id);
    for (const auto& e : events) {
        if (e.kind == "undo") {
            if (!before.empty()) {
                replayer.restore(std::move(before.back()));
                before.pop_back();
            }
            continue;
        }
        if (e.kind != "setup" && !isDecisionKind(e.kind)) continue;
        event = &e;
        if (!replayer.next(e.payload)) return wrong;
    }
    return std::nullopt;
}

}  // namespace

GameCheck verifyGame(GameStore& log, GameId id) {
    auto summary = log.game(id);
    if (!summary)
        throw StoreError(log.file(),
                         "holds no game " + std::to_string(id.value) + "; 'vivaref games' lists them");
    const auto lines = log.recordLines(id);
    const auto result = record::replayRecord(log.exportRecord(id), words::inEnglish);
    const auto replayed = record::resultText(result);
    if (!result.value("ok", false))
        return {false, "decision " + std::to_string(result.value("line", 0)) +
                           " of its record is refused: " + result.value("error", std::string()) + " (" +
                           result.value("message", std::string()) + ")"};
    if (auto wrong = checkEventColumns(log, id)) return {false, *wrong};
    const std::string decisions = std::to_string(lines.size()) + " decisions";
    if (summary->result) {
        const auto logged = record::resultText(*summary->result);
        if (logged != replayed) return {false, "logged result " + logged + ", replay gives " + replayed};
        return {true, decisions + " replay to the logged result"};
    }
    if (summary->abandoned) return {true, decisions + " legal; abandoned, no result logged"};
    if (result.value("complete", false))
        return {true, decisions + " legal; the game is over but its end was not logged"};
    return {true, decisions + " legal; in progress"};
}

}  // namespace vivaref::store
