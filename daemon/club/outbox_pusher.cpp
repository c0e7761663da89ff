// The pusher's thread: wait for a game's end or the retry timer, push what
// waits oldest first, mark each pushed only once push() returned.
#include "daemon/club/outbox_pusher.hpp"

#include <algorithm>
#include <exception>

#include "daemon/club/game_check.hpp"
#include "daemon/club/game_upload.hpp"
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

// What the thread owns (its log connection, its link to the club) and
// when it tries again; it shares only `Shared` with the pusher.
class OutboxPusher::Worker {
public:
    Worker(std::shared_ptr<Shared> shared, OutboxPusherOptions options, LinkFactory makeLink)
        : shared_(std::move(shared)),
          options_(std::move(options)),
          makeLink_(std::move(makeLink)),
          backoff_(options_.firstRetry) {}

    void run() {
        for (;;) {
            {
                std::lock_guard lock(shared_->mutex);
                if (shared_->stopping) break;
                shared_->woken = false;
            }
            const Pass pass = tryPass();
            const auto wait = nextWait(pass);
            if (waitOrProbe(pass, wait)) break;
        }
        std::lock_guard lock(shared_->mutex);
        shared_->done = true;
        shared_->finished.notify_all();
    }

private:
    struct Pass {
        bool failed = false;          // the network or the log: retry with backoff
        bool refusedWaiting = false;  // a game the club refused still waits
        bool unreachable = false;     // failed for the network (transient), not a refusal
    };

    // Waits `wait` (or a notify, or stop()); after the network failed (not
    // a refusal: a server that refuses the login answers pings), with a
    // probe, in steps of probeEvery, asking the server each step: the first answer
    // ends the wait and the back-off. True when stopping.
    bool waitOrProbe(const Pass& pass, std::chrono::milliseconds wait) {
        const bool probing = pass.unreachable && options_.probe && options_.probeEvery < wait;
        const auto until = std::chrono::steady_clock::now() + wait;
        for (;;) {
            const auto now = std::chrono::steady_clock::now();
            const auto step =
                probing ? std::min<std::chrono::steady_clock::duration>(options_.probeEvery, until - now)
                        : until - now;
            {
                std::unique_lock lock(shared_->mutex);
                shared_->wake.wait_for(lock, step,
                                       [&] { return shared_->stopping || (shared_->woken && !pass.failed); });
                if (shared_->stopping) return true;
                if (shared_->woken && !pass.failed) return false;
            }
            if (std::chrono::steady_clock::now() >= until) return false;
            if (probing && answers()) {
                backoff_ = options_.firstRetry;  // the outage is over
                return false;
            }
        }
    }

    bool answers() {
        try {
            return options_.probe();
        } catch (const std::exception&) {
            return false;
        }
    }

    bool stopping() const {
        std::lock_guard lock(shared_->mutex);
        return shared_->stopping;
    }
    template <class Change>
    void note(Change&& change) {
        std::lock_guard lock(shared_->mutex);
        change(shared_->state);
    }

    // One pass over the outbox, its failures caught and told in the state.
    Pass tryPass() {
        Pass pass;
        current_.reset();
        try {
            pushWaiting(pass);
        } catch (const ClubError& e) {
            pass.failed = true;
            pass.unreachable = e.transient();
            link_.reset();  // a new connection next time
            // Refused credentials or database: retrying soon will not help.
            if (!e.transient()) backoff_ = options_.maxRetry;
            countFailure(e.what());
            failedWith(e.what(), !e.transient());
        } catch (const std::exception& e) {
            pass.failed = true;
            link_.reset();
            failedWith(e.what(), false);
        }
        return pass;
    }

    void pushWaiting(Pass& pass) {
        if (!log_)
            log_ = std::make_unique<store::GameStore>(options_.log, store::GameStore::Access::MustExist);
        auto queue = log_->club().waiting();
        const auto now = wallNow();
        note([&](OutboxPusherState& s) {
            s.waiting = static_cast<std::int64_t>(queue.size());
            s.membersFetched = log_->club().membersFetchedAt();
        });
        // A game the club refused is tried again only after refusedRetry.
        std::erase_if(queue, [&](const store::OutboxEntry& e) {
            const bool later = e.permanent && e.lastAttempt && now - *e.lastAttempt < options_.refusedRetry;
            pass.refusedWaiting = pass.refusedWaiting || later;
            return later;
        });
        const bool membersWanted = std::chrono::steady_clock::now() >= membersDue_;
        if (queue.empty() && !membersWanted) return;
        if (!link_) {
            link_ = makeLink_();
            membersDue_ = {};
        }
        fetchMembersIfDue();
        for (const auto& entry : queue) {
            if (stopping()) break;
            pushOne(entry, pass);
        }
    }

