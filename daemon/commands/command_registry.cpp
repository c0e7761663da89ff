#include <array>

#include "daemon/commands/command.hpp"

namespace vivaref::daemon {
namespace {

// A new command (serve, simulate, games, show, export, verify, enrol,
// check-config) is one file under commands/ and one line here.
constexpr std::array kCommands = {
    Command{"serve",
            "Run the referee daemon: the castle, the votes, the game log and the web pages on one loop.",
            runServe},
    Command{"new",
            "Start a game on the running daemon (setup, players) and print each player's private link.",
            runNew},
    Command{"host", "Send the host's other requests to the running daemon: undo, pause, resume, abandon, ...",
            runHost},
    Command{"host-link",
            "Print the host's link (the host page with the host's secret) to open on the host's device.",
            runHostLink},
    Command{"self-test",
            "Check the castle with the running daemon: readers, LEDs, keys (--full: a tag over each reader).",
            runSelfTest},
    Command{"replay", "Replay a game record (a file, or - for stdin) and print its result as JSON.",
            runReplay},
    Command{"bench", "Play random complete games on one core and print how fast the engine runs.", runBench},
    Command{"random-record", "Play one random game and print it as a game record (for tests and examples).",
            runRandomRecord},
    Command{"games", "List the games in the game log (id, date, edition, players, winners, status).",
            runGames},
    Command{"show", "Tell one logged game as a story: moves, elections, votes, scores, winners.", runShow},
    Command{"analyse",
            "Where a finished game was won and lost: chances to win after each decision, the swings.",
            runAnalyse},
    Command{"export", "Write one logged game as a game record that 'vivaref replay' reads.", runExport},
    Command{"verify", "Replay logged games through the rules and report any difference from the log.",
            runVerify},
    Command{"stats", "Figures over every logged game: wins, round scores, crowned and rejected characters.",
            runStats},
    Command{"simulate",
            "Run the referee over a referee trace on a simulated castle in virtual time; print a summary.",
            runSimulate},
    Command{"trace", "Referee traces: export a logged game's trace, or make one from a game record.",
            runTrace},
    Command{"check-config",
            "Check a castle configuration file (readers, stations, LEDs) without touching hardware.",
            runCheckConfig},
    Command{"enrol", "Record which RFID tag belongs to which character, one character at a time.", runEnrol},
    Command{"unit-access",
            "Print the systemd drop-in that lets the service reach only what its configuration uses.",
            runUnitAccess},
    Command{"club",
            "The club's league on PostgreSQL: schema, tables, members, standings, a member's history.",
            runClub},
};

}  // namespace

std::span<const Command> commands() { return kCommands; }

const Command* findCommand(std::string_view name) {
    for (const auto& c : kCommands)
        if (c.name == name) return &c;
    return nullptr;
}

}  // namespace vivaref::daemon
