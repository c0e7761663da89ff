// `vivaref new`: the host starts a game on the running daemon from the
// command line, as the host's page does (POST /api/host/new-game,
// web-ui/API.md), and gets each player's private link. Only the form of
// the options is checked here; the setup itself is the referee's to judge,
// and its refusal is printed as it gives it.
#include <algorithm>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/host_connection.hpp"
#include "daemon/referee/bot_strength.hpp"
#include "engine/record/player_name.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;
using nlohmann::json;

namespace {

constexpr std::string_view kNewCommand = "new";

// The setup options other than --setup, as given.
struct SetupFlags {
    std::string edition, variant, teams;
    int seats = 0, rounds = 0, first = 0;
    bool ambition = false, banished = false;
};

// The options that build a setup: none may come with --setup.
constexpr const char* kSetupFlags[] = {"edition", "seats", "rounds", "first", "variant", "teams"};

std::string trimmed(std::string_view text) {
    const auto begin = text.find_first_not_of(" \t");
    if (begin == std::string_view::npos) return {};
    return std::string(text.substr(begin, text.find_last_not_of(" \t") - begin + 1));
}

std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> parts;
    for (;;) {
        const auto at = text.find(separator);
        parts.push_back(trimmed(text.substr(0, at)));
        if (at == std::string_view::npos) return parts;
        text.remove_prefix(at + 1);
    }
}

// "0,1;2,3;4": seat 0 is players 0 and 1, seat 1 players 2 and 3, seat 2
// player 4 (GAME-RECORD's "teams"). The form alone: numbers in groups.
std::optional<json> readTeams(std::string_view text, std::string& why) {
    json teams = json::array();
    const auto groups = split(text, ';');
    for (std::size_t g = 0; g < groups.size(); ++g) {
        json seat = json::array();
        for (const auto& player : split(groups[g], ',')) {
            if (player.empty() || player.size() > 3 ||
                player.find_first_not_of("0123456789") != std::string::npos) {
                why =
                    "--teams is each seat's players separated by ';', a seat's players by ',' "
                    "(\"0,1;2,3;4\"); "
                    "seat " +
                    std::to_string(g + 1) + " has '" + groups[g] + "'";
                return std::nullopt;
            }
            seat.push_back(std::stoi(player));
        }
        teams.push_back(std::move(seat));
    }
    return teams;
}

// The setup the flags describe. --seats defaults to the number of seats
// --teams names, else to the number of players.
std::optional<json> setupFromFlags(const SetupFlags& flags, const po::variables_map& vm, std::size_t players,
                                   std::string& why) {
    if (flags.edition.empty()) {
        why = "say which game: --edition classic|online|2024 (or the whole setup as --setup JSON)";
        return std::nullopt;
    }
    json setup = {{"edition", flags.edition}};
    std::optional<json> teams;
    if (vm.count("teams")) {
        teams = readTeams(flags.teams, why);
        if (!teams) return std::nullopt;
    }
    if (vm.count("seats"))
        setup["seats"] = flags.seats;
    else if (teams)
        setup["seats"] = teams->size();
    else if (players > 0)
        setup["seats"] = players;
    else {
        why = "say how many seats: --seats N (or name the players)";
        return std::nullopt;
    }
    if (vm.count("rounds")) setup["rounds"] = flags.rounds;
    if (vm.count("first")) setup["first"] = flags.first;
    if (flags.ambition || flags.banished) {
        json options = json::object();
        if (flags.ambition) options["ambition"] = true;
        if (flags.banished) options["banished"] = true;
        setup["options"] = std::move(options);
    }
    if (vm.count("variant")) setup["variant"] = flags.variant;
    if (teams) setup["teams"] = std::move(*teams);
    return setup;
}

}  // namespace

