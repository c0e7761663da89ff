// The secret links of one game's players: one random token per player who
// is a person, issued when the game starts (or is resumed after a restart:
// tokens live in memory only, never in the game log, so the host shows the
// links again). A player the referee plays (a bot) gets none: no link can
// open its cards. Looking a token up compares it with every player's, in
// constant time each, so the answer's timing says nothing about which one
// was close. The host can give one player a new link (renew()): the old one
// stops working.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vivaref::server {

class PlayerTokens {
public:
    // Forgets the previous game's tokens and issues one to each player p
    // with `person[p]`; the others (bots) get none.
    void issue(const std::vector<bool>& person);
    void clear() { tokens_.clear(); }
    // A new token for `player` (a lost phone): the old link then names
    // nobody. False when there is no such player, or it has no link (a bot).
    bool renew(int player);

    // The player (0-based) holding `token`, if any: never one without a link.
    std::optional<int> find(std::string_view token) const;
    // Player p's token, empty for a player without a link: for the host's page only.
    const std::vector<std::string>& tokens() const { return tokens_; }

private:
    std::vector<std::string> tokens_;
};

}  // namespace vivaref::server
