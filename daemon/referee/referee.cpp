// The referee's API and its wiring (Referee::Impl, referee_impl.hpp): the
// host's requests, time (its own chance after a grace, holds and LED
// expiries), and settle(), where the parts judge the board in turn.
#include "daemon/referee/referee.hpp"

#include <algorithm>

#include "daemon/referee/player_names.hpp"
#include "daemon/referee/referee_impl.hpp"
#include "daemon/words/words.hpp"
#include "engine/record/deal_reader.hpp"
#include "engine/record/line_reader.hpp"
#include "engine/record/setup_reader.hpp"

namespace vivaref::referee {

using nlohmann::json;

HostAnswer HostAnswer::accepted(std::optional<store::GameId> game, const engine::Message& says) {
    return {true, {}, words::english().say(says), game, says, {}};
}

HostAnswer HostAnswer::refused(std::string code, const engine::Message& says,
                               std::optional<store::GameId> game) {
    return {false, std::move(code), words::english().say(says), game, says, {}};
}

json countersJson(const RefereeCounters& c) {
    return json{{"games_started", c.gamesStarted},
                {"games_finished", c.gamesFinished},
                {"games_abandoned", c.gamesAbandoned},
                {"actions_accepted", c.actionsAccepted},
                {"automatic_passes", c.automaticPasses},
                {"undos", c.undos},
                {"refusals", c.refusals},
                {"private_refusals", c.privateRefusals},
                {"results", c.results}};
}

Referee::Impl::Impl(RefereeOptions o, store::DecisionLog* s) : ctx(std::move(o), s) {}

namespace {

namespace say = engine::say;

HostAnswer refusedBy(const engine::Refusal& r, std::optional<store::GameId> game) {
    return HostAnswer::refused(std::string(engine::refusalCodeName(r.code)), r.message, game);
}

// A decision the host asked for that was not taken: the rules' refusal, or
// the log's (host() words that one).
std::optional<HostAnswer> notTaken(const Verdict& v, std::optional<store::GameId> game) {
    if (v.isTaken()) return std::nullopt;
    if (const auto* why = v.refusal()) return refusedBy(*why, game);
    return HostAnswer::refused("log-unwritable", engine::Message("host.log-cannot-save"), game);
}

// A record line of `kind` around a host request's payload, read with the
// game's rules: the host enters exactly what a record line holds.
record::LineRead readPayload(std::string_view kind, const json& payload, const engine::Rules& rules) {
    return record::readLine(json{{kind, payload}}.dump(), &rules);
}

// The request's players, members and names checked against the rules;
// `names` the players' names (numbered when none were given).
std::optional<HostAnswer> playersProblem(const NewGameRequest& r, const engine::Rules& rules,
                                         std::vector<std::string>& names) {
    if (!r.players.empty() && static_cast<int>(r.players.size()) != rules.players())
        return HostAnswer::refused(
            "bad-players",
            engine::Message("host.players-count", {{"players", say::number(rules.players())}}));
    if (!r.members.empty() && static_cast<int>(r.members.size()) != rules.players())
        return HostAnswer::refused(
            "bad-members",
            engine::Message("host.members-count", {{"players", say::number(rules.players())}}));
    names = r.players;
    if (names.empty())
        for (int i = 0; i < rules.players(); ++i) names.push_back("Player " + std::to_string(i + 1));
    // Every way in checks names already; the referee keeps the log safe from
    // any other. Only their form: a trace of a game logged before the host's
    // checks (player_names.hpp) replays as it was played.
    if (auto why = playerNamesFormProblem(names)) return HostAnswer::refused("bad-players", *why);
    return std::nullopt;
}

// Bots: each seat once, a known strength, and cards the referee deals (it
// cannot read the table's own).
std::optional<HostAnswer> botsProblem(const NewGameRequest& r, const engine::Rules& rules) {
    std::vector<bool> botSeat(static_cast<std::size_t>(rules.seats()), false);
    for (const auto& b : r.bots) {
        if (b.seat < 0 || b.seat >= rules.seats())
            return HostAnswer::refused(
                "bad-bots", engine::Message("host.bot-no-such-seat", {{"seats", say::number(rules.seats())},
                                                                      {"seat", say::number(b.seat + 1)}}));
        if (botSeat[static_cast<std::size_t>(b.seat)])
            return HostAnswer::refused(
                "bad-bots", engine::Message("host.bot-seat-twice", {{"seat", say::number(b.seat + 1)}}));
        botSeat[static_cast<std::size_t>(b.seat)] = true;
        if (!botStrength(b.strength))
            return HostAnswer::refused(
                "bad-bots",
                engine::Message("host.bot-strength", {{"strengths", say::text(botStrengthNames())},
                                                      {"given", say::text(b.strength)}}));
    }
    if (!r.bots.empty() && r.favourites == FavouritesMode::Physical)
        return HostAnswer::refused("bad-bots", engine::Message("host.bots-with-physical-cards"));
    return std::nullopt;
}

}  // namespace

std::optional<HostAnswer> Referee::Impl::needPlaying() const {
    const auto& game = ctx.game;
    if (game.status == GameStatus::Paused)
        return HostAnswer::refused("paused", engine::Message("host.paused-resume-first"), game.id);
    if (game.status != GameStatus::Playing)
        return HostAnswer::refused("no-game", engine::Message("host.no-game-start-one"), game.id);
    return std::nullopt;
}

HostAnswer Referee::Impl::newGame(const NewGameRequest& r) {
    auto& game = ctx.game;
    if (game.status == GameStatus::Playing || game.status == GameStatus::Paused)
        return HostAnswer::refused(
            "game-in-progress",
            engine::Message("host.game-in-progress", {{"game", say::text(std::to_string(game.id->value))}}),
            game.id);
    auto read = record::readSetup(r.setup);
    if (auto* why = std::get_if<engine::Refusal>(&read)) return refusedBy(*why, std::nullopt);
    const auto& spec = std::get<engine::RulesSpec>(read);
    if (auto why = engine::Rules::validate(spec)) return refusedBy(*why, std::nullopt);
    auto rules = std::make_shared<const engine::Rules>(spec);
    std::vector<std::string> names;
    if (auto refused = playersProblem(r, *rules, names)) return *refused;
    if (auto refused = botsProblem(r, *rules)) return *refused;
    if (auto refused = seats.check(r.seats, *rules)) return *refused;
    for (const auto& s : r.seats)
        for (const auto& b : r.bots)
            if (s.seat == b.seat)
                return HostAnswer::refused("bad-seats", engine::Message("host.seat-bot-from-start",
                                                                        {{"seat", say::number(s.seat + 1)}}));
    std::uint64_t gameSeed = ctx.options.seed + gamesMade;
    if (ctx.options.gameSeeds) {
        try {
            gameSeed = ctx.options.gameSeeds();
        } catch (const std::exception& e) {
            return HostAnswer::refused("no-entropy",
                                       engine::Message("host.cannot-start", {{"why", say::text(e.what())}}));
        }
    }
    store::GameId id;
    if (ctx.store) {
        try {
            id = ctx.store->createGame(store::NewGame{spec, names, gameSeed, ctx.wallTime(), r.members});
        } catch (const std::exception& e) {
            // A game starts on disk or not at all.
            return HostAnswer::refused("log-unwritable",
                                       engine::Message("host.cannot-start", {{"why", say::text(e.what())}}));
        }
    } else {
        id.value = ++localGameIds;
    }
    ++gamesMade;
    game.id = id;
    game.state.emplace(rules);
    ctx.names.useRoster(game.state->rules().roster());
    game.players = std::move(names);
    chance.startGame(gameSeed);
    timeline.restart();
    board.startGame();  // a board left from before is cleared first
    chance.arm(true);
    game.lastAction = {};
    game.status = GameStatus::Playing;
    cards.startGame(r.favourites);
    if (cards.physical()) ctx.refereeEvent("favourites-mode", json{{"mode", "physical"}});
    seats.startGame(r.seats);
    bots.startGame(r.bots);
    teaching.startGame(r.teaching.value_or(ctx.options.teaching));
    ++ctx.counters.gamesStarted;
    const auto gameNumber = say::number(static_cast<std::int64_t>(id.value));
    ctx.notice("game-started",
               engine::Message(cards.physical() ? "referee.game-starts-physical" : "referee.game-starts",
                               {{"game", gameNumber},
                                {"edition", say::text(std::string(engine::editionName(spec.edition)))},
                                {"seats", say::number(rules->seats())}}),
               json{{"game", id.value}, {"favourites_mode", favouritesModeName(cards.mode())}});
    settle();
    auto answer = HostAnswer::accepted(id, engine::Message("answer.game-started", {{"game", gameNumber}}));
    answer.warning = characterNameClash(game.players, game.state->rules().roster());
    return answer;
}

HostAnswer Referee::Impl::deal(const DealRequest& r) {
    if (auto bad = needPlaying()) return *bad;
    const auto& game = ctx.game;
    auto read = record::readDeal(r.deal, game.state->rules());
    if (auto* why = std::get_if<engine::Refusal>(&read)) return refusedBy(*why, game.id);
    if (auto no = notTaken(decide(std::get<engine::Deal>(read), false), game.id)) return *no;
    settle();
    return HostAnswer::accepted(
        game.id, engine::Message("answer.dealt", {{"round", say::number(game.state->round())}}));
}

HostAnswer Referee::Impl::keep(const KeepRequest& r) {
    if (auto bad = needPlaying()) return *bad;
    const auto& game = ctx.game;
    if (cards.physical())
        return HostAnswer::refused("physical-cards", engine::Message("host.keep-physical"), game.id);
    auto read = readPayload("keep", r.keep, game.state->rules());
    if (!read.line) return refusedBy(*read.refusal, game.id);
    const auto& action = std::get<engine::Action>(*read.line);
    if (auto no = notTaken(decide(action, false), game.id)) return *no;
    settle();
    return HostAnswer::accepted(
        game.id, engine::Message("answer.kept", {{"player", say::player(ctx.playerName(action.player()))}}));
}

HostAnswer Referee::Impl::reshuffle(const ReshuffleRequest& r) {
    if (auto bad = needPlaying()) return *bad;
    const auto& game = ctx.game;
    auto read = readPayload("reshuffle", r.reshuffle, game.state->rules());
    if (!read.line) return refusedBy(*read.refusal, game.id);
    if (auto no = notTaken(decide(std::get<engine::Reshuffle>(*read.line), false), game.id)) return *no;
    settle();
    return HostAnswer::accepted(game.id, engine::Message("answer.pile-set"));
}

HostAnswer Referee::Impl::undo() {
    auto& game = ctx.game;
    if (game.status == GameStatus::Finished)
        return HostAnswer::refused("game-over", engine::Message("host.over-nothing-back"), game.id);
    if (game.status != GameStatus::Playing && game.status != GameStatus::Paused)
        return HostAnswer::refused("no-game", engine::Message("host.no-game"), game.id);
    // Named before it is taken back: the answer says what was undone.
    const auto preview = undoPreview();
    const auto taken = timeline.takeBack();
    if (!taken)
        return HostAnswer::refused("log-unwritable", engine::Message("host.log-cannot-save"), game.id);
    if (*taken == 0)
        return HostAnswer::refused("nothing-to-undo", engine::Message("host.nothing-to-undo"), game.id);
    ++ctx.counters.undos;
    board.afterUndo();
    teaching.rebuild(timeline.decisions());
    armChance();
    game.lastAction = engine::Message("event.undone");
    ctx.notice("undone", engine::Message("event.undone-put-back"), json{{"decisions", *taken}});
    settle();
    return HostAnswer::accepted(game.id, preview ? preview->undone : game.lastAction);
}

HostAnswer Referee::Impl::pause() {
    auto& game = ctx.game;
    if (game.status == GameStatus::Paused)
        return HostAnswer::refused("paused", engine::Message("host.already-paused"), game.id);
    if (auto bad = needPlaying()) return *bad;
    if (!ctx.refereeEvent("pause", json::object()))
        return HostAnswer::refused("log-unwritable", engine::Message("host.log-cannot-save"), game.id);
    game.status = GameStatus::Paused;
    chance.disarm();
    ctx.notice("paused", engine::Message("notice.paused"));
    return HostAnswer::accepted(game.id, engine::Message("answer.paused"));
}

HostAnswer Referee::Impl::resumePlay() {
    auto& game = ctx.game;
    if (game.status != GameStatus::Paused) {
        if (game.status == GameStatus::Playing)
            return HostAnswer::refused("not-paused", engine::Message("host.not-paused"), game.id);
        return HostAnswer::refused("no-game", engine::Message("host.no-game"), game.id);
    }
    if (!ctx.refereeEvent("resume", json::object()))
        return HostAnswer::refused("log-unwritable", engine::Message("host.log-cannot-save"), game.id);
    game.status = GameStatus::Playing;
    armChance();
    ctx.notice("resumed", engine::Message("notice.resumed"));
    settle();
    return HostAnswer::accepted(game.id, engine::Message("answer.resumed"));
}

HostAnswer Referee::Impl::abandon() {
    auto& game = ctx.game;
    if (game.status != GameStatus::Playing && game.status != GameStatus::Paused)
        return HostAnswer::refused("no-game", engine::Message("host.no-game"), game.id);
    if (!ctx.commit([&](store::DecisionLog& s, store::GameId g) { return s.abandonGame(g, ctx.wallTime()); }))
        return HostAnswer::refused("log-unwritable", engine::Message("host.log-cannot-save"), game.id);
    game.status = GameStatus::Abandoned;
    ++ctx.counters.gamesAbandoned;
    board.stop();
    chance.disarm();
    ctx.notice("abandoned",
               engine::Message("notice.abandoned", {{"game", say::text(std::to_string(game.id->value))}}));
    return HostAnswer::accepted(game.id, engine::Message("answer.abandoned"));
}

HostAnswer Referee::Impl::order(const OrderRequest& r) {
    if (auto bad = needPlaying()) return *bad;
    board.review();
    auto answer = board.answerOrder(r.characters, *this);
    settle();
    return *answer;
}

HostAnswer Referee::Impl::reveal(const RevealRequest& r) {
    if (auto bad = needPlaying()) return *bad;
    auto& game = ctx.game;
    auto read = cards.read(r, timeline.decisions());
    if (auto* answer = std::get_if<HostAnswer>(&read)) return *answer;
    const auto& entered = std::get<CardsEntered>(read);
    const int taken = static_cast<int>(timeline.decisions().size() - entered.dealIndex);
    if (auto no = notTaken(timeline.replayRound(entered.dealIndex, entered.deal, entered.kept,
                                                entered.favourites, entered.ambitions),
                           game.id))
        return *no;
    cards.entered(entered.round, entered.favourites, entered.ambitions);
    teaching.rebuild(timeline.decisions());

    game.lastAction = engine::Message("event.cards-entered", {{"round", say::number(entered.round)}});
    ctx.notice("cards-entered", game.lastAction,
               json{{"round", entered.round}, {"decisions", taken}, {"totals", game.state->totals()}});
    board.dropRefusal();
    armChance();
    finishIfOver();
    settle();
    return HostAnswer::accepted(game.id, game.lastAction);
}

HostAnswer Referee::Impl::seat(const SeatRequest& r) {
    auto answer = seats.change(r, cards.physical());
    if (answer.ok) settle();
    return answer;
}

HostAnswer Referee::Impl::plan(const PlanRequest& r) {
    if (auto bad = needPlaying()) return *bad;
    if (ctx.game.state->awaitsChance())
        return HostAnswer::refused("not-your-turn", engine::Message("plan.not-your-turn"), ctx.game.id);
    auto answer = seats.plan(r, timeline.decisions().size());
    if (answer.ok) settle();
    return answer;
}

HostAnswer Referee::Impl::phoneVote(const VoteRequest& r) {
    const auto& game = ctx.game;
    if (!game.state) return HostAnswer::refused("no-game", engine::Message("station.no-game"));
    auto read = readPayload("vote", r.vote, game.state->rules());
    if (!read.line) return refusedBy(*read.refusal, game.id);
    const auto* vote = std::get_if<engine::Action>(&*read.line);
    if (!vote || vote->kind() != engine::ActionKind::Vote)
        return HostAnswer::refused("bad-vote", engine::Message("phone.not-a-vote"), game.id);
    const engine::Seat seat = vote->seat();
    // Judged as that seat's key would be: the same checks, refusals and
    // words, told to this seat alone (its page; never what was voted).
    switch (pressSeatKey(KeyPress{seat, vote->card(), true})) {
        case KeyOutcome::Counted:
            return HostAnswer::accepted(game.id, engine::Message("answer.vote-counted"));
        case KeyOutcome::Held:
            return HostAnswer::accepted(game.id, engine::Message("answer.vote-held"));
        case KeyOutcome::NotCounted:
            break;
    }
    const Notice* told = board.stationNotice(seat);
    const std::string code =
        told && told->detail.contains("code") ? told->detail["code"].get<std::string>() : "not-counted";
    return HostAnswer::refused(code, told && told->says ? *told->says : engine::Message("station.no-vote"),
                               game.id);
}

void Referee::Impl::settle() {
    // Each round of the loop accepts at most one decision; a game has far
    // fewer automatic decisions in a row than this.
    for (int guard = 0; guard < 64; ++guard) {
        board.review();
        seats.review();
        bots.review();
        if (!ctx.game.state || !ctx.game.playing()) return;
        // Nothing is decided that the log cannot save: judged once it can.
        if (ctx.logBlocked()) return;
        // A game whose end the log could not save yet.
        finishIfOver();
        if (!ctx.game.playing()) return;
        if (cards.autoKeep(*this)) continue;
        if (!board.guidanceOver()) return;
        // Physical cards face up and not yet entered: nothing is accepted.
        if (cards.revealNeeded()) return;
        if (!board.judge(*this)) return;
    }
}

void Referee::Impl::runDue(Timestamp until, bool inclusive) {
    auto due = [&](Timestamp at) { return at < until || (inclusive && at == until); };
    // The log that could not save is tried again on its own timer; once it
    // saves, the board is judged again and the game goes on by itself.
    if (ctx.logRetryAt && due(*ctx.logRetryAt)) {
        ctx.now = std::max(ctx.now, *ctx.logRetryAt);
        if (ctx.retryLog()) settle();
    }
    for (int guard = 0; guard < 4 && !ctx.logBlocked(); ++guard) {
        const auto at = chance.deadline();
        if (!at || !due(*at)) break;
        ctx.now = std::max(ctx.now, *at);
        chance.makeOwn(*this);
        settle();
    }
    // A bot whose turn it is thinks: votes and keeps decided, a move planned.
    if (const auto at = bots.deadline(); at && due(*at) && !ctx.logBlocked()) {
        ctx.now = std::max(ctx.now, *at);
        bots.act(*this);
        settle();
    }
    board.expireHeldKeys(due);
    // The hold for failing readers is over: judge what waited.
    if (board.failingHoldOver(due)) settle();
    board.expireFlashes(due);
    ctx.now = std::max(ctx.now, until);
}

void Referee::Impl::observe(const drivers::BoardObservation& observation, Timestamp now) {
    runDue(now, false);
    if (!board.observe(observation, now)) return;
    settle();
    for (const auto& key : board.releaseHeldKeys()) pressSeatKey(key);
}

void Referee::Impl::pressKey(const drivers::ButtonEvent& e) {
    runDue(e.at, false);
    // Station s is seat s (REFEREE-NOTES.md, "Places, pieces and stations"),
    // checked against the game's seats before it becomes one.
    const auto& state = ctx.game.state;
    if (!state || e.station.number < 0 || e.station.number >= state->rules().seats()) {
        board.pressWithoutSeat(e.station);
        return;
    }
    const auto card = e.key == drivers::VoteKey::Yes  ? engine::VoteCard::Yes
                      : e.key == drivers::VoteKey::No ? engine::VoteCard::No
                                                      : engine::VoteCard::Stomachache;
    pressSeatKey({engine::Seat{static_cast<std::uint8_t>(e.station.number)}, card});
}

KeyOutcome Referee::Impl::pressSeatKey(KeyPress key) {
    const auto outcome = board.press(key, cards.revealNeeded().has_value(), *this);
    if (outcome == KeyOutcome::Counted) settle();
    return outcome;
}

// --- Referee ---------------------------------------------------------------

Referee::Referee(RefereeOptions options, store::DecisionLog* store)
    : impl_(std::make_unique<Impl>(std::move(options), store)) {}
Referee::~Referee() = default;

HostAnswer Referee::host(const HostRequest& request, Timestamp now) {
    auto& m = *impl_;
    m.runDue(now, false);
    auto& ctx = m.ctx;
    // While the log cannot save, nothing new is accepted (a try first: the
    // disk may have room again).
    if (ctx.logBlocked()) {
        if (!ctx.retryLog())
            return HostAnswer::refused("log-unwritable", ctx.logRefusalMessage(), ctx.game.id);
        m.settle();
    }
    HostAnswer answer = std::visit(
        [&](const auto& r) -> HostAnswer {
            using T = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<T, NewGameRequest>) return m.newGame(r);
            if constexpr (std::is_same_v<T, DealRequest>) return m.deal(r);
            if constexpr (std::is_same_v<T, KeepRequest>) return m.keep(r);
            if constexpr (std::is_same_v<T, ReshuffleRequest>) return m.reshuffle(r);
            if constexpr (std::is_same_v<T, UndoRequest>) return m.undo();
            if constexpr (std::is_same_v<T, PauseRequest>) return m.pause();
            if constexpr (std::is_same_v<T, ResumeRequest>) return m.resumePlay();
            if constexpr (std::is_same_v<T, AbandonRequest>) return m.abandon();
            if constexpr (std::is_same_v<T, RevealRequest>) return m.reveal(r);
            if constexpr (std::is_same_v<T, SeatRequest>) return m.seat(r);
            if constexpr (std::is_same_v<T, VoteRequest>) return m.phoneVote(r);
            if constexpr (std::is_same_v<T, PlanRequest>) return m.plan(r);
            if constexpr (std::is_same_v<T, OrderRequest>) return m.order(r);
        },
        request);
    // A request is on disk before it is applied: one that met a log unable
    // to save it was not done, and is answered so. (An answer that is ok was
    // saved; what the referee tried after it may have met the full disk.)
    if (!answer.ok && ctx.logBlocked())
        return HostAnswer::refused(
            "log-unwritable",
            engine::Message("log.not-saved", {{"why", engine::say::message(ctx.logRefusalMessage())}}),
            answer.game);
    return answer;
}

