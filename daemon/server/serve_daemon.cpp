#include "daemon/server/serve_daemon.hpp"

#include <csignal>
#include <optional>
#include <ostream>
#include <sstream>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <sys/resource.h>

#include "daemon/castle/loop_clock.hpp"
#include "daemon/castle/real_castle.hpp"
#include "daemon/castle/simulated_castle.hpp"
#include "daemon/club/club_link_factory.hpp"
#include "daemon/club/league_reader.hpp"
#include "daemon/server/auth_throttle.hpp"
#include "daemon/server/host_check.hpp"
#include "daemon/server/host_link.hpp"
#include "daemon/server/host_secret.hpp"
#include "daemon/server/league_routes.hpp"
#include "daemon/server/systemd_notifier.hpp"
#include "daemon/server/table_core.hpp"
#include "daemon/server/table_loop.hpp"
#include "daemon/server/web_server.hpp"
#include "daemon/store/store_error.hpp"

namespace vivaref::server {

namespace net = boost::asio;
using boost::system::error_code;

namespace {

std::string urlOf(const net::ip::tcp::endpoint& endpoint) {
    std::ostringstream url;
    url << "http://";
    if (endpoint.address().is_v6())
        url << '[' << endpoint.address().to_string() << ']';
    else
        url << endpoint.address().to_string();
    url << ':' << endpoint.port() << '/';
    return url.str();
}

// The table loop on the io_context: a steady_timer wakes it when it says
// it is next due (a reader's field or inventory, a debounce, an LED phase, a
// deadline of the referee), and each of the castle's descriptors (a vote
// key's line) is watched for edges. The descriptors stay the castle's
// (released, never closed, here).
class LoopOnAsio {
public:
    LoopOnAsio(net::io_context& io, TableLoop& loop, const castle::SteadyLoopClock& clock)
        : timer_(io), loop_(loop), clock_(clock) {
        for (int fd : loop.keyDescriptors()) {
            keys_.push_back(std::make_unique<net::posix::stream_descriptor>(io, fd));
            retries_.push_back(std::make_unique<net::steady_timer>(io));
        }
    }
    ~LoopOnAsio() {
        for (auto& key : keys_) (void)key->release();
    }
    LoopOnAsio(const LoopOnAsio&) = delete;
    LoopOnAsio& operator=(const LoopOnAsio&) = delete;

    void start() {
        for (std::size_t k = 0; k < keys_.size(); ++k) watch(k);
        wake();
    }
    void stop() {
        stopped_ = true;
        timer_.cancel();
        for (auto& key : keys_) key->cancel();
        for (auto& retry : retries_) retry->cancel();
    }

private:
    void watch(std::size_t k) {
        keys_[k]->async_wait(net::posix::stream_descriptor::wait_read, [this, k](const error_code& error) {
            if (error || stopped_) return;
            if (loop_.keyReadable(keys_[k]->native_handle())) return watch(k);
            // A line that cannot be read stays readable: a second before trying it again.
            retries_[k]->expires_after(std::chrono::seconds(1));
            retries_[k]->async_wait([this, k](const error_code& e) {
                if (!e && !stopped_) watch(k);
            });
        });
    }
    void wake() {
        const auto next = loop_.step();
        timer_.expires_at(clock_.startedAt() + next);
        timer_.async_wait([this](const error_code& error) {
            if (!error && !stopped_) wake();
        });
    }

    net::steady_timer timer_;
    TableLoop& loop_;
    const castle::SteadyLoopClock& clock_;
    std::vector<std::unique_ptr<net::posix::stream_descriptor>> keys_;
    std::vector<std::unique_ptr<net::steady_timer>> retries_;
    bool stopped_ = false;
};

// The background analysis on the io_context: one piece at a time, each
// posted, so that whatever became ready for the table (a timer, a key, a
// request) runs before the next piece; a timer for the next slice. While
// the table has had something to do within `quietFor`, no piece runs.
class AnalysisOnAsio {
public:
    AnalysisOnAsio(net::io_context& io, analysis::BackgroundAnalysis& background, const TableCore& table,
                   const castle::SteadyLoopClock& clock, std::chrono::milliseconds quietFor)
        : io_(io), timer_(io), background_(background), table_(table), clock_(clock), quietFor_(quietFor) {}
    AnalysisOnAsio(const AnalysisOnAsio&) = delete;
    AnalysisOnAsio& operator=(const AnalysisOnAsio&) = delete;

