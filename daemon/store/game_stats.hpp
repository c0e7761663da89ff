// Figures over every logged game, by edition: wins per player name, the
// average round score per player name, and per character how often it was
// elected, crowned and rejected. Nothing secret: no favourites, no Ambition
// cards, only what the table saw.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "daemon/store/game_store.hpp"

namespace vivaref::store {

struct PlayerStats {
    int games = 0;
    int wins = 0;  // shared wins count for each winner
    int rounds = 0;
    long long roundPoints = 0;
    double averageRoundScore() const { return rounds ? static_cast<double>(roundPoints) / rounds : 0.0; }
};

struct CharacterStats {
    int elections = 0;
    int crowned = 0;
    int rejected = 0;  // rejected, eliminated (classic) or sent back by a Stomachache
};

struct EditionStats {
    int games = 0;
    int complete = 0;
    int emissaryWins = 0;
    std::map<std::string, PlayerStats> players;        // by name
    std::map<std::string, CharacterStats> characters;  // by character name
};

struct GameLogStats {
    std::map<std::string, EditionStats> editions;  // "classic", "online", "2024"
    int unreadable = 0;                            // games whose record the engine refuses (see verify)
};

// Abandoned games are left out; incomplete ones count for their rounds and
// elections, not for wins.
GameLogStats gatherStats(GameStore& log);
nlohmann::ordered_json statsJson(const GameLogStats& stats);

}  // namespace vivaref::store