void Referee::observe(const drivers::SensingUpdate& update, Timestamp now) {
    observe(update.observation, now);
}

void Referee::observe(const drivers::BoardObservation& observation, Timestamp now) {
    impl_->observe(observation, now);
}

void Referee::tick(Timestamp now) { impl_->runDue(now, true); }

std::optional<Timestamp> Referee::nextDeadline() const {
    const auto& m = *impl_;
    std::optional<Timestamp> next;
    auto consider = [&](Timestamp at) {
        if (!next || at < *next) next = at;
    };
    if (auto at = m.chance.deadline()) consider(*at);
    if (m.ctx.logRetryAt) consider(*m.ctx.logRetryAt);
    if (auto at = m.bots.deadline()) consider(*at);
    m.board.deadlines(consider);
    return next;
}

HostAnswer Referee::resume(store::GameId game, Timestamp now) {
    impl_->runDue(now, false);
    return impl_->resumeFromLog(game);
}

void Referee::press(const drivers::ButtonEvent& event) { impl_->pressKey(event); }

drivers::LedStates Referee::leds(Timestamp now) const { return impl_->leds(now); }
nlohmann::json Referee::publicStatus() const { return impl_->publicStatus(); }
nlohmann::json Referee::playerStatus(engine::PlayerId player) const { return impl_->playerStatus(player); }
std::vector<Notice> Referee::takeNotices() { return std::exchange(impl_->ctx.notices, {}); }
std::vector<OwnChance> Referee::takeOwnChance() { return impl_->chance.takeOwnChance(); }
std::optional<store::GameId> Referee::game() const { return impl_->ctx.game.id; }
const engine::State* Referee::state() const {
    const auto& state = impl_->ctx.game.state;
    return state ? &*state : nullptr;
}
bool Referee::paused() const { return impl_->ctx.game.status == GameStatus::Paused; }
std::optional<std::string> Referee::botAt(engine::Seat seat) const {
    const auto& game = impl_->ctx.game;
    if (!game.botAt(seat)) return std::nullopt;
    return game.seats[seat.index].strength();
}
std::optional<SeatPlay> Referee::seatPlay(engine::Seat seat) const {
    const auto* play = impl_->ctx.game.seat(seat);
    if (!play || !impl_->ctx.game.state) return std::nullopt;
    return *play;
}
const RefereeCounters& Referee::counters() const { return impl_->ctx.counters; }
const store::WriteStatus& Referee::logHealth() const { return impl_->ctx.log; }

}  // namespace vivaref::referee
