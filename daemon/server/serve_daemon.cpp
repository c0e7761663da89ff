#include "daemon/server/serve_daemon.hpp"

#include <csignal>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <sys/resource.h>

#include "daemon/castle/real_castle.hpp"
#include "daemon/castle/simulated_castle.hpp"
#include "daemon/castle/speaker_offer.hpp"
#include "daemon/club/club_link_factory.hpp"
#include "daemon/club/league_reader.hpp"
#include "daemon/config/config_writer.hpp"
#include "daemon/server/auth_throttle.hpp"
#include "daemon/server/castle_report.hpp"
#include "daemon/server/host_check.hpp"
#include "daemon/server/host_link.hpp"
#include "daemon/server/host_secret.hpp"
#include "daemon/server/host_self_test.hpp"
#include "daemon/server/host_setup.hpp"
#include "daemon/server/league_routes.hpp"
#include "daemon/server/qr_svg.hpp"
#include "daemon/server/service_relay.hpp"
#include "daemon/server/systemd_notifier.hpp"
#include "daemon/server/table_addresses.hpp"
#include "daemon/server/table_core.hpp"
#include "daemon/server/table_loop.hpp"
#include "daemon/server/web_server.hpp"
#include "daemon/store/store_error.hpp"
#include "daemon/words/catalog.hpp"
#include "daemon/words/message_json.hpp"
#include "drivers/audio/espeak_speech.hpp"
#include "drivers/time/loop_clock.hpp"

