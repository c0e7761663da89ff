// The referee: one game at a time, judged against the engine. It reads the
// stable board observation (drivers/sensing), the vote keys and the host's
// requests; it decides what the LEDs show, what the table's screens and each
// player's private page say, and writes every decision durably to the game
// log before acknowledging it. No clock, no threads, no I/O but the log:
// every call carries the time on the caller's clock (virtual in tests and
// `vivaref simulate`), so the same inputs give the same game.
//
// How a call flows: any input at time t first runs what fell due strictly
// before t (the referee's own deal after its grace, ...), then the input;
// tick(t) runs what is due at or before t. So an input and a deadline at the
// same t: the input wins (a host deal recorded at the very moment the
// referee would have dealt replays as the same game).
//
// The rules of the table (when the referee deals, the refusal codes it adds,
// station numbering, guidance, undo) are in daemon/referee/REFEREE-NOTES.md.
//
// API changes since the first commit (compatible additions only):
//   - publicStatus() has "roster": [{"id", "name", "kind"}] (for the pages).
//   - botAt(seat): whether the referee plays a seat (it then has no link,
//     no code and no keys for people: the server asks).
//   - issue 33: every HostAnswer and Notice carries `says`, the message its
//     English text renders; publicStatus() has "log_problem_says" and
//     "bot_plan"."says", playerStatus() "station_notice"."says".
//   - issue 34: undoPreview(); an accepted undo's `says` names what it took
//     back; a new game's answer may carry a `warning` (a player named as a
//     character).
//   - issue 35: RefereeOptions::stationSeats; seatPlay(seat); the host
//     requests seat, vote (a phone's) and plan (a seat played from afar);
//     publicStatus() has "seats" and "plan" ("bot_plan" stays, the same).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/referee/host_request.hpp"
#include "daemon/store/decision_log.hpp"
#include "drivers/buttons/button_source.hpp"
#include "drivers/leds/led_sink.hpp"
#include "drivers/sensing/board_layout.hpp"
#include "drivers/sensing/board_observation.hpp"
#include "engine/state.hpp"

namespace vivaref::referee {

using Timestamp = drivers::Timestamp;

struct RefereeOptions {
    // The referee's own generator, for the deals and piles the host does not
    // enter. With gameSeeds (serve): each game's seed is drawn from it, so no
    // game's seed follows from another's. Without (simulate, tests, serve
    // --seed): the k-th game this referee starts (k from 0) uses seed + k.
    // The log keeps each game's seed; nothing shows it before the game ends.
    std::uint64_t seed = 1;
    std::function<std::uint64_t()> gameSeeds;
    // A due deal or reshuffle waits this long for the host's before the
    // referee makes its own (on the referee's clock).
    Timestamp chanceGrace{1000};
    // An accepted action's destination LED is lit this long.
    Timestamp flashFor{600};
    // A station's LED blinks this long after a private refusal there.
    Timestamp privateBlinkFor{1500};
    // Several characters out of place at once are judged one by one, in the
    // order they were lifted, when each was lifted at least this long after
    // the one before: the first had landed and would have been judged by
    // then, had its place's reader not been down (REFEREE-NOTES.md). Closer
    // together, one hand moved them at once: refused (several-moved).
    Timestamp liftsApart{500};
    // A vote key pressed while no vote is open but a move is still being seen
    // (the board differs from the game: a candidate on its way up; or a reader
    // is catching up, and the move may be on its place) is held
    // this long: if the move opens the vote meanwhile the key counts then,
    // otherwise it is refused as "no vote is open" (REFEREE-NOTES.md).
    Timestamp earlyVoteHold{1500};
    // While a reader that failed a scan catches up (drivers::ReaderQuality::
    // failing), a piece put on or lifted from its place may not show yet, so
    // nothing on the board is judged: at most this long from when the first
    // began failing, then only what touches a faulty reader's place waits
    // (REFEREE-NOTES.md, "A reader that misses scans").
    Timestamp failingHold{2000};
    // A bot whose turn begins thinks this long after (bots_part.hpp): the
    // decision that gave it the turn is answered first.
    Timestamp botThinkAfter{150};
    // A new game teaches (REFEREE-NOTES.md, "A table that teaches") unless
    // its request says otherwise: the configuration's `[daemon] teaching`.
    bool teaching = false;
    // The seats whose vote station the castle has (issue 35): a new game's
    // seat votes with its station where it has one, else on its player's
    // phone, unless the host chooses otherwise. nullopt: every seat has one
    // (the simulated castle, whose page has every seat's keys; a trace).
    std::optional<std::set<int>> stationSeats;
    // Wall-clock time of Timestamp 0, for the log's rows (time is an input:
    // `simulate` passes a fixed one, `serve` its start time).
    store::WallTime wallAtZero{};
    // Which reader lies under which place, to know which places a faulty
    // reader blinds. nullopt: drivers::standardBoardLayout().
    std::optional<drivers::BoardLayout> layout;
};

// How one seat of the game plays (issue 35; REFEREE-NOTES.md, "Phones at
// the table"): how it votes, whether its people play from afar, and the
// bot that plays it (from the start: `bot`; standing in for its people
// for now: `standIn`).
struct SeatPlay {
    VoteSource votes = VoteSource::Station;
    bool remote = false;
    std::string bot;       // a bot seat's strength: the referee plays it, it has no people
    std::string standIn;   // a bot's strength standing in for the seat's people; empty: none
    int standInRound = 0;  // a stand-in for that round only (handed back when it ends); 0: the game
    bool botPlays() const { return !bot.empty() || !standIn.empty(); }
    const std::string& strength() const { return bot.empty() ? standIn : bot; }
    // A seat played from afar votes on its phone, whatever was chosen before.
    VoteSource votesBy() const { return remote ? VoteSource::Phone : votes; }
    friend bool operator==(const SeatPlay&, const SeatPlay&) = default;
};

// The referee's answer to a host request.
struct HostAnswer {
    bool ok = true;
    std::string code;                     // when refused: the engine's code or one of ours (REFEREE-NOTES.md)
    std::string message;                  // a sentence for the host, in English
    std::optional<store::GameId> game;    // the game it concerned, if any
    std::optional<engine::Message> says;  // the message (the API's "says"); the referee always gives one
    // Accepted, but worth the host's eye (a player named as a character: a
    // warning, not a refusal; REFEREE-NOTES.md, "Players' names").
    std::optional<engine::Message> warning;

