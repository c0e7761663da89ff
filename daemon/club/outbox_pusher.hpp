// serve's pusher: the games a table queued for its club (the log's
// club_outbox) sent to the club's server, oldest first, on a thread of its
// own with its own connection to the log, so that a slow or unreachable
// server never holds the table's loop. Exactly once: a game is marked
// pushed only after push() returned (Inserted or AlreadyThere), and the
// club lands a game once by its uid, so a push cut at any point is retried
// and lands once (daemon/club/NOTES-table.md).
#pragma once

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "daemon/club/club_link.hpp"
#include "daemon/store/decision_log.hpp"

namespace vivaref::club {

struct OutboxPusherOptions {
    std::filesystem::path log;  // the game log (WAL), opened again by the pusher's thread
    std::string table;          // the table's name in the club
    std::string server;         // where the club is, for the status (a host, never a password)
    // After a failure the next try waits `firstRetry`, doubling up to
    // `maxRetry`; a success resets it.
    std::chrono::milliseconds firstRetry{2000};
    std::chrono::milliseconds maxRetry{std::chrono::minutes(5)};
    // A game the club refused is tried again only after this.
    std::chrono::milliseconds refusedRetry{std::chrono::hours(1)};
    // The members cache is fetched at each new connection and this often.
    std::chrono::milliseconds membersEvery{std::chrono::minutes(10)};
    // How long stop() waits for a push in flight before abandoning it.
    std::chrono::milliseconds stopWait{std::chrono::milliseconds(800)};
    // While games wait after a failure, whether the server answers again is
    // asked this often (`probe`: cheap, no login, e.g. libpq's PQping); the
    // first yes ends the back-off at once, so a club back after an outage
    // gets its games within `probeEvery`, not at the next back-off step
    // (up to `maxRetry`). No probe: the back-off alone.
    std::function<bool()> probe;
    std::chrono::milliseconds probeEvery{std::chrono::seconds(5)};
};

// What the status page and `vivaref games` say of the pusher.
struct OutboxPusherState {
    std::string table;
    std::string server;
    std::int64_t waiting = 0;  // games queued, not yet in the club
    std::int64_t pushed = 0;   // by this run
    std::optional<store::WallTime> lastSuccess;
    std::optional<store::WallTime> lastAttempt;
    std::string lastError;  // in words; empty after a success
    bool refused = false;   // the last error was the club's refusal, not the network
    std::optional<store::WallTime> nextTry;
    std::optional<store::WallTime> membersFetched;
};

class OutboxPusher {
public:
    using LinkFactory = std::function<std::unique_ptr<ClubLink>()>;

    OutboxPusher(OutboxPusherOptions options, LinkFactory makeLink);
    ~OutboxPusher();  // stop()
    OutboxPusher(const OutboxPusher&) = delete;
    OutboxPusher& operator=(const OutboxPusher&) = delete;

    // Starts the thread; it tries at once (a table back after days catches up).
    void start();
    // A game ended: try now (returns at once).
    void notify();
    // Asks the thread to stop and joins it within options.stopWait; a push
    // still in flight then is abandoned (its game stays queued: the next
    // start pushes it again, and the club answers AlreadyThere if it had landed).
    void stop();
    OutboxPusherState state() const;

private:
    struct Shared;
    class Worker;  // the thread's own (outbox_pusher.cpp)

    OutboxPusherOptions options_;
    LinkFactory makeLink_;
    std::shared_ptr<Shared> shared_;
    std::thread thread_;
};

}  // namespace vivaref::club
