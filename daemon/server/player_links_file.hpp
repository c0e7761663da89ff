// The players' links of the game in progress, kept in the state directory
// (issue 35) so that a restart of `vivaref serve` leaves every link working:
// a player's open page reconnects and resumes where it was. The file is
// `player-links.json` beside `host-secret`, kept with the same care: mode
// 0600, written whole to a private temporary file and renamed into place
// (a reader sees the old links or the new ones, never half), never a token
// in a message. It names its game by number and by the log's uid (unique
// across tables), so a link is never handed to another game, even one with
// the same number in a new game log.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vivaref::server {

inline constexpr std::string_view kPlayerLinksFile = "player-links.json";

// One game's links: by player (0-based), the token (empty: no link, a bot's
// player) and when that link first opened its page (ms since the epoch).
struct SavedPlayerLinks {
    std::int64_t game = 0;
    std::string uid;
    std::vector<std::string> tokens;
    std::vector<std::optional<std::int64_t>> opened;  // as many as tokens
};

// The file's text: one line of JSON. The tokens are in it: for the file only.
std::string playerLinksText(const SavedPlayerLinks& links);
// The links `text` holds, or nullopt with `why` said (never quoting the text:
// it may hold tokens).
std::optional<SavedPlayerLinks> parsePlayerLinks(std::string_view text, std::string& why);

class PlayerLinksFile {
public:
    explicit PlayerLinksFile(const std::filesystem::path& directory) : file_(directory / kPlayerLinksFile) {}
    const std::filesystem::path& file() const { return file_; }

    // What the file holds. Missing: nullopt with `why` empty. Unreadable or
    // not links: nullopt with `why` said. A file others could read is made
    // 0600 again, with `warning` said.
    std::optional<SavedPlayerLinks> read(std::string& why, std::string& warning) const;
    // Replaces the file with `links` (0600, atomically, synced). False with
    // `why` said when it could not.
    bool write(const SavedPlayerLinks& links, std::string& why) const;
    // Removes the file (none is fine). False with `why` said when it could not.
    bool remove(std::string& why) const;

private:
    std::filesystem::path file_;
};

}  // namespace vivaref::server
