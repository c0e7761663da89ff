// The referee's API, the host's requests, and time (its own chance after a
// grace, LED expiries).
#include "daemon/referee/referee.hpp"

#include <algorithm>

#include "daemon/referee/referee_impl.hpp"
#include "drivers/sim/simulated_board.hpp"
#include "engine/record/deal_reader.hpp"
#include "engine/record/line_reader.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/setup_reader.hpp"

namespace vivaref::referee {

using nlohmann::json;

HostAnswer HostAnswer::accepted(std::optional<store::GameId> game, std::string message) {
    return {true, {}, std::move(message), game};
}
HostAnswer HostAnswer::refused(std::string code, std::string message, std::optional<store::GameId> game) {
    return {false, std::move(code), std::move(message), game};
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

const char* gameStatusName(GameStatus s) {
    switch (s) {
        case GameStatus::None:
            return "no-game";
        case GameStatus::Playing:
            return "playing";
        case GameStatus::Paused:
            return "paused";
        case GameStatus::Finished:
            return "finished";
        case GameStatus::Abandoned:
            return "abandoned";
    }
    return "?";
}

Referee::Impl::Impl(RefereeOptions o, store::DecisionLog* s)
    : options(std::move(o)),
      store(s),
      layout(options.layout ? *options.layout : drivers::standardBoardLayout()) {}

namespace {

HostAnswer refusedBy(const engine::Refusal& r, std::optional<store::GameId> game) {
    return HostAnswer::refused(std::string(engine::refusalCodeName(r.code)), r.message, game);
}

// A record line of `kind` around a host request's payload, read with the
// game's rules: the host enters exactly what a record line holds.
record::LineRead readPayload(std::string_view kind, const json& payload, const engine::Rules& rules) {
    return record::readLine(json{{kind, payload}}.dump(), &rules);
}

}  // namespace

std::optional<HostAnswer> Referee::Impl::needPlaying() const {
    if (status == GameStatus::Paused)
        return HostAnswer::refused("paused", "The game is paused: resume it first.", gameId);
    if (status != GameStatus::Playing)
        return HostAnswer::refused("no-game", "No game is being played: start one first.", gameId);
    return std::nullopt;
}

HostAnswer Referee::Impl::newGame(const NewGameRequest& r) {
    if (status == GameStatus::Playing || status == GameStatus::Paused)
        return HostAnswer::refused(
            "game-in-progress",
            "Game " + std::to_string(gameId->value) + " is still being played: abandon it first.", gameId);
    auto read = record::readSetup(r.setup);
    if (auto* why = std::get_if<engine::Refusal>(&read)) return refusedBy(*why, std::nullopt);
    const auto& spec = std::get<engine::RulesSpec>(read);
    if (auto why = engine::Rules::validate(spec)) return refusedBy(*why, std::nullopt);
    auto rules = std::make_shared<const engine::Rules>(spec);
    if (!r.players.empty() && static_cast<int>(r.players.size()) != rules->players())
        return HostAnswer::refused("bad-players", "This game has " + std::to_string(rules->players()) +
                                                      " players: give " + std::to_string(rules->players()) +
                                                      " names, or none.");
    std::vector<std::string> names = r.players;
    if (names.empty())
        for (int i = 0; i < rules->players(); ++i) names.push_back("Player " + std::to_string(i + 1));
    const std::uint64_t gameSeed = options.seed + gamesMade;
    store::GameId id;
    if (store) {
        try {
            id = store->createGame(store::NewGame{spec, names, gameSeed, wallTime()});
        } catch (const std::exception& e) {
            // A game starts on disk or not at all.
            return HostAnswer::refused("log-unwritable",
                                       std::string("The game cannot be started: ") + e.what());
        }
    } else {
        id.value = ++localGameIds;
    }
    ++gamesMade;
    gameId = id;
    state.emplace(rules);
    players = std::move(names);
    seed = gameSeed;
    rng.emplace(gameSeed);
    history.clear();
    refusal.reset();
    flashPlace.reset();
    stationBlinkUntil.clear();
    stationNotices.clear();
    liftedAt.clear();
    heldKeys.clear();
    boardActionAt = now;
    startGuiding();  // a board left from before is cleared first
    chanceDueSince = now;
    lastAction.clear();
    status = GameStatus::Playing;
    favouritesMode = r.favourites;
    favouritesEntered.clear();
    ambitionsEntered.clear();
    if (physical()) refereeEvent("favourites-mode", json{{"mode", "physical"}});
    ++counters.gamesStarted;
    notice("game-started",
           "Game " + std::to_string(id.value) + " starts: " + std::string(engine::editionName(spec.edition)) +
               ", " + std::to_string(rules->seats()) + " seats" +
               (physical() ? ", with the table's own Favourites cards." : "."),
           json{{"game", id.value}, {"favourites_mode", favouritesModeName(favouritesMode)}});
    settle();
    return HostAnswer::accepted(id, "Game " + std::to_string(id.value) + " started.");
}

HostAnswer Referee::Impl::deal(const DealRequest& r) {
    if (auto bad = needPlaying()) return *bad;
    auto read = record::readDeal(r.deal, state->rules());
    if (auto* why = std::get_if<engine::Refusal>(&read)) return refusedBy(*why, gameId);
    if (auto why = decide(std::get<engine::Deal>(read), false)) return refusedBy(*why, gameId);
    settle();
    return HostAnswer::accepted(gameId, "Round " + std::to_string(state->round()) + " is dealt.");
}

HostAnswer Referee::Impl::keep(const KeepRequest& r) {
    if (auto bad = needPlaying()) return *bad;
    if (physical())
        return HostAnswer::refused(
            "physical-cards",
            "This table plays with its own cards: each player keeps an Ambition card in "
            "hand, and the host enters it when it is revealed.",
            gameId);
    auto read = readPayload("keep", r.keep, state->rules());
    if (!read.line) return refusedBy(*read.refusal, gameId);
    const auto& action = std::get<engine::Action>(*read.line);
    if (auto why = decide(action, false)) return refusedBy(*why, gameId);
    settle();
    return HostAnswer::accepted(gameId, "Player " + std::to_string(action.player().index) + " kept a card.");
}

HostAnswer Referee::Impl::reshuffle(const ReshuffleRequest& r) {
    if (auto bad = needPlaying()) return *bad;
    auto read = readPayload("reshuffle", r.reshuffle, state->rules());
    if (!read.line) return refusedBy(*read.refusal, gameId);
    if (auto why = decide(std::get<engine::Reshuffle>(*read.line), false)) return refusedBy(*why, gameId);
    settle();
    return HostAnswer::accepted(gameId, "The Emissary's pile is set.");
}

HostAnswer Referee::Impl::undo() {
    if (status == GameStatus::Finished)
        return HostAnswer::refused("game-over", "The game is over: nothing can be taken back.", gameId);
    if (status != GameStatus::Playing && status != GameStatus::Paused)
        return HostAnswer::refused("no-game", "No game is being played.", gameId);
    // The last decision a person took, with what the referee did on its own after it.
    std::size_t keep = history.size();
    while (keep > 0 && history[keep - 1].automatic) --keep;
    if (keep == 0) return HostAnswer::refused("nothing-to-undo", "There is nothing to take back.", gameId);
    --keep;
    boardActionAt = now;  // lifts before an undo are not ordered against the board after it
    heldKeys.clear();
    const int taken = static_cast<int>(history.size() - keep);
    for (int i = 0; i < taken; ++i)
        writeLog([&](store::DecisionLog& s, store::GameId g) { return s.appendUndo(g, wallTime()); });
    state = std::move(history[keep].before);
    history.erase(history.begin() + static_cast<std::ptrdiff_t>(keep), history.end());
    ++counters.undos;
    refusal.reset();
    flashPlace.reset();
    startGuiding();
    armChance();
    lastAction = "The host took back the last decision.";
    notice("undone", lastAction + " Put the board back as shown.", json{{"decisions", taken}});
    settle();
    return HostAnswer::accepted(gameId, lastAction);
}

HostAnswer Referee::Impl::pause() {
    if (status == GameStatus::Paused)
        return HostAnswer::refused("paused", "The game is already paused.", gameId);
    if (auto bad = needPlaying()) return *bad;
    status = GameStatus::Paused;
    chanceDueSince.reset();
    refereeEvent("pause", json::object());
    notice("paused", "The game is paused: nothing is accepted until it resumes.");
    return HostAnswer::accepted(gameId, "Paused.");
}

HostAnswer Referee::Impl::resumePlay() {
    if (status != GameStatus::Paused) {
        if (status == GameStatus::Playing)
            return HostAnswer::refused("not-paused", "The game is not paused.", gameId);
        return HostAnswer::refused("no-game", "No game is being played.", gameId);
    }
    status = GameStatus::Playing;
    armChance();
    refereeEvent("resume", json::object());
    notice("resumed", "The game goes on.");
    settle();
    return HostAnswer::accepted(gameId, "Resumed.");
}

HostAnswer Referee::Impl::abandon() {
    if (status != GameStatus::Playing && status != GameStatus::Paused)
        return HostAnswer::refused("no-game", "No game is being played.", gameId);
    writeLog([&](store::DecisionLog& s, store::GameId g) { return s.abandonGame(g, wallTime()); });
    status = GameStatus::Abandoned;
    ++counters.gamesAbandoned;
    refusal.reset();
    stopGuiding();
    chanceDueSince.reset();
    notice("abandoned", "Game " + std::to_string(gameId->value) + " is abandoned.");
    return HostAnswer::accepted(gameId, "Abandoned.");
}

void Referee::Impl::makeOwnChance() {
    const auto& rules = state->rules();
    if (state->phase() == engine::Phase::AwaitDeal) {
        auto deal = engine::randomDeal(*state, *rng);
        json host{{"deal", json::parse(record::writeDeal(deal, rules)).at("deal")}};
        refereeEvent("referee-chance", json{{"kind", "deal"}});
        if (!decide(deal, true)) ownChance.push_back({now, std::move(host)});
    } else {
        auto pile = engine::randomReshuffle(*state, *rng);
        json host{{"reshuffle", json::parse(record::writeReshuffle(pile)).at("reshuffle")}};
        refereeEvent("referee-chance", json{{"kind", "reshuffle"}});
        if (!decide(pile, true)) ownChance.push_back({now, std::move(host)});
    }
}

void Referee::Impl::armChance() {
    chanceDueSince = status == GameStatus::Playing && state && state->awaitsChance() && !revealNeeded()
                         ? std::optional<Timestamp>(now)
                         : std::nullopt;
}

void Referee::Impl::runDue(Timestamp until, bool inclusive) {
    auto due = [&](Timestamp at) { return at < until || (inclusive && at == until); };
    for (int guard = 0; guard < 4; ++guard) {
        if (status != GameStatus::Playing || !state || !state->awaitsChance() || !chanceDueSince) break;
        const Timestamp at = *chanceDueSince + options.chanceGrace;
        if (!due(at)) break;
        now = std::max(now, at);
        chanceDueSince.reset();
        makeOwnChance();
        settle();
    }
    expireHeldKeys(due);
    if (failingHoldUntil && due(*failingHoldUntil)) {
        // The hold is over with a reader still failing: judge what waited.
        now = std::max(now, *failingHoldUntil);
        failingHoldUntil.reset();
        settle();
    }
    if (flashPlace && due(flashUntil)) flashPlace.reset();
    std::erase_if(stationBlinkUntil, [&](const auto& entry) { return due(entry.second); });
    now = std::max(now, until);
}

void Referee::Impl::notice(std::string kind, std::string text, json detail) {
    notices.push_back(Notice{now, std::move(kind), Notice::Audience::Public, std::nullopt, std::move(text),
                             std::move(detail)});
}

std::string Referee::Impl::seatName(engine::Seat s) const {
    std::string text = "seat " + std::to_string(s.index);
    if (!state || s.index >= state->rules().seats()) return text;
    const auto& rules = state->rules();
    text += " (";
    for (int i = 0; i < rules.playersAt(s); ++i) {
        auto p = rules.playerAt(s, i).index;
        if (i) text += " and ";
        text += p < players.size() ? players[p] : "player " + std::to_string(p);
    }
    return text + ")";
}

std::string Referee::Impl::slug(engine::CharacterId c) const {
    const auto& roster = state->rules().roster();
    return c.index < roster.size() ? roster[c].id : "?";
}

// --- Referee ---------------------------------------------------------------

Referee::Referee(RefereeOptions options, store::DecisionLog* store)
    : impl_(std::make_unique<Impl>(std::move(options), store)) {}
Referee::~Referee() = default;

HostAnswer Referee::host(const HostRequest& request, Timestamp now) {
    auto& m = *impl_;
    m.runDue(now, false);
    return std::visit(
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
        },
        request);
}

void Referee::tick(Timestamp now) { impl_->runDue(now, true); }

std::optional<Timestamp> Referee::nextDeadline() const {
    const auto& m = *impl_;
    std::optional<Timestamp> next;
    auto consider = [&](Timestamp at) {
        if (!next || at < *next) next = at;
    };
    if (m.status == GameStatus::Playing && m.state && m.state->awaitsChance() && m.chanceDueSince)
        consider(*m.chanceDueSince + m.options.chanceGrace);
    if (m.flashPlace) consider(m.flashUntil);
    if (m.failingHoldUntil) consider(*m.failingHoldUntil);
    for (const auto& [station, until] : m.stationBlinkUntil) consider(until);
    for (const auto& held : m.heldKeys) consider(held.until);
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
std::vector<Notice> Referee::takeNotices() { return std::exchange(impl_->notices, {}); }
std::vector<OwnChance> Referee::takeOwnChance() { return std::exchange(impl_->ownChance, {}); }
std::optional<store::GameId> Referee::game() const { return impl_->gameId; }
const engine::State* Referee::state() const { return impl_->state ? &*impl_->state : nullptr; }
bool Referee::paused() const { return impl_->status == GameStatus::Paused; }
const RefereeCounters& Referee::counters() const { return impl_->counters; }
const store::WriteStatus& Referee::logHealth() const { return impl_->log; }

}  // namespace vivaref::referee
