// The club's side of the game log (schema 3): the outbox of ended games
// waiting to be pushed to the club, and the cache of the club's members.
// The game log queues a game in the transaction that ends it
// (GameStore::setClubConfigured); the pusher's thread (daemon/club/) reads
// the queue, marks what the club took and caches the members, on a
// connection of its own. It shares a connection (GameStore::club()).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/store/decision_log.hpp"
#include "daemon/store/sqlite.hpp"

namespace vivaref::store {

// A game queued for the club (club_outbox).
struct OutboxEntry {
    GameId game;
    std::string uid;
    WallTime queued;
    std::int64_t attempts = 0;
    std::optional<WallTime> lastAttempt;
    std::string lastError;   // empty when no attempt failed
    bool permanent = false;  // the last failure was the club's refusal
};

// What the status and `vivaref games` say of the outbox.
struct OutboxSummary {
    std::int64_t waiting = 0;
    std::int64_t pushed = 0;
    std::optional<WallTime> lastAttempt;  // of a waiting game
    std::string lastError;                // of the waiting game tried last
    std::optional<WallTime> lastPushed;
};

// A member of the table's club as the club lists them (club::ClubMember
// is this type: the club fetches them, the log caches them).
struct ClubMember {
    std::int64_t id = 0;
    std::string name;
};

class ClubOutbox {
public:
    explicit ClubOutbox(Database& db) : db_(db) {}

    // The games that wait to be pushed, oldest first.
    std::vector<OutboxEntry> waiting();
    OutboxSummary summary();
    // The club has the game (push() returned): it leaves the queue.
    void markPushed(GameId game, WallTime at);
    // A push failed: counted, with the reason in words; `permanent` when
    // the club refused it (retrying will not help until someone acts).
    void recordFailure(GameId game, std::string_view error, bool permanent, WallTime at);

    // The club's members as last fetched, by name.
    std::vector<ClubMember> members();
    std::optional<WallTime> membersFetchedAt();
    void replaceMembers(const std::vector<ClubMember>& members, WallTime at);

private:
    Database& db_;
};

}  // namespace vivaref::store
