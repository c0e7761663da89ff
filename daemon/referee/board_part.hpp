// Judging the board and the vote keys: what the castle shows, what differs
// from the game, the refusal standing, the guidance, the LEDs' flashes and
// the stations' private notices (REFEREE-NOTES.md, "Judging the board").
// board_part.cpp: the observations, guidance and judging; board_unseen.cpp:
// what a late or failing reader hid; board_keys.cpp: the vote keys;
// board_status.cpp: the board on the screens and the LEDs. The comparison
// itself is board_judge.hpp (pure). Not part of the API.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "daemon/referee/board_judge.hpp"
#include "daemon/referee/led_decision.hpp"
#include "daemon/referee/referee_context.hpp"

namespace vivaref::referee {

// A refusal on the board. A strict one (every refusal but a character gone)
// stands until the board is back at the last legal position, or shows one
// action from it, judged as any move is (accepted when legal): while more
// than one piece differs nothing is accepted. A character gone stands
// until it is on the board again, where it is judged afresh.
// A vote key in the game's terms: the seat of the station it was pressed at
// and the card it stands for (Referee::Impl::pressKey() converts a
// ButtonEvent once).
struct KeyPress {
    engine::Seat seat;
    engine::VoteCard card = engine::VoteCard::Unknown;
    bool phone = false;  // a vote from the seat's player's phone, not its station (issue 35)
};
// What became of a key or a phone's vote: counted, held until the move that
// opens the vote shows, or not counted (its seat's page says why).
enum class KeyOutcome { Counted, Held, NotCounted };

// What the readers could not tell (REFEREE-NOTES.md, "When the readers are
// late"): characters that landed unseen, which several orders of the seats'
// actions explain, recording different decisions. Each way is one record:
// its actions in turn (the passes between them included) and every order of
// the characters that gives it (the likeliest first).
struct UnseenWay {
    std::vector<std::vector<drivers::CharacterSlug>> orders;
    std::vector<engine::Action> actions;
};
struct OrderQuestion {
    std::vector<Difference> diffs;  // what the board shows of them, as when asked
    std::vector<UnseenWay> ways;    // two or more, the likeliest first
};

struct BoardRefusal {
    std::string code;
    engine::Message message;          // the engine's, or ours
    std::vector<Difference> restore;  // what to put back
    bool strict = true;
};

class BoardPart {
public:
    using Due = std::function<bool(Timestamp)>;

    explicit BoardPart(Context& ctx) : ctx_(ctx) {}

    // --- what the castle shows -------------------------------------------
    // The pipeline's observation taken in; false when nothing changed.
    bool observe(const drivers::BoardObservation& observation, Timestamp now);
    // The board compared with the game again (the gaps forgotten once it
    // matches).
    void review();

    // --- the game's life -------------------------------------------------
    // A new or resumed game: nothing from before stands; the board is guided
    // to the game's position first.
    void startGame();
    // The engine moved characters (or an undo did): guide them afresh.
    void guide();
    // After an undo: lifts and keys from before it no longer count.
    void afterUndo();
    // The game is over or abandoned: nothing guided or refused any more.
    void stop();
    void dropRefusal() { refusal_.reset(); }

    // --- judging (one step of Referee::Impl::settle()) -------------------
    // Guidance progress: false while guided characters are still to go.
    bool guidanceOver();
    // What the board shows, judged: at most one decision through `decider`.
    // True when it should be judged again at once (a decision was taken).
    bool judge(Decider& decider);

    // --- the order the readers missed (board_unseen.cpp) ----------------
    // The host's answer to the open question: the characters in the order
    // they were put down. The way it names is played (each action through
    // `decider`); otherwise why not, as a refusal.
    std::optional<HostAnswer> answerOrder(const std::vector<std::string>& characters, Decider& decider);
    const std::optional<OrderQuestion>& orderQuestion() const { return question_; }
    // A game resumed from its log while a question was open (`characters`,
    // its slugs): they are not guided back, and the question is asked again
    // if the board still shows them so.
    void askAgainAfterResume(const std::vector<std::string>& characters);

    // --- vote keys (board_keys.cpp) -------------------------------------
    // A key pressed at a seat's station, or its phone's vote (key.phone);
    // `cardsAwaited`: physical cards face up, not yet entered. Counted: a
    // vote was decided (the board is to be settled). Not counted: the
    // seat's page has the private notice saying why (stationNotice).
    KeyOutcome press(KeyPress key, bool cardsAwaited, Decider& decider);
    // A key pressed at a station that is no seat of a game being played:
    // told privately, counted for nothing.
    void pressWithoutSeat(drivers::StationId station);
    // Held keys: those to press again now their vote is open; refused once
    // the board matches the game with no vote open, or when their hold is over.
    std::vector<KeyPress> releaseHeldKeys();
    void expireHeldKeys(const Due& due);

    // --- time -------------------------------------------------------------
    // The hold for failing readers is over: true when the board is to be
    // judged again (the clock moved on to its end).
    bool failingHoldOver(const Due& due);
    void expireFlashes(const Due& due);
    void deadlines(const std::function<void(Timestamp)>& consider) const;

