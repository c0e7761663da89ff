// `vivaref analyse GAME`: where a finished game was won and lost
// (engine/players/analysis.hpp): each player's chance to win after every
// decision, the three decisions that swung it most, and the decisions where
// the search player would have chosen otherwise, with what that was worth.
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/game_log_options.hpp"
#include "daemon/referee/board_places.hpp"
#include "engine/players/analysis.hpp"
#include "engine/record/record_replayer.hpp"
#include "engine/record/line_writer.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;
using nlohmann::json;

namespace {

constexpr const char* kCommand = "analyse";

struct Game {
    std::shared_ptr<const engine::Rules> rules;
    std::vector<engine::Decision> decisions;
    std::vector<engine::State> before;  // the position before each decision
    std::vector<std::string> names;     // by player
    // The decision after these breaks the rules: the analysis stops before it.
    bool stopsEarly = false;
};

// A record's lines (setup first) played: its decisions, each with the
// position before it. A line that cannot be read is named; the first
// decision the rules refuse ends the game there.
std::optional<Game> readGame(const std::vector<std::string>& lines, std::string& why) {
    Game game;
    int decisionLine = 0;
    auto replay = record::replayLines(lines, {.before = [&](int line, const engine::Decision& d, const engine::State& s) {
        decisionLine = line;
        game.decisions.push_back(d);
        game.before.push_back(s);
        return true;
    }});
    if (const auto& failure = replay.failure) {
        if (failure->unreadable || !replay.state || failure->line != decisionLine) {
            why = "line " + std::to_string(failure->line) + ": " + failure->refusal.message;
            return std::nullopt;
        }
        game.decisions.pop_back();
        game.before.pop_back();
        game.stopsEarly = true;
    }
    game.rules = replay.state->rulesPtr();
    return game;
}

class Words {
public:
    explicit Words(const Game& g) : game_(g) {}
    std::string player(engine::PlayerId p) const {
        return p.index < game_.names.size() && !game_.names[p.index].empty() ? game_.names[p.index]
                                                                              : "Player " + std::to_string(p.index + 1);
    }
    std::string seat(engine::Seat s) const {
        std::string out;
        for (int i = 0; i < game_.rules->playersAt(s); ++i)
            out += (out.empty() ? "" : " and ") + player(game_.rules->playerAt(s, i));
        return out;
    }
    std::string character(engine::CharacterId c) const { return game_.rules->roster()[c].name; }
    // A decision in the table's words; `state` is the position before it.
    std::string decision(const engine::State& state, const engine::Decision& d) const {
        if (const auto* deal = std::get_if<engine::Deal>(&d)) return "round " + std::to_string(deal->round) + " dealt";
        if (std::holds_alternative<engine::Reshuffle>(d)) return "the Emissary's pile shuffled";
        return action(state, std::get<engine::Action>(d));
    }
    std::string action(const engine::State& state, const engine::Action& a) const {
        switch (a.kind()) {
            case engine::ActionKind::Place:
                return seat(a.seat()) + " places " + character(a.character()) + " on " + referee::placeWord(a.to());
            case engine::ActionKind::Move:
                return seat(a.seat()) + " moves " + character(a.character()) + " from " +
                       referee::placeWord(state.placeOf(a.character())) + " to " + referee::placeWord(a.to());
            case engine::ActionKind::Vote:
                return seat(a.seat()) + " votes " + std::string(engine::voteCardName(a.card()));
            case engine::ActionKind::Keep:
                return player(a.player()) + " keeps " + std::string(engine::ambitionCardName(a.ambition()));
            case engine::ActionKind::Pass:
                return seat(a.seat()) + " passes";
        }
        return {};
    }

private:
    const Game& game_;
};

std::string percent(double chance) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(0) << 100 * chance << " %";
    return out.str();
}

json estimateJson(const engine::players::OutcomeEstimate& e) {
    return json{{"expected_score", e.expectedScore}, {"win_chance", e.winChance}, {"emissary_wins", e.emissaryWins}};
}

}  // namespace

