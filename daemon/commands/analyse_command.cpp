// `vivaref analyse GAME`: where a finished game was won and lost
// (engine/players/analysis.hpp): each player's chance to win after every
// decision, the three decisions that swung it most, and the decisions where
// the search player would have chosen otherwise, with what that was worth.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <variant>

#include <nlohmann/json.hpp>

#include "daemon/analysis/analysis_report.hpp"
#include "daemon/commands/command.hpp"
#include "daemon/commands/command_language.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/game_log_options.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"
#include "engine/players/analysis.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;
using nlohmann::json;

namespace {

constexpr const char* kAnalyseCommand = "analyse";

std::string percent(double chance) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(0) << 100 * chance << " %";
    return out.str();
}

// A decision's words: its message, or the English text of an analysis made
// before messages (issue 33).
engine::MessageValue saidOf(const json& says, const json& text) {
    if (says.is_object()) try {
            return engine::say::message(words::messageFromJson(says));
        } catch (const std::invalid_argument&) {
        }
    return engine::say::text(text.is_string() ? text.get<std::string>() : std::string());
}

// The analysis (analysis_report.hpp's JSON, checked) for a person, in
// `words`' language. `game`: the log's game it is, if it is one.
void printText(const json& a, const words::Words& words, std::optional<store::GameId> game,
               std::ostream& out) {
    using engine::Message;
    namespace say = engine::say;
    const auto& settings = a["settings"];
    const auto& decisions = a["decisions"];
    const std::size_t players = a["players"].size();
    engine::MessageValue what = say::text(a["game"].get<std::string>());
    if (game)
        what = say::message(Message("analysis.game", {{"game", say::text(std::to_string(game->value))}}));
    out << words.say(Message(
               "analysis.heading",
               {{"what", what},
                {"decisions", say::number(static_cast<std::int64_t>(decisions.size()))},
                // Settings, written as given: "2000", never "2,000".
                {"rollouts", say::text(std::to_string(settings.value("rollouts", 0)))},
                {"iterations", say::text(std::to_string(settings.value("iterations", std::int64_t{0})))}}))
        << "\n\n"
        << words.say(Message("analysis.chances")) << "\n";
    out << std::setw(5) << "#";
    for (std::size_t p = 0; p < players; ++p) {
        // An unnamed player is "Player 2" in English, "Joueur 2" in French.
        const auto said =
            a.contains("players_says") && a["players_says"].is_array() && p < a["players_says"].size()
                ? saidOf(a["players_says"][p], a["players"][p])
                : say::text(a["players"][p].get<std::string>());
        out << std::setw(12) << words.say(Message("analysis.player", {{"player", said}})).substr(0, 11);
    }
    out << "  " << words.say(Message("analysis.decision-column")) << "\n";
    auto row = [&](const std::string& number, const json& e, const std::string& text) {
        out << std::setw(5) << number;
        for (std::size_t p = 0; p < players; ++p)
            out << std::setw(12) << percent(e["win_chance"][p].get<double>());
        out << "  " << text << "\n";
    };
    auto decisionWords = [&](const json& d) { return saidOf(d.value("says", json()), d["text"]); };
    // Numbered as the review page's steps: the start (the setup) is step 1,
    // decision N (the record's line N) step N + 1.
    const auto step = [](std::size_t decision) { return static_cast<std::int64_t>(decision) + 1; };
    row(std::to_string(step(0)), a["before"], words.say(Message("analysis.start")));
    for (std::size_t i = 0; i < decisions.size(); ++i)
        row(std::to_string(step(i + 1)), decisions[i]["after"],
            words.say(Message("analysis.decision", {{"decision", decisionWords(decisions[i])}})));

    out << "\n" << words.say(Message("analysis.swings")) << "\n";
    for (const auto& s : a["swings"]) {
        const auto& d = decisions[s.get<std::size_t>() - 1];
        out << "  "
            << words.say(Message("analysis.swing", {{"number", say::number(step(s.get<std::size_t>()))},
                                                    {"decision", decisionWords(d)},
                                                    {"swing", say::text(percent(d["swing"].get<double>()))}}))
            << "\n";
    }
    const double worth = settings.value("worth_telling", 0.03);
    out << "\n" << words.say(Message("analysis.reviews", {{"worth", say::text(percent(worth))}})) << "\n";
    int told = 0;
    for (std::size_t i = 0; i < decisions.size(); ++i) {
        if (!decisions[i].contains("review")) continue;
        const auto& review = decisions[i]["review"];
        if (review["gain"].get<double>() < worth) continue;
        ++told;
        out << "  "
            << words.say(Message(
                   "analysis.review",
                   {{"number", say::number(step(i + 1))},
                    {"decision", decisionWords(decisions[i])},
                    {"played", say::text(percent(review["played_chance"].get<double>()))},
                    {"preferred", saidOf(review.value("preferred_says", json()), review["preferred"])},
                    {"chance", say::text(percent(review["preferred_chance"].get<double>()))}}))
            << "\n";
    }
    if (!told) out << "  " << words.say(Message("analysis.none")) << "\n";
}