namespace vivaref::server {

namespace net = boost::asio;
using boost::system::error_code;

namespace {

// A part of the daemon that cannot be made: serve does not start (exit 2),
// and says why on one line.
struct NotStarted : std::runtime_error {
    using std::runtime_error::runtime_error;
};

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
    LoopOnAsio(net::io_context& io, TableLoop& loop, const drivers::SteadyLoopClock& clock)
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
    // The keys' descriptors are released here, not at destruction: a castle
    // made after this one may get the same descriptor numbers.
    void stop() {
        stopped_ = true;
        timer_.cancel();
        for (auto& key : keys_) (void)key->release();
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
    const drivers::SteadyLoopClock& clock_;
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
                   const drivers::SteadyLoopClock& clock, std::chrono::milliseconds quietFor)
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
    const drivers::SteadyLoopClock& clock_;
    std::chrono::milliseconds quietFor_;
    bool stopped_ = false;
};

// The voice's speaker as the configuration says (ServeSettings::voice):
// espeak-ng on the real castle (or wherever output = espeak), the castle's
// own speaker otherwise (the simulated castle's silent recorder), or none.
// espeak-ng that does not start is shown on the host page (and said on `err`
// when the voice is on); serve goes on without a speaker. It is opened at
// start even with the voice off (10 to 20 ms here, with every language's
// voice looked up), so that the host can turn it on without a pause in the loop.
struct Speaker {
    std::unique_ptr<drivers::EspeakSpeech> espeak;
    drivers::SpeechOut* out = nullptr;
    std::string kind = "none";
    std::string problem;
};

Speaker openSpeaker(const ServeSettings& settings, castle::Castle& castle, const drivers::LoopClock& clock,
                    std::ostream& err) {
    Speaker speaker;
    const auto output = settings.voice.output;
    if (output == config::VoiceOutput::None) return speaker;
    const bool espeak =
        output == config::VoiceOutput::Espeak || (output == config::VoiceOutput::Auto && settings.realCastle);
    if (!espeak) {
        if (auto* offer = castle::offerOf<castle::SpeakerOffer>(castle)) {
            speaker.out = &offer->speaker();
            speaker.kind = "simulated";
        }
        return speaker;
    }
    speaker.kind = "espeak";
    drivers::EspeakSpeechConfig config;
    config.pcm = settings.voice.pcm;
    config.alsaConfig = settings.voiceAlsaConfig;
    config.languages.clear();
    for (const auto& language : words::shippedLanguages()) config.languages.push_back({language});
    config.volume = settings.voice.settings.volume;
    auto opened = drivers::EspeakSpeech::open(config, clock);
    if (!opened.speech) {
        // Said in the journal when the voice is meant to speak; the host page
        // shows it either way (the host may turn the voice on later).
        speaker.problem = opened.error;
        if (settings.voice.settings.enabled)
            err << "vivaref serve: the voice is silent: " << opened.error << "\n";
        return speaker;
    }
    if (!opened.speech->missingVoices().empty()) {
        std::string missing;
        for (const auto& l : opened.speech->missingVoices()) missing += (missing.empty() ? "" : ", ") + l.tag;
        speaker.problem = "espeak-ng has no voice for " + missing;
        err << "vivaref serve: the voice: " << speaker.problem << "\n";
    }
    speaker.espeak = std::move(opened.speech);
    speaker.out = speaker.espeak.get();
    return speaker;
}

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

// The table's knobs for the real castle: its enrolled tags and its sensing
// knobs; the referee's from `given`. Throws when tags.json cannot be read.
table::TableOptions realCastleTable(const config::CastleConfig& castle, table::TableOptions given,
                                    std::ostream& err) {
    given.registry = castle::enrolledTags(castle);
    if (given.registry->size() == 0)
        err << "vivaref serve: no tag is enrolled for the " << config::castleEditionName(castle.edition)
            << " edition in " << castle.tagRegistryPath().string()
            << ": every tag is unknown until 'vivaref enrol' runs\n";
    given.sensing = castle.sensing;
    return given;
}

// The castle `settings` name: the real one (its enrolled tags and sensing
// knobs go into `options`), or the simulated one (which offers hands,
// castle::HandOffer). Throws NotStarted.
std::unique_ptr<castle::Castle> openCastle(const ServeSettings& settings,
                                           const drivers::SteadyLoopClock& clock,
                                           table::TableOptions& options, std::ostream& err) {
    // A seat votes with its station where the castle has one, else on its
    // player's phone (issue 35): a real castle's configured stations; a
    // simulated castle's page has every seat's keys, unless its
    // configuration names the stations it simulates.
    if (settings.realCastle)
        options.referee.stationSeats = castle::stationSeats(*settings.realCastle);
    else if (settings.simulatedCastle && !settings.simulatedCastle->stations.empty())
        options.referee.stationSeats = castle::stationSeats(*settings.simulatedCastle);
    try {
        if (const auto& real = settings.realCastle) {
            options = realCastleTable(*real, std::move(options), err);
            castle::RealCastleOptions castleOptions;
            castleOptions.edgeClockAtZero =
                std::chrono::duration_cast<Timestamp>(clock.startedAt().time_since_epoch());
            return std::make_unique<castle::RealCastle>(*real, clock, castle::RealDevices{}, castleOptions);
        }
        // A configuration's readers (the standard board when it names none), and
        // its field rule, max_fields_on and backoff, as its real castle would
        // take them: the simulated castle of a configuration scans as that
        // castle does, as `vivaref simulate --config` replays it.
        drivers::BoardLayout layout = settings.simulatedCastle
                                          ? castle::realBoardLayout(*settings.simulatedCastle)
                                          : drivers::standardBoardLayout();
        castle::SimulatedCastleOptions castleOptions =
            settings.simulatedCastle ? castle::simulatedCastleOptions(*settings.simulatedCastle, layout)
                                     : castle::SimulatedCastleOptions{};
        castleOptions.board.seed = options.referee.seed;
        castleOptions.bench = settings.simBench ? &*settings.simBench : nullptr;
        castleOptions.stabilityWindow = options.sensing.stabilityWindow;
        return std::make_unique<castle::SimulatedCastle>(std::move(layout), clock, std::move(castleOptions));
    } catch (const std::exception& e) {
        throw NotStarted(e.what());
    }
}

// Which address phones at the table open, on one line (two when serve
// listens on 127.0.0.1 only, or the machine has no network yet: why phones
// cannot reach it, and what to do).
void announceTable(const TableAddresses& table, std::uint16_t port, std::ostream& out) {
    const std::string first = tableUrl(table.hosts.front(), port);
    if (table.loopbackOnly) {
        out << "vivaref serve: only this computer opens " << first
            << ": phones cannot reach it. To open the castle to the table, listen on every interface: "
               "--listen 0.0.0.0:"
            << port << " (http_address = 0.0.0.0 in the configuration; VIVAREF_LISTEN=0.0.0.0:" << port
            << " for .ci/dev run)" << std::endl;
        return;
    }
    if (table.noNetwork) {
        out << "vivaref serve: this computer has no network address a phone could reach yet (connect it to "
               "the table's network); meanwhile "
            << first << " opens on this computer" << std::endl;
        return;
    }
    out << "vivaref serve: phones on the table's network open " << first;
    if (table.hosts.size() > 1) {
        out << " (or";
        for (std::size_t i = 1; i < table.hosts.size(); ++i)
            out << (i > 1 ? ", " : " ") << tableUrl(table.hosts[i], port);
        out << ")";
    }
    out << std::endl;
}

// Where the pages are (on `out`), and what the host should know (on `err`).
// `real`: the real castle, or null for the simulated one.
void announce(const ServeSettings& settings, const std::string& url, const WebServer& web,
              const castle::Castle* real, std::ostream& out, std::ostream& err) {
    const StaticFiles& files = web.files();
    if (!files.rootExists())
        err << "vivaref serve: the web page's folder " << files.root()
            << " is missing: only the API answers\n";
    // What a person opens: the listening address, or this machine's
    // addresses on the table's network when serve listens on every interface.
    const std::uint16_t port = web.localEndpoint().port();
    const TableAddresses table = tableAddressesNow(settings.listen.address());
    const std::string people = tableUrl(table.hosts.front(), port);
    if (real)
        out << "vivaref serve: listening on " << url << " (real castle: " << real->layout().readerCount()
            << " readers)" << std::endl;
    else
        out << "vivaref serve: listening on " << url << " (simulated castle: " << people << "sim.html)"
            << std::endl;
    announceTable(table, port, out);
    if (settings.hostSecretFile.empty()) {
        out << "vivaref serve: the host's page: " << people
            << "host.html (unlocked with the configuration's host_token)" << std::endl;
        return;
    }
    out << "vivaref serve: the host's link (open it on the host's phone or laptop only; it unlocks the "
           "host's "
           "page on that device): "
        << hostLink(people, settings.hostToken) << std::endl;
    if (settings.showQr) {
        out << "vivaref serve: the host's link as a QR code, for the host's phone:" << std::endl;
        settings.showQr(qrTerminal(encodeQr(hostLink(people, settings.hostToken))));
    }
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

namespace {

// The club's pusher: the games that end from now on are queued with their
// end, and pushed by a thread of its own (a slow club never holds the
// table). Null: no club.
std::unique_ptr<club::OutboxPusher> clubPusher(const ServeSettings& settings, store::GameStore& store) {
    if (!settings.club) return nullptr;
    club::OutboxPusher::LinkFactory link = settings.clubLink;
    std::function<bool()> probe;
    if (!link) {
        std::string conninfo;
        try {
            conninfo = config::clubConninfo(*settings.club);
        } catch (const std::exception& e) {
            throw NotStarted(std::string("not started: ") + e.what());
        }
        link = [conninfo, table = settings.club->table] { return club::makeClubLink(conninfo, table); };
        probe = [conninfo] { return club::clubServerAnswers(conninfo); };
    }
    club::OutboxPusherOptions pushing;
    pushing.probe = std::move(probe);
    pushing.log = settings.database;
    pushing.table = settings.club->table;
    pushing.server = settings.club->serverText();
    pushing.firstRetry = settings.clubFirstRetry;
    store.setClubConfigured(true);
    return std::make_unique<club::OutboxPusher>(std::move(pushing), std::move(link));
}

// The league's pages ([club] league_user / league_password_file): read
// through the club's read-only role by a thread of their own, answers
// posted back to the loop. Null: no league.
std::unique_ptr<club::LeagueReader> leagueReader(const ServeSettings& settings, net::io_context& io) {
    if (!settings.club || !settings.club->league) return nullptr;
    club::LeagueReaderOptions reading;
    try {
        reading.conninfo = config::leagueConninfo(*settings.club);
    } catch (const std::exception& e) {
        throw NotStarted(std::string("not started: ") + e.what());
    }
    reading.database = settings.club->database;
    return makeLeagueReader(io, std::move(reading));
}

// What the daemon's journal and the club's pusher hear of the referee.
class NoticeLog final : public table::TableObserver {
public:
    NoticeLog(std::ostream& err, club::OutboxPusher* pusher) : err_(err), pusher_(pusher) {}
    void notice(const referee::Notice& notice) override {
        // Once when the log stops saving and once when it saves again.
        if (notice.kind == "log-problem" || notice.kind == "log-ok")
            err_ << "vivaref serve: " << notice.text << std::endl;
        // A game ended (its outbox row with it), or rows that waited reached the disk.
        if (pusher_ && (notice.kind == "game-over" || notice.kind == "abandoned" || notice.kind == "log-ok"))
            pusher_->notify();
    }

private:
    std::ostream& err_;
    club::OutboxPusher* pusher_;
};

// Finished games analysed in the gaps of the table's work, at a bounded
// share of a core. Null: none runs.
std::unique_ptr<analysis::BackgroundAnalysis> backgroundAnalysis(const ServeSettings& settings,
                                                                 store::GameStore& store,
                                                                 const drivers::SteadyLoopClock& clock,
                                                                 store::WallTime wallAtZero,
                                                                 std::ostream& err) {
    if (settings.analysisShare <= 0) return nullptr;
    analysis::BackgroundAnalysisOptions options;
    options.share = std::min(settings.analysisShare, 1.0);
    options.slice = settings.analysisSlice;
    options.settings.iterations = settings.analysisIterations;
    options.wallAtZero = wallAtZero;
    options.onNote = [&err](const std::string& note) { err << "vivaref serve: " << note << std::endl; };
    return std::make_unique<analysis::BackgroundAnalysis>(store, clock, std::move(options));
}

void resumeUnfinished(TableCore& core, std::ostream& err) {
    const auto resumed = core.resumeUnfinished();
    if (!resumed) return;
    if (resumed->ok)
        err << "vivaref serve: resumed game " << (resumed->game ? resumed->game->value : 0)
            << " from the log; the board is guided back to its last position\n";
    else
        err << "vivaref serve: could not resume the unfinished game: " << resumed->message << "\n";
}

// The web server's knobs: the host's token, the pages, the limits (within
// the descriptors the process may open), the host's tag enrolment and the
// league's routes.
WebServerOptions webOptions(const ServeSettings& settings, std::function<HostEnrolment&()> enrolment,
                            std::function<HostSelfTest&()> selfTest, club::LeagueReader* league,
                            std::ostream& err) {
    WebServerOptions options;
    options.router.enrol = [enrolment](std::string_view action, const nlohmann::json& body,
                                       bool gameInProgress) {
        return enrolment().request(action, body, gameInProgress);
    };
    options.router.selfTest = [selfTest](std::string_view action, const nlohmann::json& body,
                                         bool gameInProgress) {
        return selfTest().request(action, body, gameInProgress);
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
    options.router.tableLanguage = settings.language;
    options.router.tableAddresses = [listen = settings.listen.address()] {
        return tableAddressesNow(listen);
    };
    options.router.throttle = std::make_shared<AuthThrottle>(AuthThrottleOptions{}, &err);
    // Behind a reverse proxy the limits and the throttle count the client the
    // proxy names, never the proxy (checked by the configuration already).
    options.proxies = TrustedProxies(settings.trustedProxies);
    if (!options.proxies.empty()) {
        std::string list;
        for (const auto& p : settings.trustedProxies) list += (list.empty() ? "" : ", ") + p;
        err << "vivaref serve: requests from " << list
            << " (trusted_proxies) are counted as the client their X-Forwarded-For names\n";
    }
    options.webRoot = settings.webRoot;
    if (league) options.router.league = leagueRoutes(*league);
    return options;
}

// The part of serve made from the castle's configuration: the castle, the
// table core on its layout, the loop stepping both on the io_context, the
// voice's speaker (the simulated castle's is the castle's own) and the host's
// tag enrolment (of the castle's edition). Made at start, and made again
// between games when the host applies the configuration in force (POST
// /api/host/castle/apply); the rest of serve (the listening socket and the
// pages' event streams, the host's secret, the game log, the club, the
// background analysis) stays. A part that watches the table or the castle
// is made here too, so that it follows a new castle.
struct CastleSide {
    std::unique_ptr<castle::Castle> castle;
    // The Castle page's health and the self-test watch the core's table:
    // declared before it, they outlive it.
    std::unique_ptr<CastleHealth> health;
    CastleWiring wiring;
    std::unique_ptr<HostSelfTest> selfTest;
    std::unique_ptr<TableCore> core;
    std::unique_ptr<TableLoop> loop;
    std::unique_ptr<HostEnrolment> enrolment;
    Speaker speaker;
    std::unique_ptr<LoopOnAsio> onAsio;
    std::unique_ptr<AnalysisOnAsio> analysisOnAsio;
    int scanListener = 0;
    // What the core posts on the io_context (the voice's lines) runs only
    // while this lives: a side taken apart may leave such a handler queued.
    std::shared_ptr<bool> alive = std::make_shared<bool>(true);

    // Every reader reset and checked (bounded), then stepped on the io_context.
    void start() {
        loop->start();
        onAsio->start();
        if (analysisOnAsio) analysisOnAsio->start();
    }
    // No handler of theirs runs any more (those already queued see they are stopped).
    void stop() {
        onAsio->stop();
        if (analysisOnAsio) analysisOnAsio->stop();
    }
};

// What the castle side is made with, besides the settings: the parts of
// serve that stay.
struct ServeParts {
    net::io_context& io;
    const drivers::SteadyLoopClock& clock;
    store::GameStore& store;
    club::OutboxPusher* pusher;
    analysis::BackgroundAnalysis* background;
    table::TableObserver& notices;
    store::WallTime wallAtZero;
    std::ostream& err;
    // The guided set-up: it watches every castle side's table, and shows the LEDs while it checks them.
    HostSetup* setup = nullptr;
};

// What the host chose that a new castle side keeps: the table's language and the voice.
struct HostChoices {
    std::string language;
    voice::VoiceSettings voice;
};

// The castle side of `settings`, not started. Throws NotStarted (a castle that cannot be opened).
std::unique_ptr<CastleSide> makeCastleSide(const ServeSettings& settings, ServeParts& parts,
                                           const HostChoices& choices) {
    auto side = std::make_unique<CastleSide>();
    std::ostream& err = parts.err;
    table::TableOptions options = settings.table;
    // Faults' bench: a simulated castle rebuilt here keeps the physical
    // castle it simulates; the bench is owned by serve, outside the side,
    // and handed to openCastle (issue 36, the faults part).
    side->castle = openCastle(settings, parts.clock, options, err);
    options.referee.wallAtZero = parts.wallAtZero;
    options.onProblem = [&err](const std::string& problem) { err << "vivaref serve: " << problem << "\n"; };
    // The simulated castle's hands (sim.html's puts, lifts and presses); none on a real castle.
    castle::HandOffer* const hands = castle::offerOf<castle::HandOffer>(*side->castle);
    side->core = std::make_unique<TableCore>(parts.clock, &parts.store, side->castle->layout(),
                                             std::move(options), hands);
    TableCore& core = *side->core;
    core.table().attach(parts.notices);
    core.setClubPusher(parts.pusher);
    core.setBackgroundAnalysis(parts.background);
    side->loop = std::make_unique<TableLoop>(*side->castle, core, parts.clock);
    // The table's language and voice: the configuration's, until the host
    // chooses (a resumed game takes back its own language).
    core.setLanguage(choices.language);
    core.setPhoneAwayAfter(settings.phoneAwayAfter);
    core.setVoice(choices.voice);
    side->speaker = openSpeaker(settings, *side->castle, parts.clock, err);
    core.setSpeaker(side->speaker.out, side->speaker.kind, side->speaker.problem,
                    [&err](const std::string& problem) { err << "vivaref serve: " << problem << "\n"; });
    // Lines are rendered and queued after the step that decided, on the loop.
    core.setVoicePost(
        [&io = parts.io, alive = std::weak_ptr<bool>(side->alive)](std::function<void()> speak) {
            net::post(io, [alive, speak = std::move(speak)] {
                if (alive.lock()) speak();
            });
        });
    // The players' links of the game in progress are kept in the state
    // directory beside the host secret, so the resumed game's links work
    // again (issue 35).
    if (!settings.hostSecretDirectory.empty())
        core.keepPlayerLinks(settings.hostSecretDirectory, [&err](const std::string& line) {
            err << "vivaref serve: " << line << std::endl;
        });
    // Tag enrolment from the host's page, fed with the table's raw scans.
    side->enrolment = std::make_unique<HostEnrolment>(settings.enrolment);
    side->scanListener =
        core.onRawScan([enrolment = side->enrolment.get()](const drivers::ReaderId& reader,
                                                           const drivers::ScanResult& result, Timestamp at) {
            enrolment->onScan(reader, result, at);
        });
    // The Castle page's health of every reader (castle_health.hpp): the
    // table's raw scans and key presses, watched as they come.
    side->health = std::make_unique<CastleHealth>(core.table());
    core.table().attach(*side->health);
    side->wiring = settings.realCastle        ? castleWiringOf(*settings.realCastle)
                   : settings.simulatedCastle ? castleWiringOf(*settings.simulatedCastle)
                                              : simulatedWiring();
    // The self-test (the castle walk) on this castle: it watches the table's
    // scans and presses, and takes the LEDs over while it runs.
    side->selfTest = std::make_unique<HostSelfTest>(
        selfTestSettingsFor(settings.realCastle        ? *settings.realCastle
                            : settings.simulatedCastle ? *settings.simulatedCastle
                                                       : config::CastleConfig{},
                            *side->castle),
        parts.clock);
    core.table().attach(*side->selfTest);
    if (parts.setup) core.table().attach(*parts.setup);
    side->loop->setLedOverride([selfTest = side->selfTest.get(), setup = parts.setup] {
        if (setup)
            if (auto leds = setup->leds()) return leds;
        return selfTest->leds();
    });
    side->onAsio = std::make_unique<LoopOnAsio>(parts.io, *side->loop, parts.clock);
    if (parts.background)
        side->analysisOnAsio = std::make_unique<AnalysisOnAsio>(parts.io, *parts.background, core,
                                                                parts.clock, settings.analysisQuietFor);
    return side;
}

// A stopped side taken apart: the castle closed (its lines and devices
// free for the next one) at once; the asio waiters, whose aborted handlers
// may still be queued, once those have run.
void retireCastleSide(std::unique_ptr<CastleSide> side, net::io_context& io) {
    side->stop();
    side->core->removeRawScanListener(side->scanListener);
    side->core->setSpeaker(nullptr, "none", {});
    auto onAsio = std::shared_ptr<LoopOnAsio>(std::move(side->onAsio));
    auto analysisOnAsio = std::shared_ptr<AnalysisOnAsio>(std::move(side->analysisOnAsio));
    net::post(io, [onAsio, analysisOnAsio] {});
    side->alive.reset();
    side->enrolment.reset();
    side->loop.reset();
    side->core.reset();
    side->selfTest.reset();
    side->health.reset();
    side->speaker = {};
    side->castle.reset();
}

// The castle sections of `config` into `settings`, on the hardware it names
// (on serve's own when --hardware fixed it). No castle may be running on
// `settings`' bench when it changes.
void takeCastleSections(ServeSettings& settings, const config::CastleConfig& config) {
    const bool real = settings.hardwareFixed ? settings.realCastle.has_value()
                                             : config.daemon.hardware == config::Hardware::Real;
    if (real) {
        settings.realCastle = config;
        settings.simulatedCastle.reset();
        settings.enrolment.demoPlace.clear();
    } else {
        settings.simulatedCastle = config;
        settings.realCastle.reset();
        settings.enrolment.demoPlace = "0";
        // The bench the configuration names (checked with it), read again only when it names another file.
        const auto& bench = config.daemon.simBench;
        if (bench.empty()) {
            settings.simBench.reset();
        } else if (!settings.simBench || settings.simBench->file != bench) {
            config::ConfigProblems ignored;
            settings.simBench = config::readSimBench(bench, ignored);
        }
    }
    settings.table.sensing = config.sensing;
    settings.enrolment.edition = std::string(config::castleEditionName(config.edition));
    settings.enrolment.where = config.layout().findPlace({std::string(config::kEnrolmentPlace)})
                                   ? engine::Message("enrol.where-enrolment-reader")
                                   : HostEnrolmentSettings{}.where;
}

// After the loop: every decision was written before it was shown; what
// waits in memory (a full disk: trace lines) gets one more try. The exit status.
int stopped(store::GameStore& store, int signalled, std::ostream& err) {
    const char* signal = signalled == SIGINT ? "SIGINT" : "SIGTERM";
    const auto health = store.flush();
    if (!health.durable) {
        err << "vivaref serve: stopped (" << signal << ") with the game log unsaved: " << health.problem
            << ". Lost: " << store.describeWaiting() << " (no decision: none is shown before it is saved)\n";
        return 1;
    }
    err << "vivaref serve: stopped (" << signal << "), the game log is saved\n";
    return 0;
}

}  // namespace

namespace {

ServiceAnswer configRefused(ServiceAnswer::Outcome outcome, const char* code, const std::string& message,
                            const engine::Message& says) {
    ServiceAnswer answer = ServiceAnswer::failed(outcome, code, message);
    answer.body["says"] = words::messageJson(says);
    return answer;
}

}  // namespace

ServiceAnswer configurationInForce(const std::filesystem::path& configFile, config::ConfigInForce& inForce) {
    using Answer = ServiceAnswer::Outcome;
    if (configFile.empty())
        return configRefused(Answer::Unavailable, "castle.config.no-file",
                             "serve runs without --config: there is no configuration to apply",
                             engine::Message("castle.config.no-file"));
    inForce = config::configInForce(configFile);
    if (inForce.check.status != config::ConfigCheck::Status::Valid) {
        const auto& problems = inForce.check.problems;
        const std::string first = problems.empty() ? std::string() : problems.front().text();
        ServiceAnswer answer = configRefused(
            Answer::Refused, "castle.config.problems", "the configuration in force has problems: " + first,
            engine::Message("castle.config.problems",
                            {{"count", engine::say::number(static_cast<std::int64_t>(problems.size()))},
                             {"first", engine::say::text(first)}}));
        answer.body["problems"] = nlohmann::json::array();
        for (const auto& p : problems)
            answer.body["problems"].push_back(
                {{"file", p.file}, {"line", p.line}, {"key", p.key}, {"reason", p.reason}});
        return answer;
    }
    return ServiceAnswer::ok();
}

ServiceAnswer applyCastleConfiguration(const std::filesystem::path& configFile, const nlohmann::json& status,
                                       bool enrolling, bool checking, config::ConfigInForce& inForce) {
    using Answer = ServiceAnswer::Outcome;
    const auto refused = configRefused;
    if (configFile.empty()) return configurationInForce(configFile, inForce);
    const std::string state = status.is_object() ? status.value("state", "") : "";
    if (state == "playing" || state == "paused")
        return refused(Answer::Refused, "castle.config.game-in-progress",
                       "a game is in progress: a configuration is applied between games (finish or abandon "
                       "it first)",
                       engine::Message("castle.config.game-in-progress"));
    if (enrolling)
        return refused(Answer::Refused, "castle.config.enrolling",
                       "tags are being enrolled: stop the enrolment first",
                       engine::Message("castle.config.enrolling"));
    if (checking)
        return refused(Answer::Refused, "castle.config.checking",
                       "the castle is being checked: finish or stop the check first",
                       engine::Message("castle.config.checking"));
    return configurationInForce(configFile, inForce);
}

int serveCastle(const ServeSettings& given, std::ostream& out, std::ostream& err) {
    ServeSettings settings = given;
    // The log first: without it no game may start.
    const std::unique_ptr<store::GameStore> store = openStore(settings, err);
    if (!store) return 2;
    net::io_context io;
    drivers::SteadyLoopClock clock;
    std::unique_ptr<club::OutboxPusher> pusher;
    std::unique_ptr<club::LeagueReader> league;  // made after the loop's io_context, so gone before it
    try {
        pusher = clubPusher(settings, *store);
        league = leagueReader(settings, io);
    } catch (const NotStarted& e) {
        err << "vivaref serve: " << e.what() << "\n";
        return 2;
    }
    // The referee's time 0, on the wall, for every table this run makes.
    const auto wallAtZero =
        std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
    NoticeLog notices(err, pusher.get());
    const auto background = backgroundAnalysis(settings, *store, clock, wallAtZero, err);
    // The guided set-up outlives every castle side (its hooks are given once the first side is made).
    HostSetup hostSetup({}, clock);
    ServeParts parts{io, clock, *store, pusher.get(), background.get(), notices, wallAtZero, err, &hostSetup};

    // The castle, its table and the loop that steps both: the castle side.
    // A castle that did not open, and what runs instead, for the set-up page (none: the one in force runs).
    std::optional<engine::Message> castleProblem;
    // The configuration whose castle runs (the set-up page names it).
    std::filesystem::path runningFile = settings.configFile.empty()
                                            ? std::filesystem::path()
                                            : config::configInForce(settings.configFile).file();
    std::unique_ptr<CastleSide> side;
    try {
        side = makeCastleSide(settings, parts, {settings.language, settings.voice.settings});
    } catch (const NotStarted& e) {
        if (!settings.givenConfig) {
            err << "vivaref serve: " << e.what() << "\n";
            return 2;
        }
        // The set-up's castle.ini did not open (readers not wired yet, SPI off...): the given file's castle
        // runs, so that the host keeps the pages to fix it or put castle.ini aside.
        const auto saved = config::configInForce(settings.configFile).saved;
        err << "vivaref serve: the castle saved by the set-up in " << saved.string()
            << " did not open: " << e.what() << "; running on the castle of " << settings.configFile.string()
            << " instead\n";
        castleProblem = engine::Message("castle.config.saved-not-opened",
                                        {{"file", engine::say::text(saved.string())},
                                         {"why", engine::say::text(e.what())},
                                         {"given", engine::say::text(settings.configFile.string())}});
        takeCastleSections(settings, *settings.givenConfig);
        runningFile = settings.configFile;
        try {
            side = makeCastleSide(settings, parts, {settings.language, settings.voice.settings});
        } catch (const NotStarted& again) {
            err << "vivaref serve: " << again.what() << "\n";
            return 2;
        }
    }
    // No configuration leaves the host's controls open.
    settings.hostToken = hostTokenOf(settings, err);
    if (settings.hostToken.empty()) return 2;
    resumeUnfinished(*side->core, err);

    // The pages talk to the table core of the castle side in use, through the relay.
    ServiceRelay relay;
    relay.attach(*side->core);
    WebServerOptions webSettings = webOptions(
        settings, [&side]() -> HostEnrolment& { return *side->enrolment; },
        [&side]() -> HostSelfTest& { return *side->selfTest; }, league.get(), err);
    // The Castle page's health (castle_report.hpp), of the castle side in use.
    webSettings.router.castle = [&side, &clock = parts.clock] {
        return castleReport(*side->health, side->core->table(), side->castle.get(), side->wiring,
                            clock.now());
    };
    // A set-up saved (config_in_force.hpp) is applied between games: the castle side made again on it.
    int exitStatus = 0;
    // applyInForce(): the one way to apply (the host's route below; a
    // set-up saved by a route of serve's, config::saveCastleConfig over
    // config::configInForce(settings.configFile), is applied with it too).
    // rebuildOn(): the castle side made again on `config`'s castle sections,
    // `label` naming it for the log; back on the castle it replaced when it
    // does not open (an answer not Ok then).
    std::string openFailure;  // why the last castle rebuildOn made did not open
    const std::function<ServiceAnswer(const config::CastleConfig&, const std::string&)> rebuildOn =
        [&](const config::CastleConfig& config, const std::string& label) -> ServiceAnswer {
        // `settings` itself takes the new castle's sections (and back the old
        // ones if it does not open): a castle may keep pointers into it
        // (the simulated castle's bench, which stays the same).
        const ServeSettings previous = settings;
        const HostChoices choices{side->core->language(), side->core->voiceSettings()};
        relay.detach();
        retireCastleSide(std::move(side), io);
        takeCastleSections(settings, config);  // the old castle gone: none runs on the bench it may replace
        std::string why;
        try {
            side = makeCastleSide(settings, parts, choices);
        } catch (const NotStarted& e) {
            why = e.what();
            openFailure = why;
            err << "vivaref serve: " << label << " not applied: " << why
                << "; back on the castle it replaced\n";
            settings.realCastle = previous.realCastle;
            settings.simulatedCastle = previous.simulatedCastle;
            settings.simBench = previous.simBench;
            settings.table = previous.table;
            settings.enrolment = previous.enrolment;
            try {
                side = makeCastleSide(settings, parts, choices);
            } catch (const NotStarted& again) {
                err << "vivaref serve: the castle it replaced does not open again either: " << again.what()
                    << "; stopping\n";
                exitStatus = 2;
                io.stop();
                return ServiceAnswer::failed(ServiceAnswer::Outcome::Unavailable,
                                             "castle.config.apply-failed", why);
            }
        }
        side->start();
        relay.attach(*side->core);
        if (!why.empty()) {
            ServiceAnswer failed =
                ServiceAnswer::failed(ServiceAnswer::Outcome::Refused, "castle.config.apply-failed",
                                      "the castle did not open on it: " + why);
            failed.body["says"] = words::messageJson(
                engine::Message("castle.config.apply-failed", {{"why", engine::say::text(why)}}));
            return failed;
        }
        err << "vivaref serve: applied " << label << " (" << side->castle->layout().readerCount()
            << " readers)\n";
        return ServiceAnswer::ok();
    };
    const std::function<ServiceAnswer()> applyInForce = [&]() -> ServiceAnswer {
        config::ConfigInForce inForce;
        ServiceAnswer answer =
            applyCastleConfiguration(settings.configFile, relay.publicStatus(), side->enrolment->running(),
                                     side->selfTest->running(), inForce);
        if (answer.outcome != ServiceAnswer::Outcome::Ok) return answer;
        ServiceAnswer rebuilt = rebuildOn(inForce.check.config, inForce.file().string());
        if (rebuilt.outcome != ServiceAnswer::Outcome::Ok) {
            // Shown on the set-up page until a castle in force opens.
            castleProblem =
                engine::Message("castle.config.apply-failed", {{"why", engine::say::text(openFailure)}});
            return rebuilt;
        }
        castleProblem.reset();
        runningFile = inForce.file();
        const auto readers = static_cast<std::int64_t>(side->castle->layout().readerCount());
        nlohmann::json body = {{"file", inForce.file().string()},
                               {"saved", inForce.usesSaved},
                               {"why", inForce.why},
                               {"readers", readers}};
        body["says"] = words::messageJson(
            engine::Message("castle.config.applied", {{"file", engine::say::text(inForce.file().string())},
                                                      {"readers", engine::say::number(readers)}}));
        return ServiceAnswer::ok(std::move(body));
    };
    // The guided set-up (host_setup.hpp): it tries a profile on the castle
    // side, goes back to the castle it replaced when abandoned, and saves and applies what it found.
    std::optional<config::CastleConfig> beforeSetup;  // the castle sections a set-up replaced
    HostSetupHooks setupHooks;
    setupHooks.inForce = [&](config::CastleConfig& config) -> ServiceAnswer {
        config::ConfigInForce inForce;
        ServiceAnswer answer = configurationInForce(settings.configFile, inForce);
        if (answer.outcome == ServiceAnswer::Outcome::Ok) config = inForce.check.config;
        return answer;
    };
    setupHooks.castleInForce = [&] {
        CastleInForce castle;
        castle.given = settings.configFile;
        castle.file = runningFile;
        if (!settings.configFile.empty()) castle.saved = config::configInForce(settings.configFile).usesSaved;
        castle.real = settings.realCastle.has_value();
        castle.hardwareFixed = settings.hardwareFixed;
        castle.problem = castleProblem;
        return castle;
    };
    // Under systemd, a castle needing devices the drop-in does not grant opens only after a restart.
    const auto needsRestart = [&](const config::CastleConfig& config) {
        if (!settings.deviceAccess) return false;
        const config::UnitAccess access = config::unitAccess(config);
        return access.devices != settings.deviceAccess->devices ||
               access.groups != settings.deviceAccess->groups || access.port != settings.deviceAccess->port;
    };
    const auto restarting = [&](const std::filesystem::path& file) {
        err << "vivaref serve: " << file.string()
            << " needs other devices than the service was given: vivaref-reconfigure restarts it on them\n";
        castleProblem.reset();
        nlohmann::json body = {{"restarting", true}, {"file", file.string()}};
        body["says"] = words::messageJson(
            engine::Message("castle.config.restarting", {{"file", engine::say::text(file.string())}}));
        return ServiceAnswer::ok(std::move(body));
    };
    setupHooks.putAside = [&]() -> ServiceAnswer {
        const config::ConfigInForce before = config::configInForce(settings.configFile);
        const config::SaveResult put = config::putAsideSavedConfig(before);
        err << "vivaref serve: " << put.why << "\n";
        if (!put.saved)
            return configRefused(ServiceAnswer::Outcome::Refused,
                                 put.message.code == "castle.config.nothing-saved"
                                     ? "castle.config.nothing-saved"
                                     : "castle.config.not-saved",
                                 put.why, put.message);
        const nlohmann::json aside = {{"file", before.saved.string()},
                                      {"says", words::messageJson(put.message)}};
        const config::ConfigInForce after = config::configInForce(settings.configFile);
        ServiceAnswer answer =
            after.check.status == config::ConfigCheck::Status::Valid && needsRestart(after.check.config)
                ? restarting(after.file())
                : applyInForce();
        answer.body["putAside"] = aside;
        return answer;
    };
    setupHooks.busy = [&]() -> std::optional<engine::Message> {
        if (side->enrolment->running()) return engine::Message("castle.config.enrolling");
        if (side->selfTest->running()) return engine::Message("castle.config.checking");
        return std::nullopt;
    };
    setupHooks.tryOn = [&](const config::CastleConfig& profile) -> ServiceAnswer {
        beforeSetup = settings.realCastle ? settings.realCastle : settings.simulatedCastle;
        if (!beforeSetup) beforeSetup = config::CastleConfig{};
        return rebuildOn(profile, "the set-up's profile (not saved)");
    };
    setupHooks.backToInForce = [&] {
        if (!beforeSetup) return;
        // Called from a host's request (the set-up's stop, a new game before the relay passes it on).
        const config::CastleConfig back = *beforeSetup;
        beforeSetup.reset();
        rebuildOn(back, "the configuration in force (the set-up abandoned)");
    };
    setupHooks.walkSettings = [&](const config::CastleConfig& config) {
        return selfTestSettingsFor(config, *side->castle);
    };
    setupHooks.preview = [&](const config::CastleConfig& config) {
        const config::ConfigInForce inForce = config::configInForce(settings.configFile);
        std::ifstream in(inForce.file());
        std::stringstream base;
        base << in.rdbuf();
        std::error_code ec;
        const auto written = config::writeCastleConfig(
            config, base.str(), std::filesystem::absolute(inForce.file(), ec).parent_path());
        if (!written.ok())
            return std::pair<std::string, config::ConfigProblems>{
                "",
                {config::ConfigProblem{inForce.saved.string(), 0, written.refusedKey,
                                       written.refusedReason}}};
        const config::ConfigCheck check = config::checkCastleConfigText(written.text, inForce.saved.string());
        return std::pair<std::string, config::ConfigProblems>{written.text, check.problems};
    };
    setupHooks.saveAndApply = [&](const config::CastleConfig& config) -> ServiceAnswer {
        const config::ConfigInForce inForce = config::configInForce(settings.configFile);
        const config::SaveResult saved = config::saveCastleConfig(config, inForce);
        err << "vivaref serve: the set-up: " << saved.why << "\n";
        if (!saved.saved) {
            ServiceAnswer refused = ServiceAnswer::failed(
                ServiceAnswer::Outcome::Refused, "castle.config.not-saved", words::inEnglish(saved.message));
            refused.body["says"] = words::messageJson(saved.message);
            refused.body["why"] = saved.why;
            return refused;
        }
        // Saved: what was tried gives way to the configuration now in force.
        beforeSetup.reset();
        ServiceAnswer applied = needsRestart(config) ? restarting(inForce.saved) : applyInForce();
        applied.body["save"] = {{"file", inForce.saved.string()},
                                {"says", words::messageJson(saved.message)}};
        return applied;
    };
    hostSetup.setHooks(std::move(setupHooks));
    // The self-test waits while the castle is set up (the set-up runs the same walk).
    webSettings.router.selfTest = [inner = webSettings.router.selfTest, &hostSetup](
                                      std::string_view action, const nlohmann::json& body,
                                      bool gameInProgress) {
        if (action == "start" && hostSetup.running()) {
            ServiceAnswer refused =
                ServiceAnswer::failed(ServiceAnswer::Outcome::Refused, "castle.setup.running",
                                      "the castle is being set up: finish or stop the set-up first");
            refused.body["says"] = words::messageJson(engine::Message("castle.setup.running"));
            return refused;
        }
        return inner(action, body, gameInProgress);
    };
    webSettings.router.setup = [&hostSetup](std::string_view action, const nlohmann::json& body,
                                            bool gameInProgress) {
        return hostSetup.request(action, body, gameInProgress);
    };
    // A new game abandons a set-up before it begins: the game is played on the configuration in force.
    relay.beforeHost([&hostSetup](std::string_view request) {
        if (request == "new-game" && hostSetup.running()) hostSetup.abandonForGame();
    });
    webSettings.router.castleConfig = [&applyInForce, &hostSetup](std::string_view action,
                                                                  const nlohmann::json&) {
        if (action == "apply" && hostSetup.running()) {
            ServiceAnswer refused =
                ServiceAnswer::failed(ServiceAnswer::Outcome::Refused, "castle.setup.running",
                                      "the castle is being set up: finish or stop the set-up first");
            refused.body["says"] = words::messageJson(engine::Message("castle.setup.running"));
            return refused;
        }
        if (action == "apply") return applyInForce();
        return ServiceAnswer::failed(ServiceAnswer::Outcome::NotFound, "no-such-route",
                                     "the castle's configuration has no such action");
    };
    WebServer web(io, relay, std::move(webSettings));
    try {
        web.listen(settings.listen);
    } catch (const std::exception& e) {
        err << "vivaref serve: " << e.what() << "\n";
        return 2;
    }
    const std::string url = urlOf(web.localEndpoint());
    announce(settings, url, web, side->core->simulated() ? nullptr : side->castle.get(), out, err);

    SystemdNotifier systemd(io);
    std::string lastStatus = relay.summaryLine();
    const int statusListener = relay.onChange([&] {
        if (auto line = relay.summaryLine(); line != lastStatus) {
            lastStatus = line;
            systemd.status(line);
        }
    });

    net::signal_set signals(io, SIGTERM, SIGINT);
    int signalled = 0;
    signals.async_wait([&](const error_code& error, int number) {
        if (error) return;
        signalled = number;
        systemd.stopping();
        if (side) side->stop();
        web.stop();
        io.stop();
    });

    side->start();  // every reader reset and checked: bounded, before the loop runs
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
    relay.removeListener(statusListener);
    relay.detach();
    if (side) {
        side->core->removeRawScanListener(side->scanListener);
        side->core->setSpeaker(nullptr, "none", {});
    }
    const int status = stopped(*store, signalled, err);
    return exitStatus != 0 ? exitStatus : status;
}

}  // namespace vivaref::server
