// A table that teaches (REFEREE-NOTES.md, "A table that teaches"): a host's
// option for tables with new players, kept with the game. The first time in
// a game that a rule comes into play (the first election, a WC, a dungeon,
// the 33 rule, the Jester, a Stomachache), the table is told it in two
// lines: a public `teach` notice (the voice's `teach` moment) and the
// public status's `teach`. The lights where a lifted piece may go are the
// board part's (BoardPart::addHintFacts), asked for only while this is on.
// Not part of the API.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/referee/referee_context.hpp"
#include "engine/event.hpp"
#include "engine/message.hpp"
#include "engine/state.hpp"

namespace vivaref::referee {

// The rule a decision's event brings into play, as its rule id (web-ui/
// API.md, rules.html's anchors), when it is one a teaching table explains;
// `taught`: the ids explained so far this game (a Jester's first election
// is his, the next one the election's). `after`: the state after the
// decision. Pure.
std::optional<std::string> lessonRule(const engine::Event& e, const engine::State& after,
                                      const std::vector<std::string>& taught);
// The two lines that explain a rule the first time ("teach.lesson.*"), in
// the edition's terms (a classic election has no dungeon).
engine::Message lessonMessage(const std::string& rule, const engine::Rules& rules);

struct Lesson {
    std::string rule;
    engine::Message says;
    std::size_t decision = 0;  // the decisions in effect once it was taught
};

class TeachingPart {
public:
    explicit TeachingPart(Context& ctx) : ctx_(ctx) {}

    // A new game, teaching or not: logged as a `teaching` event when on.
    void startGame(bool on);
    // A game read back from its log: its lessons as its decisions taught
    // them, told to nobody again.
    void resumeGame(bool on, const std::vector<Decision>& history);
    bool on() const { return on_; }

    // A decision taken (`decisions` now in effect): a rule it brings into
    // play for the first time is told (a `teach` notice).
    void afterDecision(const engine::EventList& events, std::size_t decisions);
    // Decisions taken back or played again (undo, physical cards entered):
    // the lessons are those of the decisions in effect; one taken back is
    // taught again the next time its rule comes into play.
    void rebuild(const std::vector<Decision>& history);

    // The public status's `teach`: the latest lesson, while the table has
    // made fewer decisions since than it has seats (plus one: an election's
    // lesson stays through its votes and its outcome); null otherwise, and
    // always without teaching.
    nlohmann::json statusJson(std::size_t decisions) const;
    const std::vector<Lesson>& lessons() const { return lessons_; }

private:
    std::vector<std::string> taught() const;

    Context& ctx_;
    bool on_ = false;
    std::vector<Lesson> lessons_;
};

}  // namespace vivaref::referee
