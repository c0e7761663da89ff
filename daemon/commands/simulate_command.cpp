// `vivaref simulate TRACE`: the whole referee (simulated castle, sensing
// pipeline, engine, LED logic, game log) over a referee trace in virtual
// time, as fast as the machine goes; one JSON summary on stdout.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>

#include "daemon/castle/real_castle.hpp"
#include "daemon/castle/simulated_castle.hpp"
#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/simulation/simulate.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

namespace {

// A castle's trace (`once` lines): its scans are the trace's own.
bool givesCastleScans(const std::vector<trace::NumberedLine>& lines) {
    auto once = [](const trace::TraceInput& input) {
        if (const auto* scan = std::get_if<trace::ScanLine>(&input)) return scan->once;
        if (const auto* fault = std::get_if<trace::ReaderFaultLine>(&input)) return fault->once;
        return false;
    };
    return std::any_of(lines.begin(), lines.end(),
                       [&](const trace::NumberedLine& l) { return once(l.line.input); });
}

// The rig of --config's castle: its layout, its sensing knobs and scan
// interval, the tags enrolled in its state directory. A castle with no tag
// enrolled yet (a configuration tried before `vivaref enrol`) is simulated
// with every character's simulated tag, said on stderr: a trace made from a
// game record names its characters by slug. An exit status after saying why.
std::optional<int> configureCastle(const std::string& configFile, simulation::RigOptions& options,
                                   std::optional<config::CastleConfig>& castleConfig) {
    const auto check = config::checkCastleConfigFile(configFile);
    if (check.status != config::ConfigCheck::Status::Valid) {
        for (const auto& p : check.problems) std::cerr << p.text() << "\n";
        std::cerr << "vivaref simulate: the configuration has problems; nothing run\n";
        return check.status == config::ConfigCheck::Status::Unreadable ? kExitUsage : kExitRefused;
    }
    if (!check.config.readers.empty()) {
        try {
            options = simulation::realCastleRig(check.config, castle::enrolledTags(check.config));
        } catch (const std::exception& e) {
            std::cerr << "vivaref simulate: " << e.what() << "\n";
            return kExitUsage;
        }
        if (options.registry && options.registry->size() == 0) {
            options.registry.reset();
            std::cerr << "vivaref simulate: no tag is enrolled in " << check.config.tagRegistryPath().string()
                      << ": every character is known by its simulated tag\n";
        }
    }
    options.sensing = check.config.sensing;
    options.board.scanInterval = check.config.scanInterval;
    castleConfig = check.config;
    return std::nullopt;
}

// --board=castle for a board's trace: its board is scanned as `serve
// --hardware=sim` scans that castle (serve_daemon.cpp's openCastle).
void scanAsTheCastle(simulation::RigOptions& options,
                     const std::optional<config::CastleConfig>& castleConfig) {
    const drivers::BoardLayout layout = options.layout ? *options.layout : drivers::standardBoardLayout();
    castle::SimulatedCastleOptions castle = castleConfig
                                                ? castle::simulatedCastleOptions(*castleConfig, layout)
                                                : castle::SimulatedCastleOptions{};
    castle.stabilityWindow = options.sensing.stabilityWindow;
    options.castleModel = std::move(castle);
}

// `vivaref simulate --help`'s text (CommandLine keeps a view of it).
constexpr const char* kSimulateAbout =
    "Runs the referee over the referee trace TRACE (JSON Lines, see REFEREE-TRACE; - reads\n"
    "standard input) on a simulated castle in virtual time, and prints one line of JSON:\n"
    "games started and finished, actions accepted, refusals by code, refused host requests,\n"
    "each finished game's result and the game still in progress. Exit status: 0 when the\n"
    "trace was consumed, whatever happened in the game; 1 on a malformed trace (the message\n"
    "names the line and what is wrong; nothing is run); 2 when TRACE cannot be read.\n"
    "With --db every game is logged there (created if missing) with its trace, so that\n"
    "'vivaref export' and 'vivaref trace export' give it back. A simulation can be run\n"
    "again from its trace, so the log is written without waiting for the disk after each\n"
    "row (synchronous=NORMAL). The log's times are --epoch plus the trace's t: the same\n"
    "trace with the same --epoch gives the same database. A real castle's trace (`vivaref serve\n"
    "--hardware=real`) replays on that castle: --config names its configuration (its readers,\n"
    "sensing knobs and the tags enrolled in its state directory's tags.json).\n"
    "A board's trace (puts and lifts, e.g. from 'vivaref trace from-record') is scanned as\n"
    "the castle would scan it (--board=castle: the real driver's fields and scan times for\n"
    "--config's castle, or the simulated castle's), so the summary's timing is that castle's;\n"
    "--board=round-robin scans one reader every scan interval, as simulate did before, for\n"
    "old traces that need their exact old timing. A castle's trace (\"once\" lines) gives\n"
    "its own scans, whatever --board says.";

}  // namespace

