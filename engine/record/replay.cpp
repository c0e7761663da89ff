#include "engine/record/replay.hpp"

#include <memory>
#include <new>
#include <optional>

#include "engine/record/line_reader.hpp"
#include "engine/record/result_json.hpp"
#include "engine/state.hpp"

namespace vivaref::record {

using engine::Refusal;
using engine::RefusalCode;
using nlohmann::json;

namespace {

// Applies one read line to the game, creating it on the setup line.
std::optional<Refusal> applyLine(RecordLine& line, std::optional<engine::State>& game) {
    if (auto* spec = std::get_if<engine::RulesSpec>(&line)) {
        if (game)
            return Refusal{RefusalCode::WrongPhase,
                           "The game is already set up: a record has one setup line."};
        if (auto refusal = engine::Rules::validate(*spec)) return refusal;
        game.emplace(std::make_shared<const engine::Rules>(*spec));
        return std::nullopt;
    }
    if (auto* deal = std::get_if<engine::Deal>(&line)) return game->apply(*deal);
    if (auto* reshuffle = std::get_if<engine::Reshuffle>(&line)) return game->apply(*reshuffle);
    return game->apply(std::get<engine::Action>(line));
}

json replayLines(std::string_view text, int& lineNumber) {
    std::optional<engine::State> game;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view lineText = text.substr(start, end - start);
        start = end + 1;
        ++lineNumber;
        if (isBlankLine(lineText)) continue;

        LineRead read = readLine(lineText, game ? &game->rules() : nullptr);
        if (read.refusal) return failureJson(lineNumber, *read.refusal);
        if (auto refusal = applyLine(*read.line, game)) return failureJson(lineNumber, *refusal);
    }
    if (!game)
        return failureJson(lineNumber + 1, Refusal{RefusalCode::BadRecord, "The record has no setup line."});
    return resultJson(*game);
}

}  // namespace

json replayRecord(std::string_view text) {
    int lineNumber = 0;
    try {
        return replayLines(text, lineNumber);
    } catch (const std::bad_alloc&) {
        return failureJson(lineNumber, Refusal{RefusalCode::BadRecord, "The record is too large to replay."});
    } catch (...) {
        // Only a bug of ours can get here; the record still gets an answer.
        return failureJson(lineNumber, Refusal{RefusalCode::BadRecord, "This line could not be read."});
    }
}

}  // namespace vivaref::record