    // What the referee says is a message (its `message` the English): no
    // sentence is built in C++ (issue 33, daemon/words/NOTES.md).
    static HostAnswer accepted(std::optional<store::GameId> game, const engine::Message& says);
    static HostAnswer refused(std::string code, const engine::Message& says,
                              std::optional<store::GameId> game = {});
};

// What the host's undo would take back now (issue 34), said before it is
// done: the decision a person took that it takes back ("undo.*": "Undone:
// Bruno’s vote on Dario (round 1)."), and, when it goes back before a
// coronation the table has already seen scored (the favourites, the
// Ambition cards and the points shown), that round: the host is asked first.
struct UndoPreview {
    engine::Message undone;
    int unscoresRound = 0;        // 0: no scoring shown is taken back
    bool ambitionsShown = false;  // that scoring showed the kept Ambition cards too
    // The question for the host when unscoresRound is set ("undo.confirm-scoring").
    engine::Message confirmation() const;
};

// Something to tell the table or one station, in the order it happened.
struct Notice {
    enum class Audience {
        Public,   // any screen, the table log
        Station,  // only `station`'s own display (a private refusal)
    };
    Timestamp at{0};
    // Public: "game-started", "dealt", "compensated", "ambition-kept",
    // "accepted" (a placement or move), "placement-ended", "passed",
    // "election-opened", "vote-cast" (who, never what), "revealed",
    // "crowned", "not-crowned", "reshuffled", "scored", "round-ended",
    // "game-over", "refused", "recovered", "guided", "paused", "resumed",
    // "undone", "abandoned", "resumed-from-log", "reader-fault",
    // "log-problem", "log-ok", "teach" (a teaching table: a rule the first
    // time it comes into play, detail {"rule"}), "order-question" (the
    // host is asked an order the readers missed; detail: the status's
    // "order_question"), "order-dropped". Station only:
    // "private-refusal", "ignored-key".
    std::string kind;
    Audience audience = Audience::Public;
    std::optional<int> station;           // Audience::Station only
    std::string text;                     // a sentence, in English
    nlohmann::json detail;                // machine-readable; never a secret in a public notice
    std::optional<engine::Message> says;  // the sentence as a message (the referee always gives one)
};

// A chance decision the referee made itself, as the host request that would
// have made it ({"deal": {...}} or {"reshuffle": {...}}). SECRET (hands,
// piles): for the stored trace only, so that the exported trace replays the
// same game without the seed. Never display it.
struct OwnChance {
    Timestamp at{0};
    nlohmann::json host;
};

// Counters for a summary (`vivaref simulate`).
struct RefereeCounters {
    int gamesStarted = 0;
    int gamesFinished = 0;
    int gamesAbandoned = 0;
    int actionsAccepted = 0;  // keeps, placements, moves and votes the referee accepted
    int automaticPasses = 0;
    int undos = 0;                        // host undo requests accepted
    std::map<std::string, int> refusals;  // public refusals by code (one per episode)
    int privateRefusals = 0;              // station refusals: their codes could hint at a hand
    // Private notices to a station (its page shows the last): a count only,
    // so that players' pages know to look (not in countersJson).
    int stationNotices = 0;
    // Orders the readers missed that the host was asked about (not in countersJson).
    int orderQuestions = 0;
    std::vector<nlohmann::json> results;  // GAME-RECORD result of each finished game
};
nlohmann::json countersJson(const RefereeCounters& counters);

class Referee {
public:
    // `store`: where the game is logged (the game log's DecisionLog, kept in
    // SQLite by store::GameStore; the referee sees only the interface). It
    // may be null: no log (tests, a dry run); otherwise it must outlive the
    // referee.
    Referee(RefereeOptions options, store::DecisionLog* store);
    ~Referee();
    Referee(const Referee&) = delete;
    Referee& operator=(const Referee&) = delete;

