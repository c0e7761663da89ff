// `vivaref serve` once its options and configuration are read: one
// boost::asio::io_context owning everything. On it: the table loop
// (table_loop.hpp) stepping the castle, simulated or real
// (daemon/castle/), and the table core on a steady_timer, the castle's vote
// keys' line descriptors watched by posix::stream_descriptor, the HTTP
// server, SIGTERM/SIGINT (stop cleanly: the log flushed, exit 0), and systemd's notifications (READY=1 once
// listening, STATUS= as games come and go, WATCHDOG=1 pets from the loop). Nothing sleeps: the loop waits in
// epoll for a socket, a timer, a key or a signal.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/ip/tcp.hpp>

#include "daemon/club/outbox_pusher.hpp"
#include "daemon/config/castle_config.hpp"
#include "daemon/config/config_in_force.hpp"
#include "daemon/config/sim_bench.hpp"
#include "daemon/config/unit_access.hpp"
#include "daemon/server/host_enrolment.hpp"
#include "daemon/server/referee_service.hpp"
#include "daemon/server/server_limits.hpp"
#include "daemon/table/table.hpp"

namespace vivaref::server {

struct ServeSettings {
    boost::asio::ip::tcp::endpoint listen;
    std::filesystem::path database;
    std::filesystem::path webRoot;
    // The configuration serve was given (--config F): the host's "apply"
    // (POST /api/host/castle/apply) rebuilds the castle from the file in
    // force then (config_in_force.hpp). Empty: nothing to apply.
    std::filesystem::path configFile;
    // The host's token: the configuration's host_token. Empty: the host
    // secret of `hostSecretDirectory` (host_secret.hpp), made there at the
    // first start once the castle has opened; the host's link is then
    // printed at start (stdout: the journal under systemd).
    std::string hostToken;
    // The state directory: the host secret and the players' links of the
    // game in progress (`player-links.json`, player_links_file.hpp) are kept
    // there. Empty: links in memory only.
    std::filesystem::path hostSecretDirectory;
    std::filesystem::path hostSecretFile;  // set by serveCastle when the secret is used
    std::string version;
    // Set: shows the host's link as a QR code (qr_svg.hpp's qrTerminal: our
    // own characters and colours) for the host's phone to scan. `vivaref
    // serve` sets it when stdout is a terminal, or with --qr.
    std::function<void(const std::string& code)> showQr;
    // The configuration's http_names: more Host names answered (host_check.hpp).
    std::vector<std::string> httpNames;
    // The configuration's trusted_proxies: reverse proxies whose
    // X-Forwarded-For names the client (trusted_proxies.hpp).
    std::vector<std::string> trustedProxies;
    // The table's language (the configuration's `[daemon] language`); the
    // host may choose another on the host page.
    std::string language = "en";
    // A seat played from afar whose phone asked nothing for this long is
    // shown away (the configuration's `[daemon] phone_away_after`).
    drivers::Timestamp phoneAwayAfter{15000};
    // The referee's voice (the configuration's [voice]): on/off, volume,
    // moments, and which speaker. `output` auto: espeak-ng on the real
    // castle, the simulated castle's silent recorder on the simulated one.
    // espeak-ng that does not start (no sound card, no espeak-ng-data) is a
    // problem the host page shows, never a reason not to start.
    config::VoiceConfig voice;
    // Tests: espeak-ng's ALSA configuration text (the file and null PCMs),
    // looked up for `voice.pcm` instead of the system's.
    std::string voiceAlsaConfig;
    // The table's knobs: the referee's (its seed, grace times...) and the
    // sensing's. The wall time of the referee's time 0 is set at start.
    table::TableOptions table;
    std::int64_t rawScansKept = 100'000;
    ServerLimits limits;
    // The real castle to run (--hardware=real): its readers, keys and LEDs
    // are opened from it, and the table takes its layout, enrolled tags and
    // sensing knobs (`table`'s referee knobs stay). None: the simulated castle.
    std::optional<config::CastleConfig> realCastle;
    // The configuration of the simulated castle (--hardware=sim --config):
    // its readers (the standard board when it names none), field rule,
    // readers' neighbours, max_fields_on and backoff drive the simulated
    // readers as they would the real ones. None: the standard board and the
    // simulated castle's defaults.
    std::optional<config::CastleConfig> simulatedCastle;
    // --hardware given: every castle serve builds runs on it, whatever a
    // configuration applied later says. Unset: each configuration's
    // `[daemon] hardware` (so the set-up page's "use this castle's readers"
    // takes serve from the simulated castle to the real one).
    bool hardwareFixed = false;
    // castle.ini (the set-up's) is in force: the given file's configuration,
    // whose castle serve runs instead when castle.ini's does not open at
    // start (a wrong choice never leaves the host without the pages; the
    // set-up page says why: config_in_force.hpp).
    std::optional<config::CastleConfig> givenConfig;
    // Under systemd: what its drop-in lets the service reach (the
    // configuration in force at start, unit_access.hpp). A castle saved that
    // needs other devices is not applied in place, where they would not
    // open: vivaref-reconfigure.path restarts the service with them. None:
    // a castle saved is applied at once.
    std::optional<config::UnitAccess> deviceAccess;
    // The simulated castle's bench (`[daemon] sim_bench`, config/sim_bench.hpp):
    // the faults of the hardware it simulates, kept by serve for every castle
    // it builds. None: a perfect castle.
    std::optional<config::SimBench> simBench;
    // The background analysis of finished games (analysis/background_analysis.hpp):
    // at most this share of one core (0: none runs), in slices of at most
    // `analysisSlice` of work, only while the table has been quiet for
    // `analysisQuietFor`.
    double analysisShare = 0.25;
    std::chrono::microseconds analysisSlice{5000};
    std::chrono::milliseconds analysisQuietFor{300};
    // The search player's iterations for each decision reviewed: its search
    // is the analysis's one piece that cannot be cut.
    std::int64_t analysisIterations = 500;
    // Tag enrolment from the host's page (its registry, edition, the demo's place on the simulated castle).
    HostEnrolmentSettings enrolment;
    // The club ([club] of the configuration): every game that ends is
    // queued in the log and pushed by a pusher on its own thread
    // (club/outbox_pusher.hpp). None: nothing leaves the table.
    std::optional<config::ClubConfig> club;
    // How the pusher reaches the club; unset: club::makeClubLink with the
    // configuration's connection string (tests give an in-memory club).
    club::OutboxPusher::LinkFactory clubLink;
    // The pusher's retry timing (tests shorten it).
    std::chrono::milliseconds clubFirstRetry{2000};
};

// Runs until SIGTERM or SIGINT. Says where it listens on `out` as soon as
// it does ("vivaref serve: listening on http://127.0.0.1:8080/"), problems
// on `err`. Returns the exit status: 0 after a clean stop, 1 when the game
// log could not be written at the end, 2 when it could not start (the
// address taken, the log unusable, a device of the real castle that does
// not open: the message names the configuration's file and line).
int serveCastle(const ServeSettings& settings, std::ostream& out, std::ostream& err);

// The configuration in force of `configFile` into `inForce`: Ok; 503
// castle.config.no-file without one (serve without --config); 409
// castle.config.problems (with them) when the file in force has problems.
ServiceAnswer configurationInForce(const std::filesystem::path& configFile, config::ConfigInForce& inForce);

// Whether the host may apply the configuration in force now (POST
// /api/host/castle/apply): as configurationInForce, and not during a game
// (`status`'s state playing or paused: 409 castle.config.game-in-progress),
// an enrolment (409 castle.config.enrolling) or a self-test (409
// castle.config.checking). Ok: `inForce` is what to apply.
ServiceAnswer applyCastleConfiguration(const std::filesystem::path& configFile, const nlohmann::json& status,
                                       bool enrolling, bool checking, config::ConfigInForce& inForce);

}  // namespace vivaref::server
