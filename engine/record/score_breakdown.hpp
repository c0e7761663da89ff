// Why each coronation scored what it did (engine RoundResult::coronations) and
// the final standing, in the words the table uses: display names, "floor 3",
// "the throne", Ambition cards by title. A round's breakdown shows favourites
// and kept Ambition cards, so callers pass only rounds already scored (the
// rules reveal those cards at the coronation); a round in progress never.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/state.hpp"

namespace vivaref::record {

// "floor 3", "the throne", "WC 3", "dungeon 1", "the box", "beside the throne".
std::string placeWords(engine::Place p);
// "It's a Queen!" and so on (RULES §5 table).
std::string ambitionTitle(engine::AmbitionCard c);

// One finished round: {round, scores, compensation, coronations: [{king,
// king_name, crown, jester_king, players: [{player, name, total, lines}],
// emissary}]}. `names` by player index ("" or missing: "Player N", from 1).
nlohmann::json roundBreakdownJson(const engine::RoundResult& round, const engine::Rules& rules,
                                  const std::vector<std::string>& names);

// The final standing once the game is over (empty array before): one entry
// per player, best first, with place (ties share one, the rules' tie-break
// decides the winners' place 1), score (the player's total), result (a
// team's: the lower teammate's) and winner.
nlohmann::json standingJson(const engine::State& state, const std::vector<std::string>& names);

// The same breakdown as text lines for `vivaref show`, two spaces indented.
std::string roundBreakdownText(const engine::RoundResult& round, const engine::Rules& rules,
                               const std::vector<std::string>& names);

}  // namespace vivaref::record
