// `vivaref replay FILE`: a game record through the engine, its result on
// stdout as one line of JSON (GAME-RECORD, "Result").
#include <iostream>
#include <iterator>
#include <optional>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/words/words.hpp"
#include "engine/record/replay.hpp"
#include "engine/record/result_json.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

int runReplay(const std::vector<std::string>& args) {
    CommandLine line(
        "replay", "vivaref replay [options] FILE",
        "Replays the game record FILE (JSON Lines, see GAME-RECORD; - reads standard input) through\n"
        "the rules engine and prints its result as one line of JSON. Exit status: 0 when every\n"
        "line was legal, 1 at the first illegal line (the result says which and why), 2 when\n"
        "FILE cannot be read.");
    line.hidden.add_options()("file", po::value<std::string>(), "the record");
    line.positional.add("file", 1);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (!vm.count("file"))
        return usageError("replay", "name the record FILE to replay (- reads standard input)");

    const auto path = vm["file"].as<std::string>();
    std::string why;
    auto text = readInputFile(path, why);
    if (!text) {
        std::cerr << "vivaref replay: " << why << "\n";
        return kExitUsage;
    }

    nlohmann::json result = record::replayRecord(*text, words::inEnglish);
    std::cout << record::resultText(result) << "\n";
    return result.value("ok", false) ? kExitOk : kExitRefused;
}

}  // namespace vivaref::daemon
