// What a new game's players' names must be, said as messages ("name.*"):
// each name's form (engine/record/player_name.hpp), and at the host's way
// in (the host API, `vivaref new`) also something visible, no direction
// controls and no two alike (REFEREE-NOTES.md, "Players' names"). Only
// the form is checked where a name comes from a log or a trace: a name kept
// before these checks still loads, and is shown escaped or isolated.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/message.hpp"
#include "engine/record/player_name.hpp"
#include "engine/roster.hpp"

namespace vivaref::referee {

// Player `player`'s (from 0) name's problem, as a message.
engine::Message playerNameMessage(std::size_t player, const record::PlayerNameIssue& issue);

// The first of the names' forms that is wrong, as a message.
std::optional<engine::Message> playerNamesFormProblem(const std::vector<std::string>& names);

// Everything a new game's names must be: the form, something visible (not
// only spaces or invisible characters), no Bidi_Control character (refused,
// not taken out: see REFEREE-NOTES.md), and no name twice, compared by
// words::nameKey (case, compatibility forms, invisible characters and
// spaces at the ends do not make two names differ).
std::optional<engine::Message> newPlayerNamesProblem(const std::vector<std::string>& names);

// A player named as one of the game's characters ("Dario" beside Dario
// l'Antiquario), compared by words::looseNameKey with the character's id,
// its whole name and, but for the Jester, its name's first word: the first
// such player, as a warning ("name.is-character"). Not a refusal: a person
// called Dario plays under their own name (REFEREE-NOTES.md, "Players' names").
std::optional<engine::Message> characterNameClash(const std::vector<std::string>& names,
                                                  const engine::Roster& roster);

}  // namespace vivaref::referee
