// `vivaref games`: the logged games, one a line (or a JSON array): nothing
// secret, only who played, when, and who won.
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/game_log_options.hpp"
#include "daemon/commands/terminal_text.hpp"
#include "daemon/store/game_story.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

namespace {

std::string statusOf(const store::GameSummary& g) {
    if (g.abandoned) return "abandoned";
    if (g.complete) return "complete";
    if (g.ended) return "incomplete";
    return "in progress";
}

// `name` shows each winner's name.
std::vector<std::string> winnerNames(const store::GameSummary& g, std::string (*name)(std::string_view)) {
    std::vector<std::string> names;
    if (!g.result || !g.complete || !g.result->contains("winners")) return names;
    for (const auto& w : (*g.result)["winners"]) {
        const int p = w.get<int>();
        for (const auto& sp : g.players)
            if (sp.player == p) names.push_back(name(sp.name));
    }
    if (names.empty() && g.result->contains("emissary_total")) names.push_back("the Emissary");
    return names;
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
    return out;
}

}  // namespace

int runGames(const std::vector<std::string>& args) {
    GameLogOptions where;
    bool json = false;
    CommandLine line(
        "games", "vivaref games [options]",
        "Lists the games in the game log: id, start time, edition, players, winners, and whether\n"
        "the game is complete, incomplete, abandoned or still in progress.");
    addGameLogOptions(line.visible, where);
    line.visible.add_options()("json", po::bool_switch(&json), "print a JSON array");
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;

    const auto db = gameLogPath(where, "games");
    if (!db) return kExitUsage;
    store::GameStore log(*db, store::GameStore::Access::MustExist);
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    const auto games = log.games();
    // The games queued for the club ([club]) and not yet in it.
    std::map<store::GameId, store::OutboxEntry> waiting;
    for (auto& e : log.club().waiting()) waiting.emplace(e.game, std::move(e));
    for (const auto& g : games) {
        std::vector<std::string> players;
        // On the terminal each name is isolated (terminal_text.hpp); JSON keeps them as written.
        auto asKept = [](std::string_view name) { return std::string(name); };
        auto show = json ? +asKept : &terminalName;
        for (const auto& p : g.players) players.push_back(show(p.name));
        const auto winners = winnerNames(g, show);
        if (json) {
            list.push_back({{"id", g.id.value},
                            {"started_ms", g.started.time_since_epoch().count()},
                            {"edition", g.edition},
                            {"players", players},
                            {"winners", winners},
                            {"status", statusOf(g)}});
            if (auto it = waiting.find(g.id); it != waiting.end())
                list.back()["club"] = {{"state", it->second.permanent ? "refused" : "waiting"},
                                       {"attempts", it->second.attempts},
                                       {"last_error", it->second.lastError}};
        } else {
            std::cout << g.id.value << "  " << store::localTimeText(g.started) << "  " << g.edition << "  "
                      << joined(players) << "  " << (winners.empty() ? "-" : "won by " + joined(winners))
                      << "  " << statusOf(g) << (waiting.contains(g.id) ? "  waits for the club" : "")
                      << "\n";
        }
    }
    if (json)
        std::cout << list.dump() << "\n";
    else if (games.empty())
        std::cout << "No games in the log yet.\n";
    if (!json && !waiting.empty()) {
        const auto summary = log.club().summary();
        std::cout << waiting.size() << (waiting.size() == 1 ? " game waits" : " games wait")
                  << " to be pushed to the club";
        if (summary.lastAttempt)
            std::cout << " (last try " << store::localTimeText(*summary.lastAttempt)
                      << (summary.lastError.empty() ? "" : ": " + summary.lastError) << ")";
        std::cout << ".\n";
    }
    return kExitOk;
}

}  // namespace vivaref::daemon
