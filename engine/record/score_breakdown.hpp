// Why each coronation scored what it did (engine RoundResult::coronations) and
// the final standing, in the words the table uses: display names, "floor 3",
// "the throne", Ambition cards by title. A round's breakdown shows favourites
// and kept Ambition cards, so callers pass only rounds already scored (the
// rules reveal those cards at the coronation); a round in progress never.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/message.hpp"
#include "engine/state.hpp"

namespace vivaref::record {

// "floor 3", "the throne", "WC 3", "dungeon 1", "the box", "beside the throne".
std::string placeWords(engine::Place p);
// "It's a Queen!" and so on (RULES §5 table).
std::string ambitionTitle(engine::AmbitionCard c);

// A message as the API sends it (daemon/words/message_json.hpp: the engine
// knows no wire format), for the "says" fields beside the English words.
using MessageJson = std::function<nlohmann::json(const engine::Message&)>;

// One finished round: {round, scores, compensation, coronations: [{king,
// king_name, crown, jester_king, players: [{player, name, total, lines}],
// emissary}]}. `names` by player index ("" or missing: "Player N", from 1).
// With `says`, the words beside the English ones as messages: each line's
// "says" (the line as `vivaref show` tells it), a favourite's "where_says",
// an Ambition, 33 or team pawn line's "name_says", an unnamed player's
// "name_says".
nlohmann::json roundBreakdownJson(const engine::RoundResult& round, const engine::Rules& rules,
                                  const std::vector<std::string>& names, const MessageJson& says = {});

// The final standing once the game is over (empty array before): one entry
// per player, best first, with place (ties share one, the rules' tie-break
// decides the winners' place 1), score (the player's total), result (a
// team's: the lower teammate's) and winner; with `says`, an unnamed
// player's "name_says".
nlohmann::json standingJson(const engine::State& state, const std::vector<std::string>& names,
                            const MessageJson& says = {});

// A player as a message's parameter: the name, or "Player N" (from 1).
engine::MessageValue playerValue(const std::vector<std::string>& names, int player);

// The same breakdown as lines for `vivaref show`: each a message
// ("breakdown.*") and how deep it is indented (1: a coronation, 2: a sheet).
struct BreakdownLine {
    int depth = 1;
    engine::Message says;
};
std::vector<BreakdownLine> roundBreakdownLines(const engine::RoundResult& round, const engine::Rules& rules,
                                               const std::vector<std::string>& names);

}  // namespace vivaref::record
