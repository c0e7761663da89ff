// What the referee's parts share (the board, the timeline, chance, physical
// cards: each a class of its own, *_part.hpp): the options, the game being
// played, the decision log and its health, the clock, the notices and the
// counters. A part holds a reference to the Context and changes only its own
// state; what it needs of the other parts (a decision made and reacted to)
// it asks through Decider, which Referee::Impl implements. Not part of the API.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "daemon/referee/board_places.hpp"
#include "daemon/referee/referee.hpp"
#include "engine/decision.hpp"
#include "engine/event.hpp"

namespace vivaref::referee {

enum class GameStatus { None, Playing, Paused, Finished, Abandoned };
const char* gameStatusName(GameStatus s);

// One decision in effect, with the state before it (for undo) and the
// decision itself (to play a round again on the physical cards revealed).
struct Decision {
    // Made by the referee itself (an automatic pass or keep, its own deal or
    // pile): an undo takes these back together with the decision before them.
    bool automatic = false;
    engine::State before;
    engine::Decision what;
};

// The game being played: every part reads it; the timeline changes its
// state, Referee::Impl its status.
struct Game {
    GameStatus status = GameStatus::None;
    std::optional<store::GameId> id;
    std::optional<engine::State> state;
    std::vector<std::string> players;
    engine::Message lastAction;  // public; no code: none yet
    // By seat: how it votes, whether it is played from afar, the bot that
    // plays it (seats_part.hpp, bots_part.hpp).
    std::vector<SeatPlay> seats;
    // A placement or move chosen by a bot, or by a seat played from afar
    // (planFromAfar), shown for the table to carry out; the board's judge
    // refuses any other action of that seat.
    std::optional<engine::Action> plan;
    bool planFromAfar = false;

    bool playing() const { return status == GameStatus::Playing; }
    const SeatPlay* seat(engine::Seat s) const { return s.index < seats.size() ? &seats[s.index] : nullptr; }
    bool botAt(engine::Seat s) const { return seat(s) && seat(s)->botPlays(); }
    // Played from afar, by its people (no bot standing in).
    bool remoteAt(engine::Seat s) const { return seat(s) && seat(s)->remote && !seat(s)->botPlays(); }
    VoteSource votesAt(engine::Seat s) const { return seat(s) ? seat(s)->votesBy() : VoteSource::Station; }
    bool moving() const {
        return state &&
               (state->phase() == engine::Phase::Placement || state->phase() == engine::Phase::Ascent);
    }
    // A bot must place or move and has not planned yet: the board waits.
    bool botThinking() const { return playing() && !plan && moving() && botAt(state->seatToAct()); }
    // A seat played from afar must place or move and has not chosen yet.
    bool awaitingAfar() const { return playing() && !plan && moving() && remoteAt(state->seatToAct()); }
};

struct Context {
    Context(RefereeOptions o, store::DecisionLog* s);

    RefereeOptions options;
    // The castle's places and readers as the game's places, from the
    // layout; the game's characters by slug, from its roster.
    BoardNames names;
    Game game;
    Timestamp now{0};
    std::vector<Notice> notices;
    RefereeCounters counters;
    store::DecisionLog* store = nullptr;  // may be null: no log
    store::WriteStatus log;               // the log's health
    // While the log cannot save: when the referee tries it again.
    std::optional<Timestamp> logRetryAt;
    static constexpr Timestamp kLogRetryEvery{1000};

    store::WallTime wallTime() const { return options.wallAtZero + now; }
    // One write to the game's log; its health noted (a problem told loudly).
    void writeLog(const std::function<store::WriteStatus(store::DecisionLog&, store::GameId)>& write);
    // A write that what it records waits for: true once on disk (or with no
    // log). False: the log kept nothing of it, and the caller changes
    // nothing (REFEREE-NOTES.md, "Never lose a game").
    bool commit(const std::function<store::WriteStatus(store::DecisionLog&, store::GameId)>& write);
    // A referee event: true once on disk, as commit().
    bool refereeEvent(std::string_view kind, const nlohmann::json& payload);
    void noteLog(const store::WriteStatus& status);
    // The log of the game cannot save what the referee decides: nothing new
    // is decided until it can (REFEREE-NOTES.md, "Never lose a game").
    bool logBlocked() const { return store && game.id && !log.durable; }
    // Why, for the table: "The game log cannot save (disk full): ..."
    // ("log.blocked"); logRefusal() in English.
    engine::Message logRefusalMessage() const;
    std::string logRefusal() const;
    // Writes what waits now with a `log-saves-again` event (a real write:
    // a flush with nothing waiting would prove nothing); true once it is on
    // disk.
    bool retryLog();

    // A public notice, now, with what it says as a message (its text: the
    // English).
    void notice(std::string kind, const engine::Message& says,
                nlohmann::json detail = nlohmann::json::object());
    // A message whose English text for old clients is worded otherwise than
    // the message renders (kept as it was before the message existed).
    void notice(std::string kind, std::string text, const engine::Message& says, nlohmann::json detail);
    // A player's name ("Player 3" where the log kept none: counted from 1);
    // a character's slug for the JSON.
    std::string playerName(engine::PlayerId p) const;
    std::string slug(engine::CharacterId c) const;
    // A seat as words: its players' names ("Ann and Bruno"), else "Seat 3".
    engine::MessageValue seatWords(engine::Seat s) const;
    // The plan (a bot's or a seat's from afar) for the table to make, as a
    // message: "Clara (bot) moves Odessa la Contessa from floor 2 to floor 3."
    engine::Message planMessage() const;
    // What the table is asked: the plan, and that anyone may make it.
    engine::Message planCall() const;
    // The plan for the screens: {"seat", "action", "character", "from",
    // "to", "from_afar", "text", "says"}; null without one.
    nlohmann::json planJson() const;
};

// The log's writes while it lives are committed together when it ends (or
// at commit()), or none of them is kept. No decision is taken inside one:
// what a batch records is applied once commit() says it is saved.
class LogBatch {
public:
    explicit LogBatch(Context& ctx);
    ~LogBatch();
    LogBatch(const LogBatch&) = delete;
    LogBatch& operator=(const LogBatch&) = delete;
    // Ends the batch: true once its writes are on disk.
    bool commit();

private:
    Context& ctx_;
    bool ended_ = false;
};

// What became of a decision put to the referee: taken (logged, then
// applied and told), refused by the rules, or not taken because the game
// log could not save it (the game as it was: the board is judged again
// once the log saves).
class Verdict {
public:
    static Verdict taken() { return Verdict(); }
    static Verdict refused(engine::Refusal why) {
        Verdict v;
        v.refusal_ = std::move(why);
        return v;
    }
    static Verdict notSaved() {
        Verdict v;
        v.notSaved_ = true;
        return v;
    }
    bool isTaken() const { return !refusal_ && !notSaved_; }
    bool isNotSaved() const { return notSaved_; }
    // The rules' refusal, when that is why it was not taken.
    const engine::Refusal* refusal() const { return refusal_ ? &*refusal_ : nullptr; }

private:
    std::optional<engine::Refusal> refusal_;
    bool notSaved_ = false;
};

// A decision made on behalf of a part: checked by the engine, logged
// durably, then applied, kept for undo, and reacted to across the parts
// (guidance, chance, the end of the game). Referee::Impl implements it.
class Decider {
public:
    virtual Verdict decide(const engine::Decision& d, bool automatic) = 0;
    virtual ~Decider() = default;
};

}  // namespace vivaref::referee