    // --- inputs -----------------------------------------------------------
    HostAnswer host(const HostRequest& request, Timestamp now);
    // The sensing pipeline's latest stable observation (every update, even
    // unchanged: cheap when nothing changed).
    void observe(const drivers::SensingUpdate& update, Timestamp now);
    void observe(const drivers::BoardObservation& observation, Timestamp now);
    // A vote key; station s is seat s (0-based). event.at is the time.
    void press(const drivers::ButtonEvent& event);
    // Time passed: the referee's own chance after its grace, LED expiries.
    void tick(Timestamp now);
    // When tick() is next due, if anything waits for time.
    std::optional<Timestamp> nextDeadline() const;
    // After a crash: the unfinished game `game` rebuilt from the log (the
    // referee's store); the board is then guided back to the logged position.
    HostAnswer resume(store::GameId game, Timestamp now);

    // --- outputs ----------------------------------------------------------
    // The LEDs as they should be now: "place-3", "place-6", "place-wc3",
    // "place-dungeon1" (blink: put something back or where guided; on: an
    // accepted action's destination, briefly; pulse: its reader is faulty;
    // hint: a teaching table's place the piece in hand may go),
    // "turn-S" (on: seat S is to act), "station-S" (on: seat S must still
    // vote; blink: a private refusal there). A pure function of the referee's
    // state and `now`.
    drivers::LedStates leds(Timestamp now) const;
    // What any screen may show: never a hand, a favourites card before it is
    // revealed, an Ambition card or a vote before the reveal.
    nlohmann::json publicStatus() const;
    // One player's private page: the public status's game, plus that
    // player's own secrets only. An error object for an unknown player.
    nlohmann::json playerStatus(engine::PlayerId player) const;
    std::vector<Notice> takeNotices();
    std::vector<OwnChance> takeOwnChance();
    // What undo would take back now; nullopt when no game is being played
    // or there is nothing to take back. An accepted undo's answer says the
    // same `undone` message.
    std::optional<UndoPreview> undoPreview() const;

    // --- inspection -------------------------------------------------------
    std::optional<store::GameId> game() const;
    const engine::State* state() const;  // null before the first game
    bool paused() const;
    // The strength of the bot the referee plays at `seat` in the current game
    // ("casual", "good", "strong"), from the start or standing in for its
    // people (seatPlay() tells which); nullopt for a seat its people play.
    std::optional<std::string> botAt(engine::Seat seat) const;
    // How a seat of the current game plays; nullopt without a game or seat.
    std::optional<SeatPlay> seatPlay(engine::Seat seat) const;
    const RefereeCounters& counters() const;
    // The log's health: durable=false while rows wait in memory.
    const store::WriteStatus& logHealth() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace vivaref::referee
