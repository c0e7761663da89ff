#include "daemon/referee/teaching_part.hpp"

#include <algorithm>

#include "daemon/words/message_json.hpp"

namespace vivaref::referee {

using engine::EventKind;
using engine::Message;
using nlohmann::json;

namespace {

bool wasTaught(const std::vector<std::string>& taught, const char* rule) {
    return std::find(taught.begin(), taught.end(), rule) != taught.end();
}

bool isJester(const engine::State& s, engine::CharacterId c) {
    const auto& roster = s.rules().roster();
    return c.index < roster.size() && roster[c].kind == engine::CharacterKind::Jester;
}

}  // namespace

std::optional<std::string> lessonRule(const engine::Event& e, const engine::State& after,
                                      const std::vector<std::string>& taught) {
    auto first = [&](const char* rule) -> std::optional<std::string> {
        if (wasTaught(taught, rule)) return std::nullopt;
        return std::string(rule);
    };
    switch (e.kind) {
        case EventKind::ElectionOpened:
            if (isJester(after, e.character) && !wasTaught(taught, "jester")) return "jester";
            return first("election");
        case EventKind::Moved:
            if (engine::isWc(e.to)) return first("wc");
            return std::nullopt;
        case EventKind::Rejected:
            if (engine::isDungeon(e.to)) return first("dungeon");
            return std::nullopt;
        case EventKind::Cancelled:
            return first("stomachache");
        case EventKind::RoundDealt:
            // The 33 rule counts in the last round: told as it is dealt, so
            // that a player may aim for it.
            if (after.rules().hasRule33() && e.round == 3) return first("rule-33");
            return std::nullopt;
        default:
            return std::nullopt;
    }
}

Message lessonMessage(const std::string& rule, const engine::Rules& rules) {
    if (rule == "election")
        return Message(rules.is2024() ? "teach.lesson.election-2024" : "teach.lesson.election-classic");
    if (rule == "wc") return Message("teach.lesson.wc");
    if (rule == "dungeon") return Message("teach.lesson.dungeon");
    if (rule == "stomachache") return Message("teach.lesson.stomachache");
    if (rule == "jester") return Message("teach.lesson.jester");
    return Message("teach.lesson.rule-33");
}

void TeachingPart::startGame(bool on) {
    on_ = on;
    lessons_.clear();
    if (on_) ctx_.refereeEvent("teaching", json{{"on", true}});
}

void TeachingPart::resumeGame(bool on, const std::vector<Decision>& history) {
    on_ = on;
    rebuild(history);
}

std::vector<std::string> TeachingPart::taught() const {
    std::vector<std::string> rules;
    for (const auto& l : lessons_) rules.push_back(l.rule);
    return rules;
}

void TeachingPart::afterDecision(const engine::EventList& events, std::size_t decisions) {
    if (!on_ || !ctx_.game.state) return;
    const auto& state = *ctx_.game.state;
    // One lesson a decision: a second rule it brings in waits for its next time.
    for (const auto& e : events) {
        const auto rule = lessonRule(e, state, taught());
        if (!rule) continue;
        lessons_.push_back(Lesson{*rule, lessonMessage(*rule, state.rules()), decisions});
        ctx_.notice("teach", lessons_.back().says, json{{"rule", *rule}});
        return;
    }
}

void TeachingPart::rebuild(const std::vector<Decision>& history) {
    lessons_.clear();
    if (!on_) return;
    for (std::size_t i = 0; i < history.size(); ++i) {
        engine::State after = history[i].before;
        engine::EventList events;
        if (after.apply(history[i].what, &events)) continue;  // cannot happen: it was applied once
        for (const auto& e : events) {
            const auto rule = lessonRule(e, after, taught());
            if (!rule) continue;
            lessons_.push_back(Lesson{*rule, lessonMessage(*rule, after.rules()), i + 1});
            break;
        }
    }
}

json TeachingPart::statusJson(std::size_t decisions) const {
    if (!on_ || lessons_.empty() || !ctx_.game.state) return nullptr;
    const auto& last = lessons_.back();
    const auto seats = static_cast<std::size_t>(ctx_.game.state->rules().seats());
    if (decisions > last.decision + seats) return nullptr;
    return json{{"rule", last.rule}, {"says", words::messageJson(last.says)}};
}

}  // namespace vivaref::referee
