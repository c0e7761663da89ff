// `vivaref serve`: the referee daemon. Reads its options and the castle
// configuration (checked exactly as `vivaref check-config` does), then runs
// the event loop (daemon/server/serve_daemon.hpp) until SIGTERM or SIGINT.
#include <iostream>
#include <optional>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/config/config_check.hpp"
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

int runServe(const std::vector<std::string>& args) {
    std::string configFile, hardware, listen, database, webRoot;
    std::uint64_t seed = 0;
    double analysisShare = 25;
    std::int64_t analysisIterations = 500;
    // CommandLine keeps views of these: they must outlive it.
    const std::string about =
        "Runs the referee: watches the castle, judges every move, runs the votes, logs the game,\n"
        "and serves the web pages and their JSON API (web-ui/API.md) on one event loop.\n"
        "The configuration is checked first, as 'vivaref check-config' does; any problem stops it.\n"
        "--hardware=real opens the readers, vote keys and LEDs the configuration names (a device\n"
        "that does not open stops it, naming the file line). Without --config: the simulated castle on " +
        std::string(kDefaultListen) +
        ". The host's controls (and the simulated castle's pieces and keys) need\n"
        "the configuration's host_token, else the host secret made at the first start in the state\n"
        "directory (without --config: beside the game log); serve prints the host's link with it and\n"
        "'vivaref host-link' prints it again. Prints 'listening on URL' once it\n"
        "listens. SIGTERM or SIGINT stops it cleanly (exit status 0, the game is saved); an\n"
        "unfinished game in the log is resumed at start. Under systemd (Type=notify) it reports\n"
        "READY=1 and STATUS=, and pets the watchdog (WatchdogSec=).";
    const std::string listenHelp =
        "ADDR:PORT to serve on (port 0: any free one); default: the configuration's, else " +
        std::string(kDefaultListen);
    CommandLine line("serve",
                     "vivaref serve [--config FILE] [--hardware=sim|real] [--listen ADDR:PORT] [--db FILE]",
                     about);
    line.visible.add_options()("config", po::value(&configFile), "the castle configuration (INI)")(
        "hardware", po::value(&hardware),
        "sim (the simulated castle) or real; default: the configuration's, else sim")(
        "listen", po::value(&listen), listenHelp.c_str())(
        "db", po::value(&database),
        "the game log; default: the configuration's, else $VIVAREF_DB or the state directory")(
        "web-root", po::value(&webRoot),
        "the web pages' folder; default: share/vivaref/web-ui beside the binary, else the source tree's "
        "web-ui/")("seed", po::value(&seed),
                   "repeatable deals for tests: the referee's k-th game (from 0) deals from SEED + k "
                   "(default: each game a fresh seed from the kernel)")(
        "analysis-share", po::value(&analysisShare)->default_value(analysisShare),
        "PERCENT of one core the background analysis of finished games may use, in slices of at most 5 ms "
        "while the table is quiet (0: no background analysis)")(
        "analysis-iterations", po::value(&analysisIterations)->default_value(analysisIterations),
        "the search player's iterations for each decision the background analysis reviews (its search is "
        "the one piece of work that is not cut: about 10 us an iteration on a laptop)");
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;

    server::ServeSettings settings;
    settings.version = VIVAREF_VERSION;
    std::string hardwareChosen = "sim";
    std::string listenText = kDefaultListen;
    settings.database = config::defaultDatabasePath();
    std::optional<config::CastleConfig> castleRead;
    std::filesystem::path stateDirectory;  // the configuration's; none without one
    if (!configFile.empty()) {
        // The same check as `vivaref check-config`, before anything starts.
        const auto check = config::checkCastleConfigFile(configFile);
        if (check.status != config::ConfigCheck::Status::Valid) return refuseConfig(check);
        const auto& castle = check.config;
        castleRead = castle;
        stateDirectory = castle.daemon.stateDirectory;
        hardwareChosen = config::hardwareName(castle.daemon.hardware);
        listenText = castle.daemon.httpAddress.find(':') != std::string::npos
                         ? "[" + castle.daemon.httpAddress + "]:" + std::to_string(castle.daemon.httpPort)
                         : castle.daemon.httpAddress + ":" + std::to_string(castle.daemon.httpPort);
        settings.hostToken = castle.daemon.hostToken;
        settings.httpNames = castle.daemon.httpNames;
        settings.database = castle.databasePath();
        settings.table.sensing = castle.sensing;
        settings.rawScansKept = castle.rawScansKept;
        settings.enrolment.edition = std::string(config::castleEditionName(castle.edition));
        settings.enrolment.registry = castle.tagRegistryPath();
        settings.club = castle.club;  // [club]: the finished games go to the club
        if (castle.layout().findPlace({std::string(config::kEnrolmentPlace)}))
            settings.enrolment.where = "on the enrolment reader or any floor of the castle";
    }
    if (!hardware.empty()) hardwareChosen = hardware;
    if (hardwareChosen != "sim" && hardwareChosen != "real")
        return usageError("serve", "--hardware is sim or real, not '" + hardwareChosen + "'");
    if (hardwareChosen == "real") {
        // The readers, keys and LEDs (castle/real_castle.hpp) are opened as the configuration says.
        if (!castleRead)
            return usageError("serve",
                              "--hardware=real needs --config FILE: the castle's readers, keys and LEDs");
        settings.realCastle = std::move(castleRead);
    } else {
        // The simulated castle's readers are scheduled as the configuration says.
        settings.simulatedCastle = std::move(castleRead);
    }
    if (!listen.empty()) listenText = listen;
    if (!database.empty()) settings.database = database;
    // Without a configuration the tags are kept beside the game log.
    if (settings.enrolment.registry.empty())
        settings.enrolment.registry = settings.database.parent_path() / "tags.json";
    // The simulated castle: the host's page puts the demo's tags on floor 0.
    if (hardwareChosen == "sim") settings.enrolment.demoPlace = "0";
    if (!(analysisShare >= 0 && analysisShare <= 100))
        return usageError("serve", "--analysis-share is a percentage from 0 to 100");
    settings.analysisShare = analysisShare / 100.0;
    if (analysisIterations < 1 || analysisIterations > 100000)
        return usageError("serve", "--analysis-iterations is from 1 to 100000");
    settings.analysisIterations = analysisIterations;
    try {
        settings.listen = server::parseListenAddress(listenText);
    } catch (const std::invalid_argument& e) {
        return usageError("serve", e.what());
    }
    // No host_token configured: the host secret of the state directory
    // (made at the first start), so no configuration leaves the host's
    // controls open.
    settings.hostSecretDirectory = server::hostSecretDirectory(stateDirectory, settings.database);
    settings.webRoot = webRoot.empty() ? server::defaultWebRoot() : std::filesystem::path(webRoot);
    // Each game's own deals from a seed of its own drawn from the kernel, so
    // that no game's seed (and hands) can be worked out from another's;
    // --seed keeps them repeatable (seed, seed + 1, ...) for tests.
    if (vm.count("seed")) {
        settings.table.referee.seed = seed;
    } else {
        settings.table.referee.seed = server::randomSeed();
        settings.table.referee.gameSeeds = server::randomSeed;
    }
    return server::serveCastle(settings, std::cout, std::cerr);
}

}  // namespace vivaref::daemon
