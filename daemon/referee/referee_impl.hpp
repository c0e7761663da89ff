// The referee's insides, shared by its source files, in named parts (the
// game, the timeline and undo, chance, physical cards, judging the board:
// each part's state below, its behaviour in the source file named beside
// it; referee_status.cpp: the JSON pages and the LEDs). Not part of the API.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "daemon/referee/board_judge.hpp"
#include "daemon/referee/referee.hpp"
#include "engine/chance.hpp"
#include "engine/event.hpp"

namespace vivaref::referee {

enum class GameStatus { None, Playing, Paused, Finished, Abandoned };
const char* gameStatusName(GameStatus s);

using DecisionValue = std::variant<engine::Action, engine::Deal, engine::Reshuffle>;

// One decision in effect, with the state before it (for undo) and the
// decision itself (to play a round again on the physical cards revealed).
struct Decision {
    enum class Kind { Deal, Action, Reshuffle } kind = Kind::Action;
    // Made by the referee itself (an automatic pass or keep, its own deal or
    // pile): an undo takes these back together with the decision before them.
    bool automatic = false;
    engine::State before;
    DecisionValue what;
};

// Physical cards whose real values the host must enter: the coronation of
// `round` has revealed them (REFEREE-NOTES.md, "Physical cards").
struct RevealNeed {
    int round = 0;
    bool favourites = false;  // each player's Favourites card (and seal)
    bool ambitions = false;   // each player's kept Ambition card
};

// A refusal on the board. A strict one (every refusal but a character gone)
// stands until the board is back at the last legal position: nothing is
// accepted meanwhile, so a partial put-back is never an action. A character
// gone stands until it is on the board again, where it is judged afresh.
struct BoardRefusal {
    std::string code;
    std::string message;              // the engine's sentence, or ours
    std::vector<Difference> restore;  // what to put back
    bool strict = true;
};

// The referee's named parts: the state each keeps. Their behaviour is
// Impl's, in the source file named beside each; Impl holds what they share
// (the options, the log, the clock, the notices).

// The game being played (referee.cpp: host requests and time).
struct GamePart {
    GameStatus status = GameStatus::None;
    std::optional<store::GameId> gameId;
    std::optional<engine::State> state;
    std::vector<std::string> players;
    std::string lastAction;  // a public sentence
};

// The timeline and undo (referee_log.cpp): every decision in effect, with
// the state before it; each logged as it is made.
struct TimelinePart {
    std::vector<Decision> history;
};

// Chance (referee.cpp): the deals and piles the referee makes itself from
// its seeded generator when the host has not made them within the grace.
struct ChancePart {
    std::uint64_t seed = 0;
    std::optional<engine::Rng> rng;
    std::optional<Timestamp> chanceDueSince;  // a deal or pile awaited since then
    std::vector<OwnChance> ownChance;         // made, for the stored trace
};

// Physical cards (referee_reveal.cpp): the rounds whose favourites / kept
// Ambition cards the host has entered (the deal in effect holds them); a
// new deal of a round forgets them.
struct PhysicalCardsPart {
    FavouritesMode favouritesMode = FavouritesMode::Dealt;
    std::set<int> favouritesEntered;
    std::set<int> ambitionsEntered;
};

// Judging the board (referee_board.cpp, board_judge.cpp): what the castle
// shows, what differs from the game, the refusal standing, the guidance,
// the LEDs' flashes and the stations' private notices.
struct BoardPart {
    drivers::BoardObservation seen;
    std::set<std::string> faultyPlaces;
    std::vector<std::string> faultyReaders;
    // Places a reader that failed lately serves (its window still catching
    // up); `failingHoldUntil` bounds the wait for them. `gaps`: each place
    // so since the board last matched the game, when its last spell began
    // and when it was last seen failing: an action there may have gone
    // unseen, and may explain what is seen (explainUnseen()).
    std::set<std::string> failingPlaces;
    std::optional<Timestamp> failingHoldUntil;
    struct Gap {
        Timestamp began{0};
        Timestamp last{0};
    };
    std::map<std::string, Gap> gaps;
    BoardComparison comparison;
    // The engine moved characters: guide them until each has been where it
    // says (`guided`: those still to go, taken when guidance starts). Then
    // what else differs is judged as usual: a move made meanwhile counts.
    bool guiding = false;
    std::set<std::string> guided;
    std::optional<BoardRefusal> refusal;
    std::optional<std::string> flashPlace;
    Timestamp flashUntil{0};
    std::map<int, Timestamp> stationBlinkUntil;
    // Each station's last private notice (a key not counted, ignored): for
    // that seat's own page only.
    std::map<int, Notice> stationNotices;
    // When each character was last seen leaving a place (lifted), and when
    // the board last gave an action.
    std::map<std::string, Timestamp> liftedAt;
    // When each character landed where it stands: first seen there, or the
    // middle of its place's gap when it was first seen there in or just
    // after one.
    std::map<std::string, Timestamp> arrivedAt;
    Timestamp boardActionAt{0};
    // Vote keys pressed before the vote they are for was open, held until it
    // opens or `until` (RefereeOptions::earlyVoteHold).
    struct HeldKey {
        drivers::ButtonEvent press;
        Timestamp until;
    };
    std::vector<HeldKey> heldKeys;
};

}  // namespace vivaref::referee

