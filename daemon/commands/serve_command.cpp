// `vivaref serve`: the referee daemon. Reads its options and the castle
// configuration (checked exactly as `vivaref check-config` does), then runs
// the event loop (daemon/server/serve_daemon.hpp) until SIGTERM or SIGINT.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/config/config_in_force.hpp"
#include "daemon/config/sim_bench.hpp"
#include "daemon/config/unit_access.hpp"
#include "daemon/server/host_secret.hpp"
#include "daemon/server/http_server.hpp"
#include "daemon/server/secret_token.hpp"
#include "daemon/server/serve_daemon.hpp"
#include "daemon/server/static_files.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

namespace {

// Without a configuration only the simulated castle runs, and only for this
// machine (the host secret guards its controls all the same).
constexpr const char* kDefaultListen = "127.0.0.1:8080";

// Every problem as check-config prints it; the exit status it would give.
int refuseConfig(const config::ConfigCheck& check) {
    for (const auto& p : check.problems) std::cerr << p.text() << "\n";
    std::cerr << "vivaref serve: the configuration has problems ('vivaref check-config "
              << check.config.sourceFile.string() << "' lists them); not starting\n";
    return check.status == config::ConfigCheck::Status::Unreadable ? kExitUsage : kExitRefused;
}

}  // namespace