int runNew(const std::vector<std::string>& args) {
    SetupFlags flags;
    std::string setupText, playersText, favourites;
    std::vector<std::string> playerNames;
    std::vector<std::string> botFlags;
    std::vector<std::string> memberNames;
    bool printJson = false;
    HostConnectionOptions connectionOptions;
    const std::string about =
        std::string(
            "Starts a game on the running referee daemon ('vivaref serve'), as the host's page does, and\n"
            "prints each player's private link. The setup is either --setup, a GAME-RECORD setup object,\n"
            "or built from --edition, --seats and the other setup options. The referee judges the setup:\n"
            "what it refuses is printed with its code and sentence. The links are the daemon's address\n"
            "joined to each player's page; give --url with the castle's network address (not 127.0.0.1)\n"
            "for links the players' phones can open.\n\n") +
        kHostConnectionHelp +
        "\n\n"
        "Exit status: 0 the game started; 1 the daemon refused (a game in progress, a bad setup, the\n"
        "host token); 2 a bad command line or configuration, or no daemon answering.\n\n"
        "Examples:\n"
        "  vivaref new --edition classic --players Ann,Bob,Cy,Dan\n"
        "  vivaref new --config /etc/vivaref/castle.ini --url http://castle.local:8080 --edition 2024 \\\n"
        "      --ambition --banished --variant emissary --first 2 --players 'Ann,Bob,Cy'\n"
        "  vivaref new --setup "
        "'{\"edition\":\"2024\",\"seats\":3,\"variant\":\"teams\",\"teams\":[[0,1],[2],[3]]}' \\\n"
        "      --player Ann --player Bob --player Cy --player Dan --favourites physical\n"
        "  vivaref new --edition classic --players Ann,Bob,Clara,Dan --bot 2:strong\n"
        "      (Clara's seat is played by the referee: its moves are shown for anyone to make)\n"
        "  vivaref new --edition classic --players Ann,Bob,Cy,Dan --member Ann --member Cy\n"
        "      (Ann and Cy are the club's members of those names, Bob and Dan guests)";
    CommandLine line("new",
                     "vivaref new (--setup JSON | --edition E [setup options]) [--players A,B,...] [options]",
                     about);
    line.visible.add_options()("setup", po::value(&setupText), "the whole setup: a GAME-RECORD setup object")(
        "edition", po::value(&flags.edition), "classic, online or 2024")(
        "seats", po::value(&flags.seats), "seats at the table (default: the teams' seats, else the players)")(
        "rounds", po::value(&flags.rounds), "rounds to play (default: the edition's)")(
        "first", po::value(&flags.first), "the seat that plays first, from 0 (default 0)")(
        "variant", po::value(&flags.variant), "none, emissary, royal-couple, teams or team-pawn")(
        "teams", po::value(&flags.teams), "each seat's players, e.g. \"0,1;2,3;4\" (teams, team-pawn)")(
        "ambition", po::bool_switch(&flags.ambition), "the 2024 Ambition option")(
        "banished", po::bool_switch(&flags.banished), "the 2024 Banished option")(
        "players", po::value(&playersText), "the players' names in order, separated by ','")(
        "player", po::value(&playerNames), "one player's name (repeat it, in order)")(
        "favourites", po::value(&favourites),
        "dealt (the referee deals the cards; default) or physical (the table's own cards)")(
        "bot", po::value(&botFlags),
        "SEAT[:STRENGTH]: the referee plays this seat (from 0); STRENGTH casual, good (default) or strong; "
        "repeat for more bots")(
        "member", po::value(&memberNames),
        "NAME: the player NAME is the club's member of that name (the table's cached list of its "
        "club's members, [club]); repeat for more; the other players are guests")(
        "json", po::bool_switch(&printJson), "print the daemon's answer as JSON, each player with a \"url\"");
    connectionOptions.addTo(line);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;

    if (vm.count("players") && vm.count("player"))
        return usageError(kNewCommand,
                          "name the players with --players A,B,... or with --player NAME, not both");
    std::vector<std::string> players = playerNames;
    if (vm.count("players")) players = split(playersText, ',');
    // The daemon's own check, here first so the command line is named.
    for (std::size_t p = 0; p < players.size(); ++p)
        if (auto why = record::playerNameProblem(players[p]))
            return usageError(kNewCommand, "player " + std::to_string(p + 1) + "'s name " + *why);

    json bots = json::array();
    for (const auto& flag : botFlags) {
        const auto colon = flag.find(':');
        const std::string seat = flag.substr(0, colon);
        const std::string strength = colon == std::string::npos ? "good" : flag.substr(colon + 1);
        if (seat.empty() || seat.size() > 2 || seat.find_first_not_of("0123456789") != std::string::npos)
            return usageError(
                kNewCommand,
                "--bot is SEAT[:STRENGTH] with the seat from 0, e.g. --bot 2:strong; not '" + flag + "'");
        if (!referee::botStrength(strength))
            return usageError(kNewCommand, "a bot's strength is one of " + referee::botStrengthNames() +
                                               ", not '" + strength + "'");
        bots.push_back(json{{"seat", std::stoi(seat)}, {"strength", strength}});
    }

    json setup;
    if (vm.count("setup")) {
        for (const char* flag : kSetupFlags)
            if (vm.count(flag))
                return usageError(kNewCommand, std::string("--setup is the whole setup: --") + flag +
                                                   " cannot come with it");
        if (flags.ambition || flags.banished)
            return usageError(kNewCommand,
                              "--setup is the whole setup: its \"options\" say ambition and banished");
        setup = json::parse(setupText, nullptr, false);
        if (setup.is_discarded()) return usageError(kNewCommand, "--setup is not JSON: '" + setupText + "'");
    } else {
        std::string why;
        auto built = setupFromFlags(flags, vm, players.size(), why);
        if (!built) return usageError(kNewCommand, why);
        setup = std::move(*built);
    }

    auto connection = openHostConnection(kNewCommand, connectionOptions);
    if (const int* status = std::get_if<int>(&connection)) return *status;
    const auto& daemon = std::get<HostConnection>(connection);

    json body = {{"setup", std::move(setup)}, {"players", players}};
    // Only when given: a daemon from before the key still takes the rest.
    if (vm.count("favourites")) body["favourites"] = favourites;
    if (!bots.empty()) body["bots"] = std::move(bots);
    if (!memberNames.empty()) {
        // Resolved against the club's members as the table cached them.
        auto listed = sendHostRequest(daemon, "/api/host/members", std::nullopt);
        if (const int* status = std::get_if<int>(&listed)) return *status;
        const auto& known = std::get<json>(listed);
        if (!known.value("club", false)) {
            std::cerr << "vivaref new: --member: this table has no club ([club] in its configuration)\n";
            return kExitUsage;
        }
        json members = json(std::vector<json>(players.size(), nullptr));
        for (const auto& name : memberNames) {
            const auto seat = std::find(players.begin(), players.end(), name);
            if (seat == players.end()) {
                std::cerr << "vivaref new: --member " << name << ": no player of that name (--players)\n";
                return kExitUsage;
            }
            std::optional<std::int64_t> id;
            for (const auto& m : known.value("members", json::array()))
                if (m.value("name", "") == name) id = m.value("id", std::int64_t{0});
            if (!id) {
                std::string names;
                for (const auto& m : known.value("members", json::array()))
                    names += (names.empty() ? "" : ", ") + m.value("name", "");
                std::cerr << "vivaref new: --member " << name << ": the club has no member of that name"
                          << (names.empty() ? " (the table has no list of its members yet)"
                                            : " (" + names + ")")
                          << "; leave --member out to seat a guest\n";
                return kExitUsage;
            }
            members[static_cast<std::size_t>(seat - players.begin())] = *id;
        }
        body["members"] = std::move(members);
    }
    auto answer = sendHostRequest(daemon, "/api/host/new-game", body);
    if (const int* status = std::get_if<int>(&answer)) return *status;
    if (printJson)
        std::cout << withPlayerLinks(daemon, std::get<json>(std::move(answer))).dump() << "\n";
    else
        printPlayerLinks(std::cout, daemon, std::get<json>(answer));
    return kExitOk;
}

}  // namespace vivaref::daemon