struct AnalyseOptions {
    GameLogOptions where;
    std::string recordPath;
    engine::players::AnalysisSettings settings;
    std::uint64_t seed = 1;
    bool printJson = false;
    bool redo = false;
    std::string language;
};

constexpr const char* kAnalyseAbout =
    "Where a finished game was won and lost. After every decision, each player's expected final\n"
    "score and chance to win, estimated by playing the game out many times from that position with\n"
    "every card known (moves at random, votes as a casual player casts them); the three decisions\n"
    "that changed the chances most; and each decision where the search player, knowing only what\n"
    "that player knew, would have chosen otherwise, with the chance to win it would have given.\n"
    "GAME is a game of the game log ('vivaref games' lists them); a game still being played is\n"
    "not analysed (the analysis knows every card). The analysis of GAME is kept in the game log\n"
    "(serve also makes it in the background once a game is over): when one is kept, it is printed\n"
    "as it is, unless --redo, or --rollouts, --iterations or --seed ask for other settings than\n"
    "those it was made with; then it is made again and replaces it. --record analyses a\n"
    "GAME-RECORD file instead (nothing is kept). The same game, options and --seed give the same\n"
    "analysis. It is told in --lang's language, else the locale's (LC_ALL, LC_MESSAGES, LANG), else\n"
    "in English (--json: the JSON, with each decision's message beside its English words). Its\n"
    "lines are numbered as the review page's steps: the start (the setup) is step 1, the record's\n"
    "decision N step N + 1 (--json keeps the record's numbers).\n\n"
    "Example: vivaref analyse 12\n"
    "         vivaref analyse --record tests/records/classic-4-by-hand.jsonl --rollouts 400 --json";

void addAnalyseOptions(CommandLine& line, AnalyseOptions& o) {
    addGameLogOptions(line.visible, o.where);
    line.visible.add_options()("record", po::value(&o.recordPath),
                               "a GAME-RECORD file (- reads standard input)")(
        "rollouts", po::value(&o.settings.rollouts)->default_value(o.settings.rollouts),
        "games played out for each estimate")(
        "iterations", po::value(&o.settings.iterations)->default_value(o.settings.iterations),
        "the search player's iterations for each decision reviewed")(
        "seed", po::value(&o.seed)->default_value(o.seed), "seed of the rollouts and the search")(
        "redo", po::bool_switch(&o.redo), "make GAME's analysis again even when the game log keeps one")(
        "json", po::bool_switch(&o.printJson), "print the whole analysis as one JSON object");
    addLanguageOption(line.visible, o.language);
    line.hidden.add_options()("game", po::value<std::string>(), "the game's id");
    line.positional.add("game", 1);
}

// The analysis the game log keeps for `id`, when it answers the command
// line (no --redo, no other settings asked for); nothing when it is to be
// made again; an exit status when it cannot be read (said on stderr).
std::variant<std::monostate, json, int> keptAnalysis(store::GameStore& log, store::GameId id,
                                                     const std::string& what, const AnalyseOptions& o,
                                                     const po::variables_map& vm) {
    const auto kept = log.analyses().find(id);
    if (!kept || o.redo) return std::monostate{};
    const json stored = json::parse(kept->result, nullptr, false);
    auto problem = stored.is_discarded() ? std::optional<std::string>("it is not JSON")
                                         : analysis::analysisProblem(stored);
    if (problem) {
        std::cerr << "vivaref analyse: " << what << ": the analysis kept in the game log cannot be read ("
                  << *problem << "); 'vivaref analyse " << id.value << " --redo' makes it again\n";
        return kExitRefused;
    }
    // Other settings asked for on the command line: made again with them.
    const auto& made = stored["settings"];
    const bool otherSettings =
        (!vm["rollouts"].defaulted() && made.value("rollouts", -1) != o.settings.rollouts) ||
        (!vm["iterations"].defaulted() &&
         made.value("iterations", std::int64_t{-1}) != o.settings.iterations) ||
        (!vm["seed"].defaulted() && made.value("seed", std::uint64_t{0}) != o.seed);
    if (otherSettings) return std::monostate{};
    return stored;
}