    void fetchMembersIfDue() {
        if (std::chrono::steady_clock::now() < membersDue_) return;
        log_->club().replaceMembers(link_->members(), wallNow());
        membersDue_ = std::chrono::steady_clock::now() + options_.membersEvery;
        note([&](OutboxPusherState& s) {
            s.membersFetched = wallNow();
            s.lastError.clear();
        });
    }

    // A transient failure propagates (the pass ends); a refusal is kept
    // with its reason, and the others go on.
    void pushOne(const store::OutboxEntry& entry, Pass& pass) {
        current_ = entry.game;
        const auto upload = uploadOf(*log_, entry.game, options_.table);
        // A game whose record does not replay to its own scores never
        // leaves the table: it waits as refused, with what differs.
        std::optional<std::string> notSent;
        if (auto differs = gameMismatch(upload))
            notSent = "its record does not replay to the scores and winners logged: " + *differs;
        try {
            if (notSent) throw ClubError(*notSent, false);
            (void)link_->push(upload);
        } catch (const ClubError& e) {
            if (e.transient()) throw;
            log_->club().recordFailure(entry.game, e.what(), true, wallNow());
            pass.refusedWaiting = true;
            note([&](OutboxPusherState& s) {
                s.lastAttempt = wallNow();
                s.lastError =
                    (notSent
                         ? std::string("game ") + std::to_string(entry.game.value) + " is not sent: "
                         : std::string("the club refused game ") + std::to_string(entry.game.value) + ": ") +
                    e.what();
                s.refused = true;
            });
            current_.reset();
            return;
        }
        // Only now: a crash before this line leaves it queued, and the next
        // push of the same uid answers AlreadyThere.
        log_->club().markPushed(entry.game, wallNow());
        current_.reset();
        note([&](OutboxPusherState& s) {
            s.waiting = std::max<std::int64_t>(0, s.waiting - 1);
            ++s.pushed;
            s.lastSuccess = wallNow();
            s.lastAttempt = s.lastSuccess;
            if (!pass.refusedWaiting) {
                s.lastError.clear();
                s.refused = false;
            }
        });
    }

    // A failed attempt counted in the log: on the game being pushed, else
    // on the oldest waiting.
    void countFailure(const std::string& why) {
        try {
            if (!log_) return;
            const auto queue = log_->club().waiting();
            if (current_ || !queue.empty())
                log_->club().recordFailure(current_ ? *current_ : queue.front().game, why, false, wallNow());
        } catch (const std::exception&) {
            // The log is busy or full: the state still says why.
        }
    }

    void failedWith(const std::string& why, bool refused) {
        note([&](OutboxPusherState& s) {
            s.lastAttempt = wallNow();
            s.lastError = why;
            s.refused = refused;
        });
    }

    // How long until the next pass (the state says when), the backoff moved on.
    std::chrono::milliseconds nextWait(const Pass& pass) {
        std::chrono::milliseconds wait = options_.membersEvery;
        if (pass.failed) {
            wait = backoff_;
            backoff_ = std::min(backoff_ * 2, options_.maxRetry);
        } else {
            backoff_ = options_.firstRetry;
            if (pass.refusedWaiting) wait = std::min(wait, options_.refusedRetry);
        }
        try {
            if (log_) {
                const auto waiting = static_cast<std::int64_t>(log_->club().waiting().size());
                note([&](OutboxPusherState& s) { s.waiting = waiting; });
            }
        } catch (const std::exception&) {
        }
        note([&](OutboxPusherState& s) { s.nextTry = wallNow() + wait; });
        return wait;
    }

    std::shared_ptr<Shared> shared_;
    OutboxPusherOptions options_;
    LinkFactory makeLink_;
    std::unique_ptr<store::GameStore> log_;
    std::unique_ptr<ClubLink> link_;
    // When the members are fetched again; the clock's epoch (long past): at
    // the next connection.
    std::chrono::steady_clock::time_point membersDue_{};
    std::chrono::milliseconds backoff_;
    std::optional<store::GameId> current_;  // the game being pushed
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
    thread_ =
        std::thread([worker = std::make_shared<Worker>(shared_, options_, makeLink_)] { worker->run(); });
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

}  // namespace vivaref::club
