// What the parts share: the log's writes and health, the notices, names.
#include "daemon/referee/referee_context.hpp"

#include "daemon/referee/board_places.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"
#include "drivers/sensing/board_layout.hpp"

namespace vivaref::referee {

using nlohmann::json;

namespace {
// The reason a write that threw gives (WriteStatus::reason).
constexpr std::string_view kLogCannotWrite = "it cannot write";
}  // namespace

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

Context::Context(RefereeOptions o, store::DecisionLog* s)
    : options(std::move(o)),
      names(options.layout ? *options.layout : drivers::standardBoardLayout()),
      store(s) {}

void Context::writeLog(const std::function<store::WriteStatus(store::DecisionLog&, store::GameId)>& write) {
    if (!store || !game.id) return;
    try {
        noteLog(write(*store, *game.id));
    } catch (const std::exception& e) {
        // The log broke beyond a full disk: say so loudly, play on in memory.
        noteLog(store::WriteStatus{false, std::string("the game log failed: ") + e.what(), store->waiting(),
                                   std::string(kLogCannotWrite)});
    }
}

LogBatch::LogBatch(Context& ctx) : ctx_(ctx) {
    if (ctx_.store && ctx_.game.id) ctx_.store->beginBatch();
}

LogBatch::~LogBatch() {
    if (!ended_) commit();
}

bool LogBatch::commit() {
    ended_ = true;
    return ctx_.commit([](store::DecisionLog& s, store::GameId) { return s.endBatch(); });
}

bool Context::commit(const std::function<store::WriteStatus(store::DecisionLog&, store::GameId)>& write) {
    writeLog(write);
    return !logBlocked();
}

bool Context::refereeEvent(std::string_view kind, const json& payload) {
    return commit([&](store::DecisionLog& s, store::GameId g) {
        return s.appendRefereeEvent(g, kind, payload.dump(), wallTime());
    });
}

void Context::noteLog(const store::WriteStatus& written) {
    // While it could not save, only a write that reached the disk says it
    // saves again (an append inside a batch says nothing yet).
    if (!log.durable && written.durable && !written.committed) return;
    const bool wasFailing = !log.durable;
    log = written;
    if (!written.durable) {
        logRetryAt = now + kLogRetryEvery;
        if (wasFailing) return;
        // Once when it starts (not at each retry): the journal and the pages.
        notice("log-problem",
               engine::Message("log.problem", {{"problem", engine::say::text(written.problem)}}),
               json{{"problem", written.problem}, {"waiting", written.waiting}});
    } else if (wasFailing) {
        logRetryAt.reset();
        notice("log-ok", engine::Message("notice.log-ok"));
    }
}

engine::Message Context::logRefusalMessage() const {
    namespace say = engine::say;
    // The store's reason in a few words: a full disk is said in every
    // language; another is SQLite's own English, shown as written.
    auto why = log.reason.empty() || log.reason == kLogCannotWrite
                   ? say::message(engine::Message("log.cannot-write"))
               : log.reason == store::kDiskFullReason ? say::message(engine::Message("log.disk-full"))
                                                      : say::text(log.reason);
    return engine::Message("log.blocked", {{"why", std::move(why)}});
}

std::string Context::logRefusal() const { return words::english().say(logRefusalMessage()); }

bool Context::retryLog() {
    if (!logBlocked()) return true;
    return refereeEvent("log-saves-again", json{{"problem", log.problem}});
}

void Context::notice(std::string kind, const engine::Message& says, json detail) {
    notices.push_back(Notice{now, std::move(kind), Notice::Audience::Public, std::nullopt,
                             words::english().say(says), std::move(detail), says});
}

void Context::notice(std::string kind, std::string text, const engine::Message& says, json detail) {
    notices.push_back(Notice{now, std::move(kind), Notice::Audience::Public, std::nullopt, std::move(text),
                             std::move(detail), says});
}

std::string Context::playerName(engine::PlayerId p) const {
    if (p.index < game.players.size() && !game.players[p.index].empty()) return game.players[p.index];
    return "Player " + std::to_string(p.index + 1);
}

std::string Context::slug(engine::CharacterId c) const {
    const auto& roster = game.state->rules().roster();
    return c.index < roster.size() ? roster[c].id : "?";
}

engine::MessageValue Context::seatWords(engine::Seat s) const {
    namespace say = engine::say;
    std::vector<engine::MessageValue> players;
    const auto& state = game.state;
    if (state && s.index < state->rules().seats()) {
        const auto& rules = state->rules();
        for (int i = 0; i < rules.playersAt(s); ++i) {
            auto p = rules.playerAt(s, i).index;
            if (p < game.players.size() && !game.players[p].empty())
                players.push_back(say::player(game.players[p]));
        }
    }
    if (players.empty()) return say::message(engine::Message("seat.numbered", {{"seat", say::seat(s)}}));
    return players.size() == 1 ? players.front() : say::list(std::move(players));
}

engine::Message Context::planMessage() const {
    namespace say = engine::say;
    if (!game.plan || !game.state) return {};
    const auto& a = *game.plan;
    const auto& roster = game.state->rules().roster();
    const auto who = a.character().index < roster.size() ? say::character(roster[a.character()])
                                                         : say::character("?", "?");
    // A bot's plan names the bot; one chosen from afar says so.
    if (a.kind() == engine::ActionKind::Place)
        return engine::Message(
            game.planFromAfar ? "referee.remote-places" : "referee.bot-places",
            {{"seat", seatWords(a.seat())}, {"character", who}, {"to", say::place(a.to())}});
    return engine::Message(game.planFromAfar ? "referee.remote-moves" : "referee.bot-moves",
                           {{"seat", seatWords(a.seat())},
                            {"character", who},
                            {"from", say::place(game.state->placeOf(a.character()))},
                            {"to", say::place(a.to())}});
}

engine::Message Context::planCall() const {
    return engine::Message(game.planFromAfar ? "wait.remote-plan" : "wait.bot-plan",
                           {{"plan", engine::say::message(planMessage())}});
}

nlohmann::json Context::planJson() const {
    if (!game.plan || !game.state) return nullptr;
    const auto& a = *game.plan;
    return nlohmann::json{{"seat", a.seat().index},
                          {"action", a.kind() == engine::ActionKind::Place ? "place" : "move"},
                          {"character", slug(a.character())},
                          {"from", placeJson(boardPlace(game.state->placeOf(a.character())))},
                          {"to", placeJson(boardPlace(a.to()).value_or(a.to()))},
                          {"from_afar", game.planFromAfar},
                          {"text", words::english().say(planMessage())},
                          {"says", words::messageJson(planMessage())}};
}

}  // namespace vivaref::referee