struct vivaref::referee::Referee::Impl : GamePart, TimelinePart, ChancePart, PhysicalCardsPart, BoardPart {
    RefereeOptions options;
    store::DecisionLog* store = nullptr;
    drivers::BoardLayout layout;
    RefereeCounters counters;
    store::WriteStatus log;
    std::vector<Notice> notices;
    Timestamp now{0};
    std::uint64_t gamesMade = 0;
    std::int64_t localGameIds = 0;  // without a store

    explicit Impl(RefereeOptions o, store::DecisionLog* s);

    // referee.cpp
    HostAnswer newGame(const NewGameRequest& r);
    HostAnswer deal(const DealRequest& r);
    HostAnswer keep(const KeepRequest& r);
    HostAnswer reshuffle(const ReshuffleRequest& r);
    HostAnswer undo();
    HostAnswer pause();
    HostAnswer resumePlay();
    HostAnswer abandon();
    void runDue(Timestamp until, bool inclusive);
    // A due deal or pile is awaited from now on (unless revealed cards are).
    void armChance();
    void makeOwnChance();
    std::optional<HostAnswer> needPlaying() const;

    // referee_board.cpp
    void settle();
    // Several characters out of place: the one to judge first when they were
    // lifted far enough apart (RefereeOptions::liftsApart), else none.
    std::optional<Difference> firstLifted(const std::vector<Difference>& diffs) const;
    // A placement from beside the board may have landed unseen on a place
    // whose reader failed lately, and so may a character out of place that
    // may legally move there (what is seen of it elsewhere may be a
    // neighbour's cross-reads): while so, within the hold, the board is not
    // judged.
    bool failingHold() const;
    // What is seen after a place went unseen, as the actions of the seats in
    // turn that explain it: the differences in some order, and a move that
    // ends beyond one step as two through an unseen place. The first action
    // of the likeliest such sequence the engine allows whole, if any.
    std::optional<engine::Action> explainUnseen(const std::vector<Difference>& diffs) const;
    void refuse(std::string code, std::string message, std::vector<Difference> restore, bool strict = true);
    void clearRefusal(const char* why);
    bool autoPass();
    // An action the board gave: decided; once the engine takes it, its place
    // is lit and a refusal still standing is lifted. The engine's refusal otherwise.
    std::optional<engine::Refusal> acceptBoardAction(const engine::Action& a);
    void pressKey(const drivers::ButtonEvent& e);
    // Held keys: counted once their vote is open, refused once the board
    // matches the game with no vote open, or when their hold is over.
    void releaseHeldKeys();
    void expireHeldKeys(const std::function<bool(Timestamp)>& due);
    void privateNotice(int station, std::string kind, std::string text, nlohmann::json detail);
    void compare();
    void startGuiding();
    void stopGuiding();
    // Guidance progress: true once every guided character has been in place.
    bool guidanceDone();

    // referee_reveal.cpp: physical cards
    bool physical() const { return favouritesMode == FavouritesMode::Physical; }
    // The round whose physical cards a coronation has turned face up, while
    // they may still be entered or corrected (until the next deal).
    std::optional<int> revealRound() const;
    std::optional<RevealNeed> revealNeeded() const;
    // The round whose cards a `reveal` may enter or correct now: the one
    // face up, else the last finished one whose cards were entered.
    std::optional<int> correctableRound() const;
    HostAnswer reveal(const RevealRequest& r);
    // Physical cards: every player keeps a placeholder Ambition card at once.
    bool autoKeep();
    // The cards entered, applied: the round taken back to its deal and played
    // again on the real cards, logged as undos and the decisions again.
    std::optional<engine::Refusal> replayRound(std::size_t dealIndex, const engine::Deal& deal,
                                               const std::optional<std::vector<engine::AmbitionCard>>& kept,
                                               bool favourites, bool ambitions);

    // referee_log.cpp
    // Applies a decision to the state; on success logs it durably, keeps the
    // state before for undo, and reacts to its events. The refusal otherwise.
    std::optional<engine::Refusal> decide(const engine::Action& a, bool automatic);
    std::optional<engine::Refusal> decide(const engine::Deal& d, bool automatic);
    std::optional<engine::Refusal> decide(const engine::Reshuffle& r, bool automatic);
    void afterDecision(Decision::Kind kind, const engine::EventList& events, bool automatic);
    void writeLog(const std::function<store::WriteStatus(store::DecisionLog&, store::GameId)>& write);
    // The log's writes while it lives are committed together when it ends.
    class LogBatch {
    public:
        explicit LogBatch(Impl& m);
        ~LogBatch();
        LogBatch(const LogBatch&) = delete;
        LogBatch& operator=(const LogBatch&) = delete;

    private:
        Impl& m_;
    };
    void refereeEvent(std::string_view kind, const nlohmann::json& payload);
    void noteLog(const store::WriteStatus& status);
    void finishIfOver();
    HostAnswer resumeFromLog(store::GameId id);
    store::WallTime wallTime() const { return options.wallAtZero + now; }

    // referee_status.cpp
    nlohmann::json publicStatus() const;
    nlohmann::json playerStatus(engine::PlayerId p) const;
    drivers::LedStates leds(Timestamp at) const;

    // notices
    void notice(std::string kind, std::string text, nlohmann::json detail = nlohmann::json::object());
    std::string seatName(engine::Seat s) const;
    std::string slug(engine::CharacterId c) const;
};
