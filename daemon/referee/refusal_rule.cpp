#include "daemon/referee/refusal_rule.hpp"

#include <array>
#include <utility>

namespace vivaref::referee {

std::string refusalRule(std::string_view code, const engine::Message& message) {
    // The engine's message first: it tells the rule apart where the code
    // does not (engine/ascent.cpp, election.cpp, state.cpp).
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 20> kByMessage{{
        {"refusal.vote-first", "election"},
        {"refusal.placement-at-round-start", "placement"},
        {"refusal.move-in-ascent", "move"},
        {"refusal.not-your-turn", "turns"},
        {"refusal.character-not-in-game", "pieces"},
        {"refusal.already-placed", "placement"},
        {"refusal.placed-on-floors-1-4", "placement"},
        {"refusal.floor-full", "floor-full"},
        {"refusal.out-of-castle", "move"},
        {"refusal.in-dungeon", "dungeon"},
        {"refusal.crowned", "election"},
        {"refusal.throne-taken", "election"},
        {"refusal.leave-wc-onto", "wc"},
        {"refusal.stay-in-wc", "wc"},
        {"refusal.wc-when-floor-full", "wc"},
        {"refusal.wc-taken", "wc"},
        {"refusal.already-voted", "election"},
        {"refusal.no-such-vote", "election"},
        {"refusal.already-kept", "ambition"},
        {"refusal.keep-one-of-two", "ambition"},
    }};
    for (const auto& [said, rule] : kByMessage)
        if (message.code == said) return std::string(rule);
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 11> kByCode{{
        {"several-moved", "one-move"},
        {"character-gone", "in-hand"},
        {"not-in-game", "pieces"},
        {"bot-move", "turns"},
        {"remote-move", "turns"},
        {"not-your-turn", "turns"},
        {"floor-full", "floor-full"},
        {"floor-not-full", "wc"},
        {"wc-occupied", "wc"},
        {"card-not-held", "election"},
        {"already-voted", "election"},
    }};
    for (const auto& [refused, rule] : kByCode)
        if (code == refused) return std::string(rule);
    return "move";
}

}  // namespace vivaref::referee
