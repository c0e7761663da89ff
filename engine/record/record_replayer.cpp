#include "engine/record/record_replayer.hpp"

#include <memory>
#include <new>
#include <utility>
#include <variant>

#include "engine/record/line_reader.hpp"

namespace vivaref::record {

using engine::Message;
using engine::Refusal;
using engine::RefusalCode;

RecordReplayer::RecordReplayer(ReplayObserver observer) : observer_(std::move(observer)) {}

RecordReplayer::RecordReplayer(engine::State game, ReplayObserver observer)
    : observer_(std::move(observer)), game_(std::move(game)) {}

bool RecordReplayer::fail(Refusal refusal, bool unreadable) {
    failure_ = ReplayFailure{line_, std::move(refusal), unreadable};
    return false;
}

bool RecordReplayer::setUp(const engine::RulesSpec& spec) {
    if (game_) return fail(Refusal{RefusalCode::WrongPhase, Message("record.setup-twice")});
    if (auto refusal = engine::Rules::validate(spec)) return fail(std::move(*refusal));
    game_.emplace(std::make_shared<const engine::Rules>(spec));
    events_.clear();
    if (observer_.after && !observer_.after(ReplayStep{line_, nullptr, *game_, events_})) stopped_ = true;
    return !stopped_;
}

bool RecordReplayer::decide(engine::Decision decision) {
    if (observer_.before && !observer_.before(line_, decision, *game_)) {
        stopped_ = true;
        return false;
    }
    events_.clear();
    if (auto refusal = game_->apply(decision, &events_)) return fail(std::move(*refusal));
    if (observer_.after && !observer_.after(ReplayStep{line_, &decision, *game_, events_})) stopped_ = true;
    return !stopped_;
}

bool RecordReplayer::next(std::string_view text) {
    if (ended()) return false;
    ++line_;
    if (isBlankLine(text)) return true;
    try {
        // Before the setup line only a setup line reads (line_reader.hpp).
        LineRead read = readLine(text, game_ ? &game_->rules() : nullptr);
        if (read.refusal) return fail(std::move(*read.refusal), true);
        return std::visit(
            [&](auto&& value) {
                using T = std::decay_t<decltype(value)>;
                if constexpr (std::is_same_v<T, engine::RulesSpec>)
                    return setUp(value);
                else
                    return decide(engine::Decision{std::move(value)});
            },
            std::move(*read.line));
    } catch (const std::bad_alloc&) {
        return fail(Refusal{RefusalCode::BadRecord, Message("record.too-large")});
    }
}

bool RecordReplayer::play(std::string_view text) {
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        if (!next(text.substr(start, end - start))) return false;
        start = end + 1;
    }
    return !ended();
}

bool RecordReplayer::finish() {
    if (ended()) return false;
    if (game_) return true;
    ++line_;
    return fail(Refusal{RefusalCode::BadRecord, Message("record.no-setup")});
}

namespace {

Replay ending(RecordReplayer& replayer) {
    replayer.finish();
    return Replay{std::move(replayer.state()), replayer.failure(), replayer.stopped()};
}

}  // namespace

Replay replayText(std::string_view text, ReplayObserver observer) {
    RecordReplayer replayer(std::move(observer));
    replayer.play(text);
    return ending(replayer);
}

Replay replayLines(const std::vector<std::string>& lines, ReplayObserver observer) {
    RecordReplayer replayer(std::move(observer));
    for (const auto& text : lines)
        if (!replayer.next(text)) break;
    return ending(replayer);
}

}  // namespace vivaref::record
