// What a table sends to its club and reads back: the seam between the
// table's outbox (daemon/store, serve's pusher) and the club's PostgreSQL
// (daemon/club). The pusher holds a ClubLink; the real one speaks libpqxx
// (club_connection.hpp), the tests' twin keeps games in memory.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/store/club_outbox.hpp"

namespace vivaref::club {

// One seat of a pushed game, as the standings need it. `score` and
// `winner` come from the record's result (empty for an abandoned game).
struct SeatUpload {
    int seat = 0;
    int player = 0;
    std::string name;                    // as played (a member's name, a guest's, a bot's)
    std::optional<std::int64_t> member;  // the club member who sat there; none for a guest or a bot
    bool bot = false;
    std::optional<int> score;
    bool winner = false;
};

// A finished or abandoned game, whole: the record is the GAME-RECORD text
// (one line each, setup first), so the league can show its review.
struct GameUpload {
    std::string uid;             // unique across every table of every club: 32 lowercase hex digits
    std::string table;           // the table's name in the club
    std::int64_t localId = 0;    // the game's id in the table's own log
    std::int64_t startedMs = 0;  // wall clock, ms since the epoch
    std::int64_t endedMs = 0;
    std::string edition;  // classic, online, 2024
    bool complete = false;
    bool abandoned = false;
    std::string record;  // GAME-RECORD lines
    std::string result;  // the GAME-RECORD result object's text; "" when abandoned
    std::vector<SeatUpload> seats;
};

// A table's name in its club: 1 to 40 lowercase letters, digits, '-' or
// '_', starting with a letter or a digit (it is part of the table's role
// name). The one rule for `vivaref club add-table` and the `[club]` section.
inline bool isClubTableName(std::string_view name) {
    const auto letterOrDigit = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (name.empty() || name.size() > 40 || !letterOrDigit(name.front())) return false;
    for (char c : name)
        if (!letterOrDigit(c) && c != '_' && c != '-') return false;
    return true;
}

// A member as the club lists them; the table's log caches the same rows.
using ClubMember = store::ClubMember;

enum class PushOutcome {
    Inserted,      // the game is in the league now
    AlreadyThere,  // an earlier push landed it (same uid): nothing changed
};

// A failure to reach or use the club. `transient`: the server was
// unreachable, the connection dropped, a timeout (retry later); otherwise
// the club refused the game or the credentials (retrying will not help
// until someone changes something), and `what()` says what in words.
class ClubError : public std::runtime_error {
public:
    ClubError(const std::string& what, bool transient) : std::runtime_error(what), transient_(transient) {}
    bool transient() const { return transient_; }

private:
    bool transient_;
};

class ClubLink {
public:
    virtual ~ClubLink() = default;
    // Lands the game in one transaction, exactly once by its uid. Throws ClubError.
    virtual PushOutcome push(const GameUpload& game) = 0;
    // The club's members, by name. Throws ClubError.
    virtual std::vector<ClubMember> members() = 0;
};

}  // namespace vivaref::club
