// `vivaref trace export GAME`: a logged game's referee trace, which
// `vivaref simulate` replays; `vivaref trace from-record RECORD`: a game
// record turned into the table script that plays it on a simulated castle.
#include <iostream>
#include <sstream>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/game_log_options.hpp"
#include "daemon/trace/table_script.hpp"
#include "daemon/trace/trace_writer.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

namespace {

constexpr std::string_view kOverview =
    "Usage: vivaref trace export [options] GAME\n"
    "       vivaref trace from-record [options] RECORD\n\n"
    "  export       write a logged game's referee trace (JSON Lines) for 'vivaref simulate'\n"
    "  from-record  turn a game record into the trace of the players playing it on a\n"
    "               simulated castle: puts, lifts, vote keys, the host's deals\n\n"
    "'vivaref trace SUBCOMMAND --help' explains one.\n";

int runExportTrace(const std::vector<std::string>& args) {
    GameLogOptions where;
    bool reveal = false;
    bool json = false;
    CommandLine line("trace export", "vivaref trace export [options] GAME",
                     "Writes the referee trace of game GAME of the game log to standard output: every\n"
                     "input the referee took for it (host requests, board scans or puts and lifts, vote\n"
                     "keys), and the deals and piles it made itself as the host lines that would have made\n"
                     "them, so that 'vivaref simulate' plays the same game again without the seed.\n"
                     "The trace holds the hands: a game still being played is not written unless\n"
                     "--reveal is given (a warning on stderr then).");
    addGameLogOptions(line.visible, where);
    addRevealOption(line.visible, reveal);
    line.visible.add_options()("json", po::bool_switch(&json), "print one JSON array of the lines");
    line.hidden.add_options()("game", po::value<std::string>(), "the game's id");
    line.positional.add("game", 1);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (!vm.count("game"))
        return usageError("trace export", "name the GAME whose trace to write ('vivaref games' lists them)");
    auto id = parseGameId(vm["game"].as<std::string>());
    if (!id) return usageError("trace export", "GAME is a game's id, a number 'vivaref games' lists");

    const auto db = gameLogPath(where, "trace export");
    if (!db) return kExitUsage;
    store::GameStore log(*db, store::GameStore::Access::MustExist);
    if (auto refused = refuseSecretRecord("trace export", log, *id, reveal)) return *refused;
    const auto lines = log.traceLines(*id);
    if (json) {
        nlohmann::ordered_json array = nlohmann::ordered_json::array();
        for (const auto& l : lines) array.push_back(nlohmann::ordered_json::parse(l, nullptr, false));
        std::cout << array.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
        return kExitOk;
    }
    for (const auto& l : lines) std::cout << l << "\n";
    return kExitOk;
}

std::vector<std::string> splitNames(const std::string& text) {
    std::vector<std::string> names;
    std::stringstream in(text);
    for (std::string name; std::getline(in, name, ',');) names.push_back(name);
    return names;
}

int runFromRecord(const std::vector<std::string>& args) {
    std::string players;
    std::string pace = "comfortable";
    std::int64_t start = 0;
    trace::TableScriptOptions options;
    CommandLine line(
        "trace from-record", "vivaref trace from-record [options] RECORD",
        "Replays the game record RECORD (- reads standard input) and writes, as a referee trace, what\n"
        "the players and the host physically do to play it on a simulated castle: the host's new\n"
        "game and deals, each placement as a put of the character's tag (named by its slug), each\n"
        "move as a lift and a put, each vote as the seat's station key, the moves the referee\n"
        "guides (leftovers to floor 0, an elected candidate to the box or a dungeon, the Jester\n"
        "back), the board cleared between rounds and the 2024 Jester put on floor 3. Passes are\n"
        "left to the referee. 'vivaref simulate' of the result plays the same game. Exit status 1\n"
        "(with GAME-RECORD's code) when the record has an illegal line, 2 when it cannot be read.\n"
        "--pace brisk plays as a real table does (a new action 1 s after the last, 0.3 s a lift or\n"
        "put), stress faster (0.6 s, 0.2 s); --noise SEED adds what hands do besides the move\n"
        "(hovering, grazing another place, double touches, a slow hand).");
    line.visible.add_options()("players", po::value(&players), "the players' names, comma-separated")(
        "start", po::value(&start)->default_value(0), "t of the first line, in milliseconds")(
        "pace", po::value(&pace)->default_value(pace),
        "comfortable, brisk or stress (the times below override it)")(
        "noise", po::value(&options.noise.seed)->default_value(0), "hand noise from this seed (0: none)")(
        "settle", po::value(&options.timing.settle)->default_value(options.timing.settle),
        "ms after a put before the next action")(
        "lift-to-put", po::value(&options.timing.liftToPut)->default_value(options.timing.liftToPut),
        "ms a moved tag is in the hand")(
        "off-board", po::value(&options.timing.offBoard)->default_value(options.timing.offBoard),
        "ms after a tag leaves the board, before the next action");
    line.hidden.add_options()("record", po::value<std::string>(), "the record");
    line.positional.add("record", 1);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (pace == "brisk" || pace == "stress") {
        const auto chosen = pace == "brisk" ? trace::TableTiming::brisk() : trace::TableTiming::stress();
        const bool own[] = {!vm["settle"].defaulted(), !vm["lift-to-put"].defaulted(),
                            !vm["off-board"].defaulted()};
        const auto given = options.timing;
        options.timing = chosen;
        if (own[0]) options.timing.settle = given.settle;
        if (own[1]) options.timing.liftToPut = given.liftToPut;
        if (own[2]) options.timing.offBoard = given.offBoard;
    } else if (pace != "comfortable") {
        return usageError("trace from-record", "--pace is comfortable, brisk or stress, not '" + pace + "'");
    }
    if (!vm.count("record"))
        return usageError("trace from-record",
                          "name the RECORD to turn into a trace (- reads standard input)");
    if (start < 0 || start > trace::kMaxTraceTime || options.timing.settle < 0 ||
        options.timing.liftToPut < 0 || options.timing.offBoard < 0)
        return usageError("trace from-record", "times are milliseconds, 0 or more");
    options.start = start;
    if (vm.count("players")) options.players = splitNames(players);

    std::string why;
    const auto path = vm["record"].as<std::string>();
    auto text = readInputFile(path, why);
    if (!text) {
        std::cerr << "vivaref trace from-record: " << why << "\n";
        return kExitUsage;
    }
    trace::TableScript script = trace::tableScriptFromRecord(*text, options);
    if (script.error) {
        std::cerr << "vivaref trace from-record: " << path << ": line " << script.error->line << ": "
                  << script.error->code << ": " << script.error->message << "\n";
        return kExitRefused;
    }
    std::cout << trace::writeTrace(script.lines);
    return kExitOk;
}

}  // namespace

int runTrace(const std::vector<std::string>& args) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        (args.empty() ? std::cerr : std::cout) << kOverview;
        return args.empty() ? kExitUsage : kExitOk;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "export") return runExportTrace(rest);
    if (args[0] == "from-record") return runFromRecord(rest);
    std::cerr << "vivaref trace: unknown subcommand '" << args[0] << "'.\n\n" << kOverview;
    return kExitUsage;
}

}  // namespace vivaref::daemon
