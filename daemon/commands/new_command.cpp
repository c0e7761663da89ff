// `vivaref new`: the host starts a game on the running daemon from the
// command line, as the host's page does (POST /api/host/new-game,
// web-ui/API.md), and gets each player's private link. Only the form of
// the options is checked here; the setup itself is the referee's to judge,
// and its refusal is printed as it gives it.
#include <algorithm>
#include <iostream>
#include <map>
#include <optional>
#include <variant>

#include <nlohmann/json.hpp>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/host_connection.hpp"
#include "daemon/referee/bot_strength.hpp"
#include "daemon/referee/host_request.hpp"
#include "daemon/referee/player_names.hpp"
#include "daemon/words/words.hpp"

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

// Everything the command line gives.
struct NewOptions {
    SetupFlags flags;
    std::string setupText, playersText, favourites;
    std::vector<std::string> playerNames, botFlags, memberNames, votesFlags;
    std::vector<int> remoteSeats;
    bool printJson = false;
    HostConnectionOptions connection;
};

std::string newAbout() {
    return std::string(
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
           "  vivaref new --edition 2024 --players Ann,Bob,Cy,Dan --votes 2:phone --remote 3\n"
           "      (Cy votes on the phone; Dan plays from afar: his page chooses, the table moves)\n"
           "  vivaref new --edition classic --players Ann,Bob,Cy,Dan --member Ann --member Cy\n"
           "      (Ann and Cy are the club's members of those names, Bob and Dan guests)";
}

void addNewOptions(CommandLine& line, NewOptions& o) {
    line.visible.add_options()("setup", po::value(&o.setupText),
                               "the whole setup: a GAME-RECORD setup object")(
        "edition", po::value(&o.flags.edition), "classic, online or 2024")(
        "seats", po::value(&o.flags.seats),
        "seats at the table (default: the teams' seats, else the players)")(
        "rounds", po::value(&o.flags.rounds), "rounds to play (default: the edition's)")(
        "first", po::value(&o.flags.first), "the seat that plays first, from 0 (default 0)")(
        "variant", po::value(&o.flags.variant), "none, emissary, royal-couple, teams or team-pawn")(
        "teams", po::value(&o.flags.teams), "each seat's players, e.g. \"0,1;2,3;4\" (teams, team-pawn)")(
        "ambition", po::bool_switch(&o.flags.ambition), "the 2024 Ambition option")(
        "banished", po::bool_switch(&o.flags.banished), "the 2024 Banished option")(
        "players", po::value(&o.playersText), "the players' names in order, separated by ','")(
        "player", po::value(&o.playerNames), "one player's name (repeat it, in order)")(
        "favourites", po::value(&o.favourites),
        "dealt (the referee deals the cards; default) or physical (the table's own cards)")(
        "bot", po::value(&o.botFlags),
        "SEAT[:STRENGTH]: the referee plays this seat (from 0); STRENGTH casual, good (default) or strong; "
        "repeat for more bots")(
        "votes", po::value(&o.votesFlags),
        "SEAT:station|phone|either: how this seat (from 0) votes (default: with its station where the "
        "castle has one, else on its player's phone); repeat for more seats")(
        "remote", po::value(&o.remoteSeats),
        "SEAT: this seat (from 0) is played from afar, on its player's phone; repeat for more")(
        "member", po::value(&o.memberNames),
        "NAME: the player NAME is the club's member of that name (the table's cached list of its "
        "club's members, [club]); repeat for more; the other players are guests")(
        "json", po::bool_switch(&o.printJson),
        "print the daemon's answer as JSON, each player with a \"url\"");
    o.connection.addTo(line);
}

// The players' names, in order; each checked as the daemon would, so the
// command line is named.
std::optional<std::vector<std::string>> readPlayers(const NewOptions& o, const po::variables_map& vm,
                                                    std::string& why) {
    if (vm.count("players") && vm.count("player")) {
        why = "name the players with --players A,B,... or with --player NAME, not both";
        return std::nullopt;
    }
    std::vector<std::string> players = o.playerNames;
    if (vm.count("players")) players = split(o.playersText, ',');
    // The host API's own check (what the daemon would refuse), in English.
    if (auto problem = referee::newPlayerNamesProblem(players)) {
        why = words::english().say(*problem);
        return std::nullopt;
    }
    return players;
}

// --bot SEAT[:STRENGTH] flags as the request's "bots".
std::optional<json> readBots(const std::vector<std::string>& botFlags, std::string& why) {
    json bots = json::array();
    for (const auto& flag : botFlags) {
        const auto colon = flag.find(':');
        const std::string seat = flag.substr(0, colon);
        const std::string strength = colon == std::string::npos ? "good" : flag.substr(colon + 1);
        if (seat.empty() || seat.size() > 2 || seat.find_first_not_of("0123456789") != std::string::npos) {
            why = "--bot is SEAT[:STRENGTH] with the seat from 0, e.g. --bot 2:strong; not '" + flag + "'";
            return std::nullopt;
        }
        if (!referee::botStrength(strength)) {
            why = "a bot's strength is one of " + referee::botStrengthNames() + ", not '" + strength + "'";
            return std::nullopt;
        }
        bots.push_back(json{{"seat", std::stoi(seat)}, {"strength", strength}});
    }
    return bots;
}

// --votes SEAT:HOW and --remote SEAT flags as the request's "seats" (the
// daemon judges the seats against the game).
std::optional<json> readSeats(const std::vector<std::string>& votesFlags, const std::vector<int>& remoteSeats,
                              std::string& why) {
    std::map<int, json> seats;
    for (const auto& flag : votesFlags) {
        const auto colon = flag.find(':');
        const std::string seat = flag.substr(0, colon);
        const std::string how = colon == std::string::npos ? "" : flag.substr(colon + 1);
        if (seat.empty() || seat.size() > 2 || seat.find_first_not_of("0123456789") != std::string::npos ||
            !referee::readVoteSource(how)) {
            why =
                "--votes is SEAT:station, SEAT:phone or SEAT:either with the seat from 0, e.g. --votes "
                "2:phone; "
                "not '" +
                flag + "'";
            return std::nullopt;
        }
        seats[std::stoi(seat)]["votes"] = how;
    }
    for (int seat : remoteSeats) {
        if (seat < 0 || seat > 63) {
            why = "--remote names a seat from 0, not " + std::to_string(seat);
            return std::nullopt;
        }
        seats[seat]["remote"] = true;
    }
    json out = json::array();
    for (auto& [seat, entry] : seats) {
        entry["seat"] = seat;
        out.push_back(std::move(entry));
    }
    return out;
}

// The setup: --setup as given, or built from the setup flags (never both).
std::optional<json> readSetup(const NewOptions& o, const po::variables_map& vm, std::size_t players,
                              std::string& why) {
    if (!vm.count("setup")) return setupFromFlags(o.flags, vm, players, why);
    for (const char* flag : kSetupFlags)
        if (vm.count(flag)) {
            why = std::string("--setup is the whole setup: --") + flag + " cannot come with it";
            return std::nullopt;
        }
    if (o.flags.ambition || o.flags.banished) {
        why = "--setup is the whole setup: its \"options\" say ambition and banished";
        return std::nullopt;
    }
    json setup = json::parse(o.setupText, nullptr, false);
    if (setup.is_discarded()) {
        why = "--setup is not JSON: '" + o.setupText + "'";
        return std::nullopt;
    }
    return setup;
}

// --member NAME flags resolved against the club's members as the table
// cached them: the request's "members", a member id or null a player.
// An exit status when one cannot be resolved (said on stderr).
std::variant<json, int> resolveMembers(const HostConnection& daemon, const std::vector<std::string>& players,
                                       const std::vector<std::string>& memberNames) {
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
                      << (names.empty() ? " (the table has no list of its members yet)" : " (" + names + ")")
                      << "; leave --member out to seat a guest\n";
            return kExitUsage;
        }
        members[static_cast<std::size_t>(seat - players.begin())] = *id;
    }
    return members;
}

}  // namespace