    // --- what the screens and the LEDs show (board_status.cpp) -----------
    // "faulty" (the readers' names), "blind_places", "unknown_tags".
    nlohmann::json readersJson() const;
    // "board", "differences", "in_hand", "guidance", "refusal".
    void addStatus(nlohmann::json& out) const;
    // What the board waits for, if it waits.
    std::optional<engine::Message> waitingFor() const;
    // The places' and stations' LEDs: the blind places always; the rest while
    // a game is being played (`inGame`, paused or not).
    void addLedFacts(LedFacts& facts, bool inGame) const;
    // A table that teaches (REFEREE-NOTES.md, "A table that teaches"): the
    // places a person's piece may legally go, while nothing is guided or
    // refused and no bot's move is shown. In the ascent, those of each
    // piece in a hand, lifted from where the game has it; in placement (a
    // piece beside the board is seen by no reader) the floors open to it.
    void addHintFacts(LedFacts& facts) const;
    const Notice* stationNotice(engine::Seat seat) const;

private:
    const std::optional<engine::State>& state() const { return ctx_.game.state; }
    void compare();
    nlohmann::json faultyReadersJson() const;
    void startGuiding();
    void stopGuiding();
    bool guidanceDone();
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
    // Several ways that record different decisions: the question for the
    // host (orderQuestion()); none: nothing explains it.
    std::vector<UnseenWay> explainUnseen(const std::vector<Difference>& diffs) const;
    // The ways put to the host: the game waits (nothing judged, nothing
    // guided back) until answered, or until the characters asked about are
    // no longer where they were seen (then it is dropped).
    void ask(const std::vector<Difference>& diffs, std::vector<UnseenWay> ways);
    bool questionStands() const;
    engine::Message questionMessage() const;  // "Who put them down first, ...?"
    nlohmann::json questionJson() const;
    // When the character was last lifted (Timestamp::max(): never seen so).
    Timestamp lastLift(const Difference& d) const;
    // Two of them lifted closer together than liftsApart since the board
    // last gave an action: one hand moved them at once.
    bool liftedTogether(const std::vector<Difference>& diffs) const;
    // The differences' indices in the order they landed (a landing in a
    // gap dated to the gap's middle): the likeliest order of the actions.
    std::vector<std::size_t> landingOrder(const std::vector<Difference>& diffs) const;
    // The order `plan` (indices into diffs) is one the landings' times allow:
    // each may have landed no later than those after it.
    bool landingsAllow(const std::vector<Difference>& diffs, const std::vector<std::size_t>& plan) const;
    // For each difference, where its move may have stopped on the way: no
    // stop, or a place unseen at some time since the character was lifted.
    std::vector<std::vector<std::optional<engine::Place>>> unseenStops(
        const std::vector<Difference>& diffs) const;
    void refuse(std::string code, engine::Message message, std::vector<Difference> restore,
                bool strict = true);
    // A bot's seat did something else than the bot's shown move
    // (game.plan, a bot's or chosen from afar): refused, with that move in the message.
    bool offBotPlan(const engine::Action& a) const;
    void refuseOffPlan(const std::vector<Difference>& diffs);
    void clearRefusal(const char* why);
    bool autoPass(Decider& decider);
    // An action the board gave: decided; once taken, its place is lit and a
    // refusal still standing is lifted.
    Verdict acceptBoardAction(const engine::Action& a, Decider& decider);
    // A notice for one station's display; a seat's is kept for its page too.
    void privateNotice(engine::Seat seat, std::string kind, const engine::Message& says,
                       nlohmann::json detail);
    void tellStation(drivers::StationId station, std::string kind, const engine::Message& says,
                     nlohmann::json detail);

    Context& ctx_;
    drivers::BoardObservation seen_;
    PlacesByName faultyPlaces_;
    // Places a reader that failed lately serves (its window still catching
    // up); `failingHoldUntil_` bounds the wait for them. `gaps_`: each place
    // so since the board last matched the game, when its last spell began
    // and when it was last seen failing: an action there may have gone
    // unseen, and may explain what is seen (explainUnseen()).
    std::set<engine::Place> failingPlaces_;
    std::optional<Timestamp> failingHoldUntil_;
    struct Gap {
        Timestamp began{0};
        Timestamp last{0};
    };
    std::map<engine::Place, Gap, ByPlaceName> gaps_;
    BoardComparison comparison_;
    // The engine moved characters: guide them until each has been where it
    // says (`guided_`: those still to go, taken when guidance starts). Then
    // what else differs is judged as usual: a move made meanwhile counts.
    bool guiding_ = false;
    std::set<drivers::CharacterSlug> guided_;
    std::size_t guidedAtStart_ = 0;  // how many the guidance began with (the status's "started_with")
    std::optional<BoardRefusal> refusal_;
    std::optional<OrderQuestion> question_;
    // Resumed from the log with a question open: these characters' landing
    // went unseen (explained as after a gap, though the gaps are gone).
    std::set<std::string> unseenAfterResume_;
    std::optional<engine::Place> flashPlace_;
    Timestamp flashUntil_{0};
    std::map<engine::Seat, Timestamp> stationBlinkUntil_;
    // Each seat's station's last private notice (a key not counted,
    // ignored): for that seat's own page only.
    std::map<engine::Seat, Notice> stationNotices_;
    // When each character was last seen leaving a place (lifted), and when
    // the board last gave an action.
    std::map<drivers::CharacterSlug, Timestamp> liftedAt_;
    // When each character landed where it stands: first seen there, or the
    // middle of its place's gap when it was first seen there in or just
    // after one.
    std::map<drivers::CharacterSlug, Timestamp> arrivedAt_;
    // The earliest and the latest it may have landed there (an order of
    // landings outside these is no explanation).
    std::map<drivers::CharacterSlug, std::pair<Timestamp, Timestamp>> landedWithin_;
    Timestamp boardActionAt_{0};
    // Vote keys pressed before the vote they are for was open, held until it
    // opens or `until` (RefereeOptions::earlyVoteHold).
    struct HeldKey {
        KeyPress key;
        Timestamp until;
    };
    std::vector<HeldKey> heldKeys_;
};

}  // namespace vivaref::referee