    void start() { later(background_.nextDue()); }
    void stop() {
        stopped_ = true;
        timer_.cancel();
    }

private:
    void run() {
        if (stopped_) return;
        const auto quietSince = table_.lastActivity() + quietFor_;
        if (clock_.now() < quietSince) {
            (void)background_.runPiece(false);
            return later(std::max(background_.nextDue(), std::chrono::microseconds(quietSince)));
        }
        if (background_.runPiece(true)) {
            net::post(io_, [this] { run(); });
            return;
        }
        later(background_.nextDue());
    }
    void later(std::chrono::microseconds at) {
        timer_.expires_at(clock_.startedAt() + at);
        timer_.async_wait([this](const error_code& error) {
            if (!error) run();
        });
    }

    net::io_context& io_;
    net::steady_timer timer_;
    analysis::BackgroundAnalysis& background_;
    const TableCore& table_;
    const castle::SteadyLoopClock& clock_;
    std::chrono::milliseconds quietFor_;
    bool stopped_ = false;
};

// The game log, created if missing; null after saying why on `err`.
std::unique_ptr<store::GameStore> openStore(const ServeSettings& settings, std::ostream& err) {
    try {
        if (settings.database.has_parent_path())
            std::filesystem::create_directories(settings.database.parent_path());
        auto store =
            std::make_unique<store::GameStore>(settings.database, store::GameStore::Access::CreateIfMissing);
        store->readers().setRawScansKept(settings.rawScansKept);
        // A damaged log is not played on (one line for the journal, and what to do).
        if (const auto damage = store->damage(store::GameStore::Check::Quick, 3); !damage.empty()) {
            err << "vivaref serve: not started: " << store::damagedLogAdvice(settings.database, damage)
                << "\n";
            return nullptr;
        }
        return store;
    } catch (const std::exception& e) {
        err << "vivaref serve: " << e.what() << "\n";
        return nullptr;
    }
}

// The rig of the real castle: its readers' layout and its enrolled tags,
// the referee's knobs from `rig`. Throws when tags.json cannot be read.
simulation::RigOptions realCastleRig(const config::CastleConfig& castle, const simulation::RigOptions& rig,
                                     std::ostream& err) {
    drivers::TagRegistry tags = castle::enrolledTags(castle);
    if (tags.size() == 0)
        err << "vivaref serve: no tag is enrolled for the " << config::castleEditionName(castle.edition)
            << " edition in " << castle.tagRegistryPath().string()
            << ": every tag is unknown until 'vivaref enrol' runs\n";
    simulation::RigOptions real = realRigOptions(castle, std::move(tags));
    real.referee = rig.referee;
    real.settleFor = rig.settleFor;
    real.finishLimit = rig.finishLimit;
    real.onNotice = rig.onNotice;
    return real;
}

// The castle `settings` name: the real one (its rig, readers' layout and
// enrolled tags, into `rig`), or the simulated one (which offers hands,
// castle::HandOffer). Null after saying why on `err`.
std::unique_ptr<castle::Castle> openCastle(const ServeSettings& settings,
                                           const castle::SteadyLoopClock& clock, simulation::RigOptions& rig,
                                           std::ostream& err) {
    try {
        if (const auto& real = settings.realCastle) {
            rig = realCastleRig(*real, rig, err);
            castle::RealCastleOptions options;
            options.edgeClockAtZero =
                std::chrono::duration_cast<Timestamp>(clock.startedAt().time_since_epoch());
            return std::make_unique<castle::RealCastle>(*real, clock, castle::RealDevices{}, options);
        }
        drivers::BoardLayout layout = rig.layout ? *rig.layout : drivers::standardBoardLayout();
        // A configuration's field rule, max_fields_on and backoff, as its real castle would take them.
        castle::SimulatedCastleOptions options =
            settings.simulatedCastle ? castle::simulatedCastleOptions(*settings.simulatedCastle, layout)
                                     : castle::SimulatedCastleOptions{};
        options.board.seed = rig.referee.seed;
        options.stabilityWindow = rig.sensing.stabilityWindow;
        return std::make_unique<castle::SimulatedCastle>(std::move(layout), clock, std::move(options));
    } catch (const std::exception& e) {
        err << "vivaref serve: " << e.what() << "\n";
        return nullptr;
    }
}

// Where the pages are (on `out`), and what the host should know (on `err`).
// `real`: the real castle, or null for the simulated one.
void announce(const ServeSettings& settings, const std::string& url, const WebServer& web,
              const castle::Castle* real, std::ostream& out, std::ostream& err) {
    const StaticFiles& files = web.files();
    if (!files.rootExists())
        err << "vivaref serve: the web page's folder " << files.root()
            << " is missing: only the API answers\n";
    if (real)
        out << "vivaref serve: listening on " << url << " (real castle: " << real->layout().readerCount()
            << " readers)" << std::endl;
    else
        out << "vivaref serve: listening on " << url << " (simulated castle: " << url << "sim.html)"
            << std::endl;
    // What a person opens: the listening address, or this machine's name
    // when serve listens on every interface.
    const std::string people = castleUrl(settings.listen.address().to_string(), web.localEndpoint().port());
    if (settings.hostSecretFile.empty()) {
        out << "vivaref serve: the host's page: " << people
            << "host.html (unlocked with the configuration's host_token)" << std::endl;
        return;
    }
    out << "vivaref serve: the host's link (open it on the host's phone or laptop only; it unlocks the "
           "host's "
           "page on that device): "
        << hostLink(people, settings.hostToken) << std::endl;
    if (!real)
        out << "vivaref serve: the simulated castle with the host's secret: "
            << simLink(people, settings.hostToken) << std::endl;
    out << "vivaref serve: the secret is kept in " << settings.hostSecretFile.string()
        << "; 'vivaref host-link' prints the link again" << std::endl;
}

}  // namespace

// The host's token: the configuration's, else the host secret of the state
// directory (made now at the first start). Empty after saying why on `err`.
std::string hostTokenOf(ServeSettings& settings, std::ostream& err) {
    if (!settings.hostToken.empty()) return settings.hostToken;
    if (settings.hostSecretDirectory.empty()) {
        err << "vivaref serve: no host token and no state directory for the host secret\n";
        return {};
    }
    try {
        const auto secret = loadOrCreateHostSecret(settings.hostSecretDirectory);
        if (!secret.warning.empty()) err << "vivaref serve: " << secret.warning << "\n";
        if (secret.created)
            err << "vivaref serve: made a new host secret in " << secret.file.string() << "\n";
        settings.hostSecretFile = secret.file;
        return secret.token;
    } catch (const std::exception& e) {
        err << "vivaref serve: " << e.what() << "\n";
        return {};
    }
}

int serveCastle(const ServeSettings& given, std::ostream& out, std::ostream& err) {
    ServeSettings settings = given;
    // The log first: without it no game may start.
    const std::unique_ptr<store::GameStore> store = openStore(settings, err);
    if (!store) return 2;

    // The club: games that end from now on are queued with their end, and
    // pushed by a thread of their own (a slow club never holds the table).
    std::unique_ptr<club::OutboxPusher> pusher;
    if (settings.club) {
        club::OutboxPusher::LinkFactory link = settings.clubLink;
        if (!link) {
            std::string conninfo;
            try {
                conninfo = config::clubConninfo(*settings.club);
            } catch (const std::exception& e) {
                err << "vivaref serve: not started: " << e.what() << "\n";
                return 2;
            }
            link = [conninfo, table = settings.club->table] { return club::makeClubLink(conninfo, table); };
        }
        club::OutboxPusherOptions pushing;
        pushing.log = settings.database;
        pushing.table = settings.club->table;
        pushing.server = settings.club->serverText();
        pushing.firstRetry = settings.clubFirstRetry;
        store->setClubConfigured(true);
        pusher = std::make_unique<club::OutboxPusher>(std::move(pushing), std::move(link));
    }

    // The castle: the real one the configuration names, or the simulated one.
    net::io_context io;
    // The league's pages ([club] league_user / league_password_file): read
    // through the club's read-only role by a thread of their own, answers
    // posted back to the loop. Made after the loop, so gone before it.
    std::unique_ptr<club::LeagueReader> league;
    if (settings.club && settings.club->league) {
        club::LeagueReaderOptions reading;
        try {
            reading.conninfo = config::leagueConninfo(*settings.club);
        } catch (const std::exception& e) {
            err << "vivaref serve: not started: " << e.what() << "\n";
            return 2;
        }
        reading.database = settings.club->database;
        league = makeLeagueReader(io, std::move(reading));
    }
    castle::SteadyLoopClock clock;
    simulation::RigOptions rig = settings.rig;
    // The journal hears once when the log stops saving and once when it saves again.
    rig.onNotice = [&err, &pusher, given = std::move(rig.onNotice)](const referee::Notice& notice) {
        if (notice.kind == "log-problem" || notice.kind == "log-ok")
            err << "vivaref serve: " << notice.text << std::endl;
        // A game ended (its outbox row with it), or rows that waited reached the disk.
        if (pusher && (notice.kind == "game-over" || notice.kind == "abandoned" || notice.kind == "log-ok"))
            pusher->notify();
        if (given) given(notice);
    };
    const std::unique_ptr<castle::Castle> castle = openCastle(settings, clock, rig, err);
    if (!castle) return 2;
    // The simulated castle's hands (sim.html's puts, lifts and presses); none on a real castle.
    castle::HandOffer* const hands = castle::offerOf<castle::HandOffer>(*castle);
    // No configuration leaves the host's controls open.
    settings.hostToken = hostTokenOf(settings, err);
    if (settings.hostToken.empty()) return 2;

    // The table on it: the referee behind the rig, stepped with the castle by one loop.
    rig.referee.wallAtZero =
        std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
    const auto wallAtZero = rig.referee.wallAtZero;
    TableCore table(clock, store.get(), std::move(rig), hands);
    table.setClubPusher(pusher.get());
    // Finished games analysed in the gaps of the table's work, at a bounded share of a core.
    std::unique_ptr<analysis::BackgroundAnalysis> background;
    if (settings.analysisShare > 0) {
        analysis::BackgroundAnalysisOptions analysisOptions;
        analysisOptions.share = std::min(settings.analysisShare, 1.0);
        analysisOptions.slice = settings.analysisSlice;
        analysisOptions.settings.iterations = settings.analysisIterations;
        analysisOptions.wallAtZero = wallAtZero;
        analysisOptions.onNote = [&err](const std::string& note) {
            err << "vivaref serve: " << note << std::endl;
        };
        background =
            std::make_unique<analysis::BackgroundAnalysis>(*store, clock, std::move(analysisOptions));
        table.setBackgroundAnalysis(background.get());
    }
    TableLoopOptions loopOptions;
    loopOptions.onProblem = [&err](const std::string& problem) {
        err << "vivaref serve: " << problem << "\n";
    };
    TableLoop loop(*castle, table, clock, std::move(loopOptions));
    if (auto resumed = table.resumeUnfinished()) {
        if (resumed->ok)
            err << "vivaref serve: resumed game " << (resumed->game ? resumed->game->value : 0)
                << " from the log; the board is guided back to its last position\n";
        else
            err << "vivaref serve: could not resume the unfinished game: " << resumed->message << "\n";
    }

    // Tag enrolment from the host's page, fed with the table's raw scans.
    HostEnrolment enrolment(settings.enrolment);
    const int scanListener =
        table.onRawScan([&enrolment](const std::string& reader, const drivers::ScanResult& result,
                                     Timestamp at) { enrolment.onScan(reader, result, at); });

    WebServerOptions options;
    options.router.enrol = [&enrolment](std::string_view action, const nlohmann::json& body,
                                        bool gameInProgress) {
        return enrolment.request(action, body, gameInProgress);
    };
    // Clients may not take the descriptors the log and the castle need.
    options.limits = settings.limits;
    if (rlimit files{}; ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY) {
        options.limits = withinDescriptors(settings.limits, static_cast<std::size_t>(files.rlim_cur));
        if (options.limits.maxConnections < settings.limits.maxConnections)
            err << "vivaref serve: the file descriptor limit (" << files.rlim_cur << ") allows "
                << options.limits.maxConnections << " connections at once, not "
                << settings.limits.maxConnections << " (" << kDescriptorsKept
                << " are kept for the game log and the castle; raise LimitNOFILE= for more)\n";
    }
    options.router.hostToken = settings.hostToken;
    options.router.version = settings.version;
    // Only the castle's own names and addresses are answered (DNS rebinding),
    // and wrong host secrets slow their address down.
    options.router.hostNames = std::make_shared<HostCheck>(settings.listen.address(), settings.httpNames);
    options.router.throttle = std::make_shared<AuthThrottle>(AuthThrottleOptions{}, &err);
    options.webRoot = settings.webRoot;
    if (league) options.router.league = leagueRoutes(*league);
    WebServer web(io, table, options);
    try {
        web.listen(settings.listen);
    } catch (const std::exception& e) {
        err << "vivaref serve: " << e.what() << "\n";
        return 2;
    }
    const std::string url = urlOf(web.localEndpoint());
    announce(settings, url, web, hands ? nullptr : castle.get(), out, err);

    SystemdNotifier systemd(io);
    std::string lastStatus = table.summaryLine();
    const int statusListener = table.onChange([&] {
        if (auto line = table.summaryLine(); line != lastStatus) {
            lastStatus = line;
            systemd.status(line);
        }
    });

    LoopOnAsio onAsio(io, loop, clock);
    std::optional<AnalysisOnAsio> analysisOnAsio;
    if (background) analysisOnAsio.emplace(io, *background, table, clock, settings.analysisQuietFor);
    net::signal_set signals(io, SIGTERM, SIGINT);
    int signalled = 0;
    signals.async_wait([&](const error_code& error, int number) {
        if (error) return;
        signalled = number;
        systemd.stopping();
        onAsio.stop();
        if (analysisOnAsio) analysisOnAsio->stop();
        web.stop();
        io.stop();
    });

    loop.start();  // every reader reset and checked: bounded, before the loop runs
    onAsio.start();
    if (analysisOnAsio) analysisOnAsio->start();
    if (pusher) {
        pusher->start();
        err << "vivaref serve: finished games go to the club at " << settings.club->serverText()
            << " as table " << settings.club->table << "\n";
    }
    systemd.ready("listening on " + url + "; " + lastStatus);
    systemd.startWatchdog();
    io.run();
    // A push in flight is abandoned (its game stays queued for the next start).
    if (pusher) pusher->stop();
    table.removeListener(statusListener);
    table.removeRawScanListener(scanListener);

    // Every decision was written before it was shown; what waits in memory
    // (a full disk: trace lines) gets one more try.
    const auto health = store->flush();
    if (!health.durable) {
        err << "vivaref serve: stopped (" << (signalled == SIGINT ? "SIGINT" : "SIGTERM")
            << ") with the game log unsaved: " << health.problem << ". Lost: " << store->describeWaiting()
            << " (no decision: none is shown before it is saved)\n";
        return 1;
    }
    err << "vivaref serve: stopped (" << (signalled == SIGINT ? "SIGINT" : "SIGTERM")
        << "), the game log is saved\n";
    return 0;
}

}  // namespace vivaref::server