namespace {

// What the command line says, besides the configuration's file.
struct ServeArgs {
    std::string hardware, listen, database, webRoot;
    std::optional<std::uint64_t> seed;
    double analysisShare = 25;
    std::int64_t analysisIterations = 500;
};

// What a castle's configuration sets of serve's settings; its hardware and
// listening address into `hardware` and `listen` (the command line may
// override them).
void takeConfiguration(const config::CastleConfig& castle, server::ServeSettings& settings,
                       std::string& hardware, std::string& listen) {
    hardware = config::hardwareName(castle.daemon.hardware);
    listen = castle.daemon.httpAddress.find(':') != std::string::npos
                 ? "[" + castle.daemon.httpAddress + "]:" + std::to_string(castle.daemon.httpPort)
                 : castle.daemon.httpAddress + ":" + std::to_string(castle.daemon.httpPort);
    settings.hostToken = castle.daemon.hostToken;
    settings.httpNames = castle.daemon.httpNames;
    settings.trustedProxies = castle.daemon.trustedProxies;
    settings.language = castle.daemon.language;
    settings.table.referee.teaching = castle.daemon.teaching;
    settings.phoneAwayAfter = std::chrono::seconds(castle.daemon.phoneAwayAfter);
    settings.voice = castle.voice;
    settings.database = castle.databasePath();
    settings.table.sensing = castle.sensing;
    settings.rawScansKept = castle.rawScansKept;
    settings.enrolment.edition = std::string(config::castleEditionName(castle.edition));
    settings.enrolment.registry = castle.tagRegistryPath();
    settings.club = castle.club;  // [club]: the finished games go to the club
    if (castle.layout().findPlace({std::string(config::kEnrolmentPlace)}))
        settings.enrolment.where = engine::Message("enrol.where-enrolment-reader");
}

// The castle to run, from the configuration read (if any) and the chosen
// hardware. A usage error's text, or none.
std::optional<std::string> takeCastle(const std::string& hardware, std::optional<config::CastleConfig> castle,
                                      server::ServeSettings& settings) {
    if (hardware != "sim" && hardware != "real") return "--hardware is sim or real, not '" + hardware + "'";
    if (hardware == "real") {
        // The readers, keys and LEDs (castle/real_castle.hpp) are opened as the configuration says.
        if (!castle) return "--hardware=real needs --config FILE: the castle's readers, keys and LEDs";
        settings.realCastle = std::move(castle);
    } else {
        // The simulated castle's readers are scheduled as the configuration says;
        // the host's page puts the demo's tags on floor 0.
        settings.simulatedCastle = std::move(castle);
        settings.enrolment.demoPlace = "0";
        // The bench the simulated castle plays, read once (checked with the configuration): every
        // castle serve builds on it keeps it.
        if (settings.simulatedCastle && !settings.simulatedCastle->daemon.simBench.empty()) {
            config::ConfigProblems ignored;
            settings.simBench = config::readSimBench(settings.simulatedCastle->daemon.simBench, ignored);
        }
    }
    return std::nullopt;
}

// The command line's own knobs: the log, the pages, the background
// analysis, the seeds. A usage error's text, or none.
std::optional<std::string> takeArgs(const ServeArgs& args, server::ServeSettings& settings) {
    if (!args.database.empty()) settings.database = args.database;
    // Without a configuration the tags are kept beside the game log.
    if (settings.enrolment.registry.empty())
        settings.enrolment.registry = settings.database.parent_path() / "tags.json";
    if (!(args.analysisShare >= 0 && args.analysisShare <= 100))
        return "--analysis-share is a percentage from 0 to 100";
    settings.analysisShare = args.analysisShare / 100.0;
    if (args.analysisIterations < 1 || args.analysisIterations > 100000)
        return "--analysis-iterations is from 1 to 100000";
    settings.analysisIterations = args.analysisIterations;
    settings.webRoot = args.webRoot.empty() ? server::defaultWebRoot() : std::filesystem::path(args.webRoot);
    // Each game's own deals from a seed of its own drawn from the kernel, so
    // that no game's seed (and hands) can be worked out from another's;
    // --seed keeps them repeatable (seed, seed + 1, ...) for tests.
    if (args.seed) {
        settings.table.referee.seed = *args.seed;
    } else {
        settings.table.referee.seed = server::randomSeed();
        settings.table.referee.gameSeeds = server::randomSeed;
    }
    return std::nullopt;
}

// The QR code's lines go to stdout past main's filter of control
// characters (terminal_text.hpp), which would write its colours' ESC out
// as text: they are our own characters, no name or outside text among them.
void showQrCode(const std::string& code) {
    std::cout.flush();
    for (std::size_t done = 0; done < code.size();) {
        const ssize_t n = ::write(STDOUT_FILENO, code.data() + done, code.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // stdout closed: nobody to show it to
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace

int runServe(const std::vector<std::string>& argv) {
    std::string configFile;
    ServeArgs args;
    std::uint64_t seed = 0;
    bool qr = false;
    // CommandLine keeps views of these: they must outlive it.
    const std::string about =
        "Runs the referee: watches the castle, judges every move, runs the votes, logs the game,\n"
        "and serves the web pages and their JSON API (web-ui/API.md) on one event loop.\n"
        "The configuration is checked first, as 'vivaref check-config' does; any problem stops it.\n"
        "With --config FILE, castle.ini in its state directory (saved by the host page's set-up) is in\n"
        "force instead while it is valid; serve says which file it runs on. When castle.ini's castle does\n"
        "not open at start, FILE's runs instead (said, and shown on the host's set-up page).\n"
        "--hardware=real opens the readers, vote keys and LEDs the configuration names (a device\n"
        "that does not open stops it, naming the file line). Without --hardware, each configuration\n"
        "applied says which castle runs (the set-up page's \"use this castle's readers\" switches from the\n"
        "simulated castle to the real one); with it, every castle runs on it. Without --config: the\n"
        "simulated castle on " +
        std::string(kDefaultListen) +
        ". The host's controls (and the simulated castle's pieces and keys) need\n"
        "the configuration's host_token, else the host secret made at the first start in the state\n"
        "directory (without --config: beside the game log); serve prints the host's link with it and\n"
        "'vivaref host-link' prints it again. Prints 'listening on URL' once it\n"
        "listens, then the address phones at the table open (on 0.0.0.0: this machine's address on\n"
        "their network; on 127.0.0.1: why none can, and how to open it to them). SIGTERM or SIGINT\n"
        "stops it cleanly (exit status 0, the game is saved); an unfinished game in the log is\n"
        "resumed at start. Under systemd (Type=notify) it reports\n"
        "READY=1 and STATUS=, and pets the watchdog (WatchdogSec=).";
    const std::string listenHelp =
        "ADDR:PORT to serve on (port 0: any free one); default: the configuration's, else " +
        std::string(kDefaultListen);
    CommandLine line("serve",
                     "vivaref serve [--config FILE] [--hardware=sim|real] [--listen ADDR:PORT] [--db FILE]",
                     about);
    line.visible.add_options()("config", po::value(&configFile), "the castle configuration (INI)")(
        "hardware", po::value(&args.hardware),
        "sim (the simulated castle) or real; default: the configuration's, else sim")(
        "listen", po::value(&args.listen), listenHelp.c_str())(
        "db", po::value(&args.database),
        "the game log; default: the configuration's, else $VIVAREF_DB or the state directory")(
        "web-root", po::value(&args.webRoot),
        "the web pages' folder; default: share/vivaref/web-ui beside the binary, else the source tree's "
        "web-ui/")("seed", po::value(&seed),
                   "repeatable deals for tests: the referee's k-th game (from 0) deals from SEED + k "
                   "(default: each game a fresh seed from the kernel)")(
        "analysis-share", po::value(&args.analysisShare)->default_value(args.analysisShare),
        "PERCENT of one core the background analysis of finished games may use, in slices of at most 5 ms "
        "while the table is quiet (0: no background analysis)")(
        "analysis-iterations", po::value(&args.analysisIterations)->default_value(args.analysisIterations),
        "the search player's iterations for each decision the background analysis reviews (its search is "
        "the one piece of work that is not cut: about 10 us an iteration on a laptop)")(
        "qr", po::bool_switch(&qr),
        "print the host's link as a QR code too, for the host's phone (the default when stdout is a "
        "terminal)");
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, argv, vm)) return *stop;
    if (vm.count("seed")) args.seed = seed;

    server::ServeSettings settings;
    settings.version = VIVAREF_VERSION;
    settings.database = config::defaultDatabasePath();
    std::string hardware = "sim";
    std::string listenText = kDefaultListen;
    std::optional<config::CastleConfig> castle;
    std::filesystem::path stateDirectory;  // the configuration's; none without one
    if (!configFile.empty()) {
        // The configuration in force: castle.ini of the state directory when
        // the set-up saved a valid one, else FILE (config_in_force.hpp); said
        // once. The same check as `vivaref check-config`, before anything starts.
        const auto inForce = config::configInForce(configFile);
        if (!inForce.why.empty()) std::cerr << "vivaref serve: " << inForce.why << "\n";
        const auto& check = inForce.check;
        if (check.status != config::ConfigCheck::Status::Valid) return refuseConfig(check);
        castle = check.config;
        // The host's "apply" rebuilds the castle from the file in force then.
        settings.configFile = configFile;
        // castle.ini's castle may not open (readers not wired yet): FILE's runs then, when valid.
        if (inForce.usesSaved) {
            auto given = config::checkCastleConfigFile(configFile);
            if (given.status == config::ConfigCheck::Status::Valid)
                settings.givenConfig = std::move(given.config);
        }
        // Under systemd the service reaches what the generator's drop-in names: the devices of this
        // configuration (unit_access.hpp). A castle saved later that needs others waits for the restart.
        if (std::getenv("NOTIFY_SOCKET") != nullptr) settings.deviceAccess = config::unitAccess(*castle);
        stateDirectory = castle->daemon.stateDirectory;
        takeConfiguration(*castle, settings, hardware, listenText);
    }
    if (!args.hardware.empty()) {
        hardware = args.hardware;
        settings.hardwareFixed = true;  // a configuration applied later keeps it
    }
    if (!args.listen.empty()) listenText = args.listen;
    if (auto wrong = takeCastle(hardware, std::move(castle), settings)) return usageError("serve", *wrong);
    if (settings.simBench)
        std::cerr << "vivaref serve: the simulated castle plays the faults of the bench "
                  << settings.simBench->file.string() << "\n";
    if (auto wrong = takeArgs(args, settings)) return usageError("serve", *wrong);
    try {
        settings.listen = server::parseListenAddress(listenText);
    } catch (const std::invalid_argument& e) {
        return usageError("serve", e.what());
    }
    // No host_token configured: the host secret of the state directory
    // (made at the first start), so no configuration leaves the host's
    // controls open.
    settings.hostSecretDirectory = server::hostSecretDirectory(stateDirectory, settings.database);
    if (qr || ::isatty(STDOUT_FILENO) == 1) settings.showQr = showQrCode;
    return server::serveCastle(settings, std::cout, std::cerr);
}

}  // namespace vivaref::daemon
