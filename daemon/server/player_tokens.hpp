// The secret links of one game's players: one random token per player who
// is a person, issued when the game starts. Never in the game log; serve
// keeps the game in progress's in the state directory (player_links_file.hpp)
// and adopts them again when it resumes that game after a restart, so every
// link keeps working. A player the referee plays (a bot) gets none: no link can
// open its cards. Looking a token up compares it with every player's, in
// constant time each, so the answer's timing says nothing about which one
// was close. The host can give one player a new link (renew()): the old one
// stops working. The host's page hides a player's QR code once that
// player's page has been opened (issue 34): the first time a token found its
// player since it was issued is kept (openedAt()), on the loop's wall clock.
#pragma once

#include <cstdint>
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
    void clear() {
        tokens_.clear();
        opened_.clear();
    }
    // A new token for `player` (a lost phone): the old link then names
    // nobody, and the new one is not opened yet. False when there is no such
    // player, or it has no link (a bot).
    bool renew(int player);
    // The links kept from before a restart for the same game: each person's
    // player keeps their token and its first opening; a person's player
    // with none kept gets a new one, a bot's player none. False (nothing
    // changed) when `tokens` and `opened` are not one per player.
    bool adopt(const std::vector<std::string>& tokens, const std::vector<std::optional<std::int64_t>>& opened,
               const std::vector<bool>& person);

    // The player (0-based) holding `token`, if any: never one without a link.
    std::optional<int> find(std::string_view token) const;
    // Player p's token, empty for a player without a link: for the host's page only.
    const std::vector<std::string>& tokens() const { return tokens_; }

    // Player `player`'s page was opened at `atMs` (ms since the epoch): the
    // first time since their link was issued is kept, later ones change
    // nothing. True when this was that first time.
    bool markOpened(int player, std::int64_t atMs);
    // When player `player`'s current link first opened their page, if it has.
    std::optional<std::int64_t> openedAt(int player) const;
    const std::vector<std::optional<std::int64_t>>& opened() const { return opened_; }

private:
    std::vector<std::string> tokens_;
    std::vector<std::optional<std::int64_t>> opened_;  // by player, as tokens_
};

}  // namespace vivaref::server
