#include "daemon/store/record_walk.hpp"

namespace vivaref::store {

Walk walkRecord(const std::vector<std::string>& lines, const std::function<void(const WalkStep&)>& onStep) {
    Walk walk;
    engine::EventList events;
    int number = 0;
    for (const auto& text : lines) {
        ++number;
        if (record::isBlankLine(text)) continue;
        const engine::Rules* rules = walk.state ? &walk.state->rules() : nullptr;
        auto read = record::readLine(text, rules);
        if (!read.line) {
            walk.failure = WalkFailure{number, *read.refusal};
            return walk;
        }
        events.clear();
        std::optional<engine::Refusal> refusal;
        if (const auto* spec = std::get_if<engine::RulesSpec>(&*read.line)) {
            if (walk.state) {
                refusal = engine::Refusal{engine::RefusalCode::BadSetup, "A second setup line."};
            } else if (auto bad = engine::Rules::validate(*spec)) {
                refusal = bad;
            } else {
                walk.state.emplace(std::make_shared<const engine::Rules>(*spec));
            }
        } else if (!walk.state) {
            refusal = engine::Refusal{engine::RefusalCode::BadRecord,
                                      "The record does not start with a setup line."};
        } else if (const auto* deal = std::get_if<engine::Deal>(&*read.line)) {
            refusal = walk.state->apply(*deal, &events);
        } else if (const auto* action = std::get_if<engine::Action>(&*read.line)) {
            refusal = walk.state->apply(*action, &events);
        } else {
            refusal = walk.state->apply(std::get<engine::Reshuffle>(*read.line), &events);
        }
        if (refusal) {
            walk.failure = WalkFailure{number, *refusal};
            return walk;
        }
        if (onStep) onStep(WalkStep{number, *read.line, *walk.state, events});
    }
    return walk;
}

}  // namespace vivaref::store
