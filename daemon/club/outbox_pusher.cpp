// The pusher's thread: wait for a game's end or the retry timer, push what
// waits oldest first, mark each pushed only once push() returned.
#include "daemon/club/outbox_pusher.hpp"

#include <algorithm>
#include <exception>

#include "daemon/store/game_store.hpp"

namespace vivaref::club {

namespace {

store::WallTime wallNow() {
    return std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
}

}  // namespace

struct OutboxPusher::Shared {
    mutable std::mutex mutex;
    std::condition_variable wake;
    std::condition_variable finished;
    bool stopping = false;
    bool woken = false;
    bool done = false;
    OutboxPusherState state;
};

OutboxPusher::OutboxPusher(OutboxPusherOptions options, LinkFactory makeLink)
    : options_(std::move(options)), makeLink_(std::move(makeLink)), shared_(std::make_shared<Shared>()) {
    shared_->state.table = options_.table;
    shared_->state.server = options_.server;
}

OutboxPusher::~OutboxPusher() { stop(); }

void OutboxPusher::start() {
    if (thread_.joinable()) return;
    {
        std::lock_guard lock(shared_->mutex);
        shared_->stopping = false;
        shared_->done = false;
        shared_->woken = true;
    }
    thread_ = std::thread(run, shared_, options_, makeLink_);
}

void OutboxPusher::notify() {
    {
        std::lock_guard lock(shared_->mutex);
        shared_->woken = true;
    }
    shared_->wake.notify_all();
}

void OutboxPusher::stop() {
    if (!thread_.joinable()) return;
    std::unique_lock lock(shared_->mutex);
    shared_->stopping = true;
    shared_->wake.notify_all();
    const bool ended = shared_->finished.wait_for(lock, options_.stopWait, [&] { return shared_->done; });
    lock.unlock();
    // A push blocked on the network is abandoned: the thread owns what it
    // uses (its log connection, its link, the shared state) and ends on its own.
    if (ended)
        thread_.join();
    else
        thread_.detach();
}

OutboxPusherState OutboxPusher::state() const {
    std::lock_guard lock(shared_->mutex);
    return shared_->state;
}

void OutboxPusher::run(std::shared_ptr<Shared> shared, OutboxPusherOptions options, LinkFactory makeLink) {
    std::unique_ptr<store::GameStore> log;
    std::unique_ptr<ClubLink> link;
    // When the members are fetched again; the clock's epoch (long past): at
    // the next connection.
    std::chrono::steady_clock::time_point membersDue{};
    auto backoff = options.firstRetry;
    auto stopping = [&] {
        std::lock_guard lock(shared->mutex);
        return shared->stopping;
    };
    auto note = [&](auto&& change) {
        std::lock_guard lock(shared->mutex);
        change(shared->state);
    };

    for (;;) {
        {
            std::lock_guard lock(shared->mutex);
            if (shared->stopping) break;
            shared->woken = false;
        }
        bool failed = false;                   // the network or the log: retry with backoff
        bool refusedWaiting = false;           // a game the club refused still waits
        std::optional<store::GameId> current;  // the game being pushed
        try {
            if (!log)
                log = std::make_unique<store::GameStore>(options.log, store::GameStore::Access::MustExist);
            auto queue = log->outbox();
            const auto now = wallNow();
            note([&](OutboxPusherState& s) {
                s.waiting = static_cast<std::int64_t>(queue.size());
                s.membersFetched = log->membersFetchedAt();
            });
            const bool membersWanted = std::chrono::steady_clock::now() >= membersDue;
            std::erase_if(queue, [&](const store::OutboxEntry& e) {
                const bool later =
                    e.permanent && e.lastAttempt && now - *e.lastAttempt < options.refusedRetry;
                refusedWaiting = refusedWaiting || later;
                return later;
            });
            if (!queue.empty() || membersWanted) {
                if (!link) {
                    link = makeLink();
                    membersDue = {};
                }
                if (std::chrono::steady_clock::now() >= membersDue) {
                    log->replaceMembers(link->members(), wallNow());
                    membersDue = std::chrono::steady_clock::now() + options.membersEvery;
                    note([&](OutboxPusherState& s) {
                        s.membersFetched = wallNow();
                        s.lastError.clear();
                    });
                }
            }
            for (const auto& entry : queue) {
                if (stopping()) break;
                current = entry.game;
                const auto upload = log->clubUpload(entry.game, options.table);
                try {
                    (void)link->push(upload);
                } catch (const ClubError& e) {
                    if (e.transient()) throw;
                    // Refused: kept with its reason, tried again much later; the others go on.
                    log->recordPushFailure(entry.game, e.what(), true, wallNow());
                    refusedWaiting = true;
                    note([&](OutboxPusherState& s) {
                        s.lastAttempt = wallNow();
                        s.lastError = std::string("the club refused game ") +
                                      std::to_string(entry.game.value) + ": " + e.what();
                        s.refused = true;
                    });
                    current.reset();
                    continue;
                }
                // Only now: a crash before this line leaves it queued, and
                // the next push of the same uid answers AlreadyThere.
                log->markPushed(entry.game, wallNow());
                current.reset();
                note([&](OutboxPusherState& s) {
                    s.waiting = std::max<std::int64_t>(0, s.waiting - 1);
                    ++s.pushed;
                    s.lastSuccess = wallNow();
                    s.lastAttempt = s.lastSuccess;
                    if (!refusedWaiting) {
                        s.lastError.clear();
                        s.refused = false;
                    }
                });
            }
        } catch (const ClubError& e) {
            failed = true;
            link.reset();  // a new connection next time
            // Refused credentials or database: retrying soon will not help.
            if (!e.transient()) backoff = options.maxRetry;
            const std::string why = e.what();
            try {
                if (log) {
                    const auto game = current ? current : std::optional<store::GameId>();
                    const auto queue = log->outbox();
                    if (game || !queue.empty())
                        log->recordPushFailure(game ? *game : queue.front().game, why, false, wallNow());
                }
            } catch (const std::exception&) {
                // The log is busy or full: the state below still says why.
            }
            note([&](OutboxPusherState& s) {
                s.lastAttempt = wallNow();
                s.lastError = why;
                s.refused = !e.transient();
            });
        } catch (const std::exception& e) {
            failed = true;
            link.reset();
            const std::string why = e.what();
            note([&](OutboxPusherState& s) {
                s.lastAttempt = wallNow();
                s.lastError = why;
                s.refused = false;
            });
        }
        std::chrono::milliseconds wait = options.membersEvery;
        if (failed) {
            wait = backoff;
            backoff = std::min(backoff * 2, options.maxRetry);
        } else {
            backoff = options.firstRetry;
            if (refusedWaiting) wait = std::min(wait, options.refusedRetry);
        }
        try {
            if (log) {
                const auto waiting = static_cast<std::int64_t>(log->outbox().size());
                note([&](OutboxPusherState& s) { s.waiting = waiting; });
            }
        } catch (const std::exception&) {
        }
        note([&](OutboxPusherState& s) { s.nextTry = wallNow() + wait; });
        std::unique_lock lock(shared->mutex);
        shared->wake.wait_for(lock, wait, [&] { return shared->stopping || (shared->woken && !failed); });
        if (shared->stopping) break;
    }
    std::lock_guard lock(shared->mutex);
    shared->done = true;
    shared->finished.notify_all();
}

}  // namespace vivaref::club