int runNew(const std::vector<std::string>& args) {
    NewOptions o;
    const std::string about = newAbout();  // CommandLine keeps a reference to it
    CommandLine line("new",
                     "vivaref new (--setup JSON | --edition E [setup options]) [--players A,B,...] [options]",
                     about);
    addNewOptions(line, o);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;

    std::string why;
    const auto players = readPlayers(o, vm, why);
    if (!players) return usageError(kNewCommand, why);
    auto bots = readBots(o.botFlags, why);
    if (!bots) return usageError(kNewCommand, why);
    auto seats = readSeats(o.votesFlags, o.remoteSeats, why);
    if (!seats) return usageError(kNewCommand, why);
    auto setup = readSetup(o, vm, players->size(), why);
    if (!setup) return usageError(kNewCommand, why);

    auto connection = openHostConnection(kNewCommand, o.connection);
    if (const int* status = std::get_if<int>(&connection)) return *status;
    const auto& daemon = std::get<HostConnection>(connection);

    json body = {{"setup", std::move(*setup)}, {"players", *players}};
    // Only when given: a daemon from before the key still takes the rest.
    if (vm.count("favourites")) body["favourites"] = o.favourites;
    if (!bots->empty()) body["bots"] = std::move(*bots);
    if (!seats->empty()) body["seats"] = std::move(*seats);
    if (!o.memberNames.empty()) {
        auto members = resolveMembers(daemon, *players, o.memberNames);
        if (const int* status = std::get_if<int>(&members)) return *status;
        body["members"] = std::get<json>(std::move(members));
    }
    auto answer = sendHostRequest(daemon, "/api/host/new-game", body);
    if (const int* status = std::get_if<int>(&answer)) return *status;
    // Started, with a word about a name that is also a character's (issue 34).
    if (const auto& started = std::get<json>(answer);
        started.contains("warning") && started["warning"].is_string())
        std::cerr << "vivaref new: warning: " << started["warning"].get<std::string>() << "\n";
    if (o.printJson)
        std::cout << withPlayerLinks(daemon, std::get<json>(std::move(answer))).dump() << "\n";
    else
        printPlayerLinks(std::cout, daemon, std::get<json>(answer));
    return kExitOk;
}

}  // namespace vivaref::daemon