int runSimulate(const std::vector<std::string>& args) {
    std::string db, configFile, board = "castle";
    std::uint64_t seed = 1;
    std::int64_t epoch = 0;
    bool notices = false;
    CommandLine line("simulate", "vivaref simulate [options] TRACE", kSimulateAbout);
    line.visible.add_options()("db", po::value(&db), "log the games into this database (default: no log)")(
        "config", po::value(&configFile),
        "the castle whose trace it is (default: the simulated castle, one reader per place)")(
        "board", po::value(&board)->default_value(board),
        "how a board's trace is scanned: castle (as the castle scans) or round-robin")(
        "seed", po::value(&seed)->default_value(1),
        "the referee's generator, for deals and piles the trace does not give")(
        "epoch", po::value(&epoch), "wall-clock time of t = 0, in milliseconds since 1970 (default: now)")(
        "notices", po::bool_switch(&notices),
        "also print the referee's public notices on stderr, one a line");
    line.hidden.add_options()("trace", po::value<std::string>(), "the trace");
    line.positional.add("trace", 1);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (!vm.count("trace")) return usageError("simulate", "name the TRACE to run (- reads standard input)");

    const auto path = vm["trace"].as<std::string>();
    std::string why;
    auto text = readInputFile(path, why);
    if (!text) {
        std::cerr << "vivaref simulate: " << why << "\n";
        return kExitUsage;
    }

    if (board != "castle" && board != "round-robin")
        return usageError("simulate", "--board is castle or round-robin, not '" + board + "'");

    simulation::RigOptions options;
    std::optional<config::CastleConfig> castleConfig;
    if (!configFile.empty())
        if (auto status = configureCastle(configFile, options, castleConfig)) return *status;
    options.referee.seed = seed;
    if (notices)
        options.onNotice = [](const referee::Notice& n) {
            std::cerr << "t=" << n.at.count() << " " << n.kind << ": " << n.text << "\n";
        };
    using namespace std::chrono;
    options.referee.wallAtZero = vm.count("epoch") ? store::WallTime(milliseconds(epoch))
                                                   : time_point_cast<milliseconds>(system_clock::now());

    // A malformed trace is reported before the log is opened: it writes nothing.
    trace::TraceRead read =
        options.layout ? simulation::checkTrace(*text, *options.layout) : simulation::checkTrace(*text);
    if (read.error) {
        std::cerr << "vivaref simulate: " << (path == "-" ? std::string("stdin") : path) << ": "
                  << read.error->describe() << "\n";
        return kExitRefused;
    }
    if (board == "castle" && !givesCastleScans(read.lines)) scanAsTheCastle(options, castleConfig);
    std::optional<store::GameStore> log;
    if (vm.count("db")) log.emplace(db, store::GameStore::Access::CreateIfMissing, store::Durability::Normal);
    const auto summary = simulation::runTrace(read.lines, options, log ? &*log : nullptr);
    std::cout << summary.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return kExitOk;
}

}  // namespace vivaref::daemon
