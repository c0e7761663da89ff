// `vivaref random-record`: one random game written as a game record, for
// tests and examples; --stop-after cuts it short to make incomplete games.
#include <iostream>
#include <memory>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/game_options.hpp"
#include "engine/players/random_player.hpp"
#include "engine/record/line_writer.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

namespace {

// Writes each step as a record line until `limit` lines are out.
class RecordPrinter {
public:
    RecordPrinter(const engine::Rules& rules, std::int64_t limit) : rules_(rules), limit_(limit) {}
    bool line(const std::string& text) {
        if (limit_ >= 0 && written_ >= limit_) return false;
        std::cout << text << "\n";
        ++written_;
        return true;
    }
    bool drawn(const engine::State&, const engine::Decision& d) {
        return line(record::writeDecision(d, rules_));
    }

private:
    const engine::Rules& rules_;
    std::int64_t limit_;
    std::int64_t written_ = 0;
};

}  // namespace

int runRandomRecord(const std::vector<std::string>& args) {
    GameOptions game;
    std::int64_t stopAfter = -1;
    CommandLine line(
        "random-record", "vivaref random-record [options]",
        "Plays one random game (random deals, uniformly random legal actions) and writes it to\n"
        "standard output as a game record, one JSON line per step, starting with its setup line.\n"
        "With --stop-after N only the first N lines are written, which makes an incomplete game.\n"
        "The same options and seed always give the same record. With teams, every seat is a\n"
        "team of two.");
    addGameOptions(line.visible, game);
    line.visible.add_options()("stop-after", po::value(&stopAfter),
                               "write only the first N lines (the setup line counts)");
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (vm.count("stop-after") && stopAfter < 0)
        return usageError("random-record", "--stop-after must be 0 or more");

    std::string error;
    auto spec = rulesSpecFor(game, error);
    if (!spec) return usageError("random-record", error);

    auto rules = std::make_shared<const engine::Rules>(*spec);
    engine::State state(rules);
    engine::Rng rng(game.seed);
    RecordPrinter printer(*rules, stopAfter);
    if (!printer.line(record::writeSetup(*spec))) return kExitOk;
    if (auto problem = engine::players::playRandomly(state, rng, printer)) {
        std::cerr << "vivaref random-record (seed " << game.seed << "): " << *problem << "\n";
        return kExitRefused;
    }
    return kExitOk;
}

}  // namespace vivaref::daemon