int runAnalyse(const std::vector<std::string>& args) {
    GameLogOptions where;
    std::string recordPath;
    engine::players::AnalysisSettings settings;
    std::uint64_t seed = 1;
    bool printJson = false;
    CommandLine line(
        kCommand, "vivaref analyse [options] (GAME | --record FILE)",
        "Where a finished game was won and lost. After every decision, each player's expected final\n"
        "score and chance to win, estimated by playing the game out many times from that position with\n"
        "every card known (moves at random, votes as a casual player casts them); the three decisions\n"
        "that changed the chances most; and each decision where the search player, knowing only what\n"
        "that player knew, would have chosen otherwise, with the chance to win it would have given.\n"
        "GAME is a game of the game log ('vivaref games' lists them); a game still being played is\n"
        "not analysed (the analysis knows every card). --record analyses a GAME-RECORD file instead.\n"
        "The same game, options and --seed give the same analysis.\n\n"
        "Example: vivaref analyse 12\n"
        "         vivaref analyse --record tests/records/classic-4-by-hand.jsonl --rollouts 400 --json");
    addGameLogOptions(line.visible, where);
    line.visible.add_options()("record", po::value(&recordPath), "a GAME-RECORD file (- reads standard input)")(
        "rollouts", po::value(&settings.rollouts)->default_value(settings.rollouts),
        "games played out for each estimate")(
        "iterations", po::value(&settings.iterations)->default_value(settings.iterations),
        "the search player's iterations for each decision reviewed")(
        "seed", po::value(&seed)->default_value(seed), "seed of the rollouts and the search")(
        "json", po::bool_switch(&printJson), "print the whole analysis as one JSON object");
    line.hidden.add_options()("game", po::value<std::string>(), "the game's id");
    line.positional.add("game", 1);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (vm.count("game") == vm.count("record"))
        return usageError(kCommand, "name one GAME of the game log, or a --record FILE");
    if (settings.rollouts < 1 || settings.rollouts > 100000)
        return usageError(kCommand, "--rollouts is from 1 to 100000");
    if (settings.iterations < 1 || settings.iterations > 10000000)
        return usageError(kCommand, "--iterations is from 1 to 10000000");

    std::vector<std::string> lines;
    std::vector<std::string> names;
    std::string what;
    if (vm.count("record")) {
        std::string why;
        auto text = readInputFile(recordPath, why);
        if (!text) return usageError(kCommand, why);
        std::istringstream in(*text);
        for (std::string l; std::getline(in, l);) lines.push_back(l);
        what = recordPath;
    } else {
        auto id = parseGameId(vm["game"].as<std::string>());
        if (!id) return usageError(kCommand, "GAME is a game's id, a number 'vivaref games' lists");
        const auto db = gameLogPath(where, kCommand);
        if (!db) return kExitUsage;
        store::GameStore log(*db, store::GameStore::Access::MustExist);
        const auto summary = log.game(*id);
        if (!summary) return usageError(kCommand, "the game log has no game " + std::to_string(id->value));
        if (!summary->ended && !summary->complete && !summary->abandoned) {
            std::cerr << "vivaref analyse: game " << id->value
                      << " is still being played: it is analysed once it is over (the analysis knows every card)\n";
            return kExitRefused;
        }
        lines = log.recordLines(*id);
        for (const auto& p : summary->players) {
            if (p.player < 0) continue;
            if (names.size() <= static_cast<std::size_t>(p.player)) names.resize(static_cast<std::size_t>(p.player) + 1);
            names[static_cast<std::size_t>(p.player)] = p.name;
        }
        what = "game " + std::to_string(id->value);
    }
    std::string why;
    auto game = readGame(lines, why);
    if (!game) {
        std::cerr << "vivaref analyse: " << what << ": " << why << "\n";
        return kExitRefused;
    }
    game->names = std::move(names);

    engine::Rng rng(seed);
    const engine::State initial(game->rules);
    const auto analysis = engine::players::analyseGame(initial, game->decisions, settings, rng);
    if (game->stopsEarly || analysis.decisions.size() < game->decisions.size()) {
        std::cerr << "vivaref analyse: " << what << ": decision " << analysis.decisions.size() + 1
                  << " breaks the rules; the analysis stops before it\n";
    }
    const auto& before = game->before;
    const Words words(*game);
    const int players = game->rules->players();

    if (printJson) {
        json decisions = json::array();
        for (std::size_t i = 0; i < analysis.decisions.size(); ++i) {
            const auto& d = analysis.decisions[i];
            json entry{{"decision", i + 1},
                       {"text", words.decision(before[i], game->decisions[i])},
                       {"after", estimateJson(d.after)},
                       {"swing", d.swing}};
            if (d.review)
                entry["review"] = json{{"seat", d.review->seat.index},
                                       {"preferred", words.action(before[i], d.review->preferred)},
                                       {"preferred_line", json::parse(record::writeAction(d.review->preferred, *game->rules))},
                                       {"played_chance", d.review->playedChance},
                                       {"preferred_chance", d.review->preferredChance},
                                       {"gain", d.review->gain()}};
            decisions.push_back(std::move(entry));
        }
        json swings = json::array();
        for (int s : analysis.swings) swings.push_back(s + 1);
        std::cout << json{{"game", what},
                          {"players", [&] {
                               json out = json::array();
                               for (int p = 0; p < players; ++p)
                                   out.push_back(words.player(engine::PlayerId{static_cast<std::uint8_t>(p)}));
                               return out;
                           }()},
                          {"settings",
                           {{"rollouts", settings.rollouts}, {"iterations", settings.iterations}, {"seed", seed}}},
                          {"before", estimateJson(analysis.before)},
                          {"decisions", std::move(decisions)},
                          {"swings", std::move(swings)}}
                         .dump()
                  << "\n";
        return kExitOk;
    }

    std::cout << "Analysis of " << what << ": " << analysis.decisions.size() << " decisions, " << settings.rollouts
              << " games played out for each estimate, the search player at " << settings.iterations
              << " iterations.\n\nChances to win after each decision (every card known):\n";
    std::cout << std::setw(5) << "#";
    for (int p = 0; p < players; ++p)
        std::cout << std::setw(12) << words.player(engine::PlayerId{static_cast<std::uint8_t>(p)}).substr(0, 11);
    std::cout << "  decision\n";
    auto row = [&](const std::string& number, const engine::players::OutcomeEstimate& e, const std::string& text) {
        std::cout << std::setw(5) << number;
        for (int p = 0; p < players; ++p) std::cout << std::setw(12) << percent(e.winChance[static_cast<std::size_t>(p)]);
        std::cout << "  " << text << "\n";
    };
    row("0", analysis.before, "the start");
    for (std::size_t i = 0; i < analysis.decisions.size(); ++i)
        row(std::to_string(i + 1), analysis.decisions[i].after, words.decision(before[i], game->decisions[i]));

    std::cout << "\nThe decisions that swung the game most:\n";
    for (int s : analysis.swings) {
        const auto i = static_cast<std::size_t>(s);
        std::cout << "  #" << i + 1 << " " << words.decision(before[i], game->decisions[i]) << ": a chance to win moved by "
                  << percent(analysis.decisions[i].swing) << "\n";
    }
    std::cout << "\nWhere the search player would have chosen otherwise (worth at least "
              << percent(settings.worthTelling) << " more chance to win):\n";
    int told = 0;
    for (std::size_t i = 0; i < analysis.decisions.size(); ++i) {
        const auto& review = analysis.decisions[i].review;
        if (!review || review->gain() < settings.worthTelling) continue;
        ++told;
        std::cout << "  #" << i + 1 << " " << words.decision(before[i], game->decisions[i]) << " ("
                  << percent(review->playedChance) << "); the search player: "
                  << words.action(before[i], review->preferred) << " (" << percent(review->preferredChance) << ")\n";
    }
    if (!told) std::cout << "  none\n";
    return kExitOk;
}

}  // namespace vivaref::daemon