// The analysis made, kept in the game log when it came from there.
json makeAnalysis(const analysis::AnalysedGame& game, const AnalyseOptions& o, const std::string& what,
                  store::GameStore* log, std::optional<store::GameId> id) {
    engine::Rng rng(o.seed);
    const engine::State initial(game.rules);
    const auto result = engine::players::analyseGame(initial, game.decisions, o.settings, rng);
    if (result.decisions.size() < game.decisions.size()) {
        std::cerr << "vivaref analyse: " << what << ": decision " << result.decisions.size() + 1
                  << " breaks the rules; the analysis stops before it\n";
    }
    json made = analysis::analysisJson(game, result, o.settings, o.seed, what);
    if (log && id) {
        const auto now =
            std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
        const auto status =
            log->analyses().save(*id, analysis::settingsJson(o.settings, o.seed).dump(),
                                 made.dump(-1, ' ', false, json::error_handler_t::replace), now);
        if (!status.durable)
            std::cerr << "vivaref analyse: not kept in the game log: " << status.problem << "\n";
    }
    return made;
}

}  // namespace

int runAnalyse(const std::vector<std::string>& args) {
    AnalyseOptions o;
    CommandLine line(kAnalyseCommand, "vivaref analyse [options] (GAME | --record FILE)", kAnalyseAbout);
    addAnalyseOptions(line, o);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    if (vm.count("game") == vm.count("record"))
        return usageError(kAnalyseCommand, "name one GAME of the game log, or a --record FILE");
    if (o.settings.rollouts < 1 || o.settings.rollouts > 100000)
        return usageError(kAnalyseCommand, "--rollouts is from 1 to 100000");
    if (o.settings.iterations < 1 || o.settings.iterations > 10000000)
        return usageError(kAnalyseCommand, "--iterations is from 1 to 10000000");
    std::string badLanguage;
    const auto language = commandLanguage(o.language, badLanguage);
    if (!language) return usageError(kAnalyseCommand, badLanguage);
    // Names plain: the terminal reorders nothing (words.hpp).
    const words::Words told(*language, words::NameMarks::Plain);

    std::optional<store::GameId> id;
    auto print = [&](const json& a) {
        if (o.printJson)
            std::cout << a.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
        else
            printText(a, told, id, std::cout);
    };
    std::string what;
    std::optional<analysis::AnalysedGame> game;
    std::unique_ptr<store::GameStore> log;
    std::string why;
    if (vm.count("record")) {
        auto text = readInputFile(o.recordPath, why);
        if (!text) return usageError(kAnalyseCommand, why);
        std::vector<std::string> lines;
        std::istringstream in(*text);
        for (std::string l; std::getline(in, l);) lines.push_back(l);
        what = o.recordPath;
        game = analysis::readGame(lines, why);
    } else {
        id = parseGameId(vm["game"].as<std::string>());
        if (!id) return usageError(kAnalyseCommand, "GAME is a game's id, a number 'vivaref games' lists");
        const auto db = gameLogPath(o.where, kAnalyseCommand);
        if (!db) return kExitUsage;
        log = std::make_unique<store::GameStore>(*db, store::GameStore::Access::MustExist);
        const auto summary = log->game(*id);
        if (!summary)
            return usageError(kAnalyseCommand, "the game log has no game " + std::to_string(id->value));
        if (!analysis::isFinished(*summary)) {
            std::cerr
                << "vivaref analyse: game " << id->value
                << " is still being played: it is analysed once it is over (the analysis knows every card)\n";
            return kExitRefused;
        }
        what = "game " + std::to_string(id->value);
        auto kept = keptAnalysis(*log, *id, what, o, vm);
        if (const int* status = std::get_if<int>(&kept)) return *status;
        if (const json* stored = std::get_if<json>(&kept)) {
            print(*stored);
            return kExitOk;
        }
        game = analysis::readLoggedGame(*log, *summary, why);
    }
    if (!game) {
        std::cerr << "vivaref analyse: " << what << ": " << why << "\n";
        return kExitRefused;
    }
    print(makeAnalysis(*game, o, what, log.get(), id));
    return kExitOk;
}

}  // namespace vivaref::daemon
