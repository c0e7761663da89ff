// The referee's insides: named parts, each a class with its own state and
// behaviour in the files named after it, sharing a narrow Context
// (referee_context.hpp):
//   - TimelinePart (timeline_part.*): the decisions in effect, logged as
//     they are made; undo; a round played again; a game read from its log;
//   - ChancePart (chance_part.*): the referee's own deals and piles;
//   - PhysicalCardsPart (physical_cards_part.*): the table's own cards;
//   - BoardPart (board_part.hpp, board_*.cpp): judging the board and the
//     vote keys, guidance, refusals, the board on the screens and the LEDs;
//   - BotsPart (bots_part.*): the seats the referee plays itself;
//   - TeachingPart (teaching_part.*): a table that teaches (first-time rules);
//   - SeatsPart (seats_part.*): how each seat plays (its votes, from afar, a
//     bot standing in).
// Referee::Impl wires them: it owns them, answers the host's requests
// (referee.cpp), and is the one place where a part's outcome reaches the
// others (referee_decisions.cpp: a decision's events start guidance, arm
// chance, want physical cards, finish the game; settle(): the board judged
// with the placeholder keeps and the cards awaited). No part includes
// another's header. referee_status.cpp: the JSON pages and the LEDs. Not
// part of the API.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "daemon/referee/board_part.hpp"
#include "daemon/referee/bots_part.hpp"
#include "daemon/referee/chance_part.hpp"
#include "daemon/referee/physical_cards_part.hpp"
#include "daemon/referee/referee.hpp"
#include "daemon/referee/referee_context.hpp"
#include "daemon/referee/seats_part.hpp"
#include "daemon/referee/teaching_part.hpp"
#include "daemon/referee/timeline_part.hpp"

struct vivaref::referee::Referee::Impl final : vivaref::referee::Decider {
    explicit Impl(RefereeOptions o, store::DecisionLog* s);

    Context ctx;
    TimelinePart timeline{ctx};
    ChancePart chance{ctx};
    PhysicalCardsPart cards{ctx};
    BoardPart board{ctx};
    BotsPart bots{ctx};
    TeachingPart teaching{ctx};
    SeatsPart seats{ctx};
    std::uint64_t gamesMade = 0;
    std::int64_t localGameIds = 0;  // without a store

    // referee.cpp: the host's requests, and time
    HostAnswer newGame(const NewGameRequest& r);
    HostAnswer deal(const DealRequest& r);
    HostAnswer keep(const KeepRequest& r);
    HostAnswer reshuffle(const ReshuffleRequest& r);
    HostAnswer undo();
    HostAnswer pause();
    HostAnswer resumePlay();
    HostAnswer abandon();
    HostAnswer reveal(const RevealRequest& r);
    HostAnswer seat(const SeatRequest& r);
    HostAnswer plan(const PlanRequest& r);
    // A vote from a player's phone: judged as a key of that seat's is.
    HostAnswer phoneVote(const VoteRequest& r);
    // The host's answer to the order the readers missed (board_unseen.cpp).
    HostAnswer order(const OrderRequest& r);
    std::optional<HostAnswer> needPlaying() const;
    // undo_preview.cpp: what undo would take back, in words
    std::optional<UndoPreview> undoPreview() const;
    void runDue(Timestamp until, bool inclusive);
    void observe(const drivers::BoardObservation& observation, Timestamp now);
    // A vote key: its station made a seat and its key a card, here only.
    void pressKey(const drivers::ButtonEvent& e);
    // A key's or a phone's vote; the board part says what became of it.
    KeyOutcome pressSeatKey(KeyPress key);
    // The board judged until nothing more is decided: the parts' steps in
    // turn (placeholder keeps, guidance, cards awaited, the board).
    void settle();

    // referee_decisions.cpp: decisions and the parts' reactions to them
    Verdict decide(const engine::Decision& d, bool automatic) override;
    void afterDecision(const engine::EventList& events, bool automatic);
    // A due deal or pile is awaited from now on (unless revealed cards are).
    void armChance();
    void finishIfOver();
    HostAnswer resumeFromLog(store::GameId id);

    // referee_status.cpp
    nlohmann::json publicStatus() const;
    nlohmann::json playerStatus(engine::PlayerId p) const;
    drivers::LedStates leds(Timestamp at) const;
};
