// What the host asks of the referee (the host's page, `vivaref new`, or a
// referee trace's `host` line): start a game, enter chance (a deal, the
// Emissary's pile), an Ambition choice, take back, pause, resume, abandon.
// Payloads that need the game's rules to be read (a deal, a keep, a pile)
// stay JSON here; the referee reads them with the game's rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/message.hpp"

namespace vivaref::referee {

// Who holds the Favourites cards (and Ambition cards): the referee deals
// them and each player reads theirs on a private page, or the table plays
// with its own physical cards and the host enters them when they are
// revealed at a coronation (REFEREE-NOTES.md, "Physical cards").
enum class FavouritesMode { Dealt, Physical };
const char* favouritesModeName(FavouritesMode mode);

// A seat the referee plays itself (REFEREE-NOTES.md, "Bots"): `strength`
// is "casual", "good" or "strong" (daemon/referee/bots_part.hpp).
struct BotSeatRequest {
    int seat = 0;  // from 0
    std::string strength;
    friend bool operator==(const BotSeatRequest&, const BotSeatRequest&) = default;
};

// How a seat votes (issue 35): with the keys of its vote station, with its
// player's phone (their page), or either. A seat played from afar votes by
// phone (REFEREE-NOTES.md, "Phones at the table").
enum class VoteSource { Station, Phone, Either };
const char* voteSourceName(VoteSource source);
std::optional<VoteSource> readVoteSource(std::string_view name);

// A new game's choice for one seat; a seat not named gets the table's
// default (its station where the castle has one, else the phone).
struct SeatSetup {
    int seat = 0;  // from 0
    std::optional<VoteSource> votes;
    bool remote = false;  // played from afar: the player's page places, moves and votes
    friend bool operator==(const SeatSetup&, const SeatSetup&) = default;
};

struct NewGameRequest {
    nlohmann::json setup;              // a GAME-RECORD setup object
    std::vector<std::string> players;  // one name per player; empty: "Player 1", ...
    FavouritesMode favourites = FavouritesMode::Dealt;
    std::vector<BotSeatRequest> bots;  // none: every seat is played by people
    // By player, the club member seated there (none: a guest); empty: no
    // member. Ids from the table's cache of its club's members.
    std::vector<std::optional<std::int64_t>> members;
    // A table that teaches (lights where a lifted piece may go, explains a
    // rule the first time); none: the table's default (RefereeOptions).
    std::optional<bool> teaching;
    // By seat, how it votes and whether it is played from afar (issue 35).
    std::vector<SeatSetup> seats;
};
struct DealRequest {
    nlohmann::json deal;  // a GAME-RECORD deal object
};
struct KeepRequest {
    nlohmann::json keep;  // a GAME-RECORD keep object
};
struct ReshuffleRequest {
    nlohmann::json reshuffle;  // a GAME-RECORD reshuffle object
};
// The physical cards revealed at a coronation: {"round", "favourites":
// [[6 slugs] by player], "banished": [slug by player], "ambitions": [the
// kept card's slug by player]}; which keys are needed depends on the game
// and the moment (the referee says, in its public status's "reveal").
struct RevealRequest {
    nlohmann::json reveal;
};
// The host changes how a seat plays during a game (issue 35): how it votes,
// whether it is played from afar, or a bot (the search player) standing in
// for its people for the rest of the round or of the game ("bot" a
// strength), or the seat handed back to them ("bot" null). Only what is
// given changes.
struct SeatRequest {
    int seat = 0;
    std::optional<VoteSource> votes;
    std::optional<bool> remote;
    std::optional<std::optional<std::string>> bot;
    bool forRound = false;  // with a bot: "until": "round" (else "game")
    friend bool operator==(const SeatRequest&, const SeatRequest&) = default;
};
// A vote from a player's phone: a GAME-RECORD vote object {"seat", "card"}.
struct VoteRequest {
    nlohmann::json vote;
};
// A seat played from afar chose its placement or move on its page: a
// GAME-RECORD place or move line ({"place": {...}} or {"move": {...}}), and
// "step", the number of decisions the game had when the page offered it (a
// choice made for an older position, or sent again, is refused as stale).
// It is shown to the table to make.
struct PlanRequest {
    nlohmann::json plan;
};
// The host's answer to the open question of an order the readers missed
// (REFEREE-NOTES.md, "When the readers are late"): the characters' slugs in
// the order they were put down.
struct OrderRequest {
    std::vector<std::string> characters;
};
struct UndoRequest {};
struct PauseRequest {};
struct ResumeRequest {};
struct AbandonRequest {};

using HostRequest = std::variant<NewGameRequest, DealRequest, KeepRequest, ReshuffleRequest, UndoRequest,
                                 PauseRequest, ResumeRequest, AbandonRequest, RevealRequest, SeatRequest,
                                 VoteRequest, PlanRequest, OrderRequest>;

// The trace's spelling: "new-game", "deal", "keep", "reshuffle", "undo",
// "pause", "resume", "abandon", "reveal", "seat", "vote", "plan", "order".
std::string hostRequestName(const HostRequest& request);

struct HostRequestParse {
    HostRequestParse(HostRequest request) : value(std::move(request)) {}
    HostRequestParse(std::string why, std::optional<engine::Message> message = std::nullopt)
        : value(std::move(why)), says(std::move(message)) {}

    std::variant<HostRequest, std::string> value;  // the request, or why it is not one (a sentence)
    // Why, as a message, where a person made the mistake (a player's name);
    // a request's shape is for programs, and stays English.
    std::optional<engine::Message> says;
    bool ok() const { return value.index() == 0; }
};

// Reads the value of a trace line's "host" key: an object with exactly one
// key naming the request. Only the form is checked (an object where one is
// due, the new-game's keys, and the players' names as a new game's must be:
// player_names.hpp); the payloads are the game's to judge. Never throws but
// std::bad_alloc.
HostRequestParse parseHostRequest(const nlohmann::json& host);

// A new-game's "bots": [{"seat": 1, "strength": "strong"}, ...]. Only the
// form is checked here (the seats and strengths are the game's to judge).
std::variant<std::vector<BotSeatRequest>, std::string> readBotSeats(const nlohmann::json& bots);
nlohmann::json botSeatsJson(const std::vector<BotSeatRequest>& bots);
// A new-game's "seats": [{"seat": 2, "votes": "phone", "remote": true}, ...].
std::variant<std::vector<SeatSetup>, std::string> readSeatSetups(const nlohmann::json& seats);
nlohmann::json seatSetupsJson(const std::vector<SeatSetup>& seats);

// The inverse: what a trace's "host" key holds for this request.
nlohmann::json hostRequestJson(const HostRequest& request);

}  // namespace vivaref::referee
