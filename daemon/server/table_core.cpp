#include "daemon/server/table_core.hpp"

#include <algorithm>
#include <map>

#include "daemon/server/game_archive.hpp"
#include "daemon/trace/trace_check.hpp"
#include "daemon/words/catalog.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"
#include "engine/roster.hpp"

namespace vivaref::server {

using nlohmann::json;
using Outcome = ServiceAnswer::Outcome;

namespace {

// A failure a person reads (on the host's or a player's page), with its message.
ServiceAnswer saying(ServiceAnswer failed, const engine::Message& says) {
    failed.body["says"] = words::messageJson(says);
    return failed;
}

ServiceAnswer noGameYet() {
    return saying(ServiceAnswer::failed(Outcome::Unavailable, "no-game", "no game has been started yet"),
                  engine::Message("api.no-game-yet"));
}

ServiceAnswer badRequest(std::string_view message) {
    return ServiceAnswer::failed(Outcome::BadRequest, "bad-request", message);
}

// A seat the referee plays has no link, no code and no keys for people
// (README, "Private by default"): its cards and votes are the referee's.
// The referee's refusal: a log that cannot save is "not now" (503), not the
// game saying no.
ServiceAnswer refusedBy(const referee::HostAnswer& answer) {
    auto failed =
        ServiceAnswer::failed(answer.code == "log-unwritable" ? Outcome::Unavailable : Outcome::Refused,
                              answer.code.empty() ? "refused" : answer.code, answer.message);
    if (answer.says) failed.body["says"] = words::messageJson(*answer.says);
    return failed;
}

ServiceAnswer playedByReferee(std::int64_t seat, std::string_view why, const char* code) {
    return saying(ServiceAnswer::failed(
                      Outcome::Refused, "bot-seat",
                      "seat " + std::to_string(seat + 1) + " is played by the referee: " + std::string(why)),
                  engine::Message(code, {{"seat", engine::say::number(seat + 1)}}));
}

bool isSlug(const std::string& text) {
    if (text.empty() || text.size() > 64) return false;
    for (char c : text)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    return true;
}

bool isUidText(const std::string& text) {
    if (text.size() < 8 || text.size() > 20 || text.size() % 2) return false;
    return text.find_first_not_of("0123456789ABCDEF") == std::string::npos;
}

}  // namespace

TableCore::TableCore(const drivers::LoopClock& clock, store::GameStore* store, drivers::BoardLayout layout,
                     table::TableOptions options, castle::HandOffer* hands)
    : clock_(clock),
      store_(store),
      wallAtZero_(options.referee.wallAtZero),
      hands_(hands),
      table_(std::move(layout), std::move(options), store, clock, table::ScanFeed::OwnScans),
      voice_(table_.referee(), clock, nullptr, [this] { voiceDue(); }) {
    table_.attach(*this);
    // The voice hears the referee beside the other observers, never before them.
    table_.attach(voice_);
    // The game's trace, recorded beside from what the table takes.
    if (store_) {
        recorder_ = std::make_unique<table::TraceRecorder>(*store_, table_.layout(),
                                                           table::RecorderOptions{table_.sensing()});
        table_.attach(*recorder_);
    }
}

// Raw scans go to whoever listens (the host's tag enrolment), by reader id.
void TableCore::rawScan(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at) {
    if (hasRawScanListeners()) rawScanned(table_.layout().reader(reader), result, at);
}

void TableCore::keepPlayerLinks(const std::filesystem::path& directory,
                                std::function<void(const std::string&)> onNote) {
    linksFile_.emplace(directory);
    onLinksNote_ = std::move(onNote);
    std::string why, warning;
    savedLinks_ = linksFile_->read(why, warning);
    savedLinksProblem_ = why;
    savedLinksSettled_ = false;
    if (!warning.empty()) linksNote(warning);
}

std::optional<referee::HostAnswer> TableCore::resumeUnfinished() {
    auto answer = resumeNewest();
    settleSavedLinks();
    return answer;
}

std::optional<referee::HostAnswer> TableCore::resumeNewest() {
    if (!store_) return std::nullopt;
    const auto unfinished = store_->unfinishedGames();
    if (unfinished.empty()) return std::nullopt;
    table_.runUntil(clock_.now());
    // A custom roster's characters need their simulated tags again.
    if (auto summary = store_->game(unfinished.back())) {
        const json setup = json::parse(summary->setupLine, nullptr, false);
        if (setup.is_object() && setup.contains("setup")) table_.enrolSetup(setup["setup"]);
    }
    auto answer = table_.referee().resume(unfinished.back(), clock_.now());
    // The game's own language, as the host last chose it for that game.
    try {
        for (const auto& e : store_->events(unfinished.back()))
            if (e.kind == "table-language") {
                const json payload = json::parse(e.payload, nullptr, false);
                if (payload.is_object() && payload.contains("language") && payload["language"].is_string())
                    (void)setLanguage(payload["language"].get<std::string>());
            }
    } catch (const std::exception&) {
        // An unreadable log was already said by the resume's answer.
    }
    afterInput();
    return answer;
}

void TableCore::advance() {
    const Timestamp now = clock_.now();
    const auto deadline = table_.referee().nextDeadline();
    const bool due = deadline && *deadline <= now;
    table_.runUntil(now + Timestamp(1));
    // The castle's step before this one may have changed the board (its
    // scans go straight to the table): dirty_ says so too.
    if (dirty_ || due) lastActivity_ = now;
    // Trace lines that led to no decision yet are written once they have
    // waited a second (the store's rule; decisions take theirs along).
    if (store_) (void)store_->flushDue(now.count());
    // Building and comparing the whole status on every scan costs more than
    // the scan: only when something may have changed, and once a second in
    // case a change came some other way.
    if (dirty_ || due || now - lastChange_ >= kRepublishEvery) afterInput();
    // The voice's lines, after the status (no post: serve posts them).
    if (voiceDue_) speak();
    if (now - lastVoicePoll_ >= kRepublishEvery) pollVoice();
}

// A new game gets new secret links, for its people only (a resumed one those
// kept before the restart); a finished one keeps its links, so the players
// can still read their cards.
void TableCore::afterInput() {
    const auto game = table_.referee().game();
    if (game && game != tokensFor_) {
        const auto* state = table_.referee().state();
        if (state) {
            // A bot seat has no people, so no link; a seat a bot stands in
            // for keeps its people's (they take it back).
            std::vector<bool> people;
            for (int p = 0; p < state->rules().players(); ++p) {
                const auto play = table_.referee().seatPlay(
                    state->rules().seatOf(engine::PlayerId{static_cast<std::uint8_t>(p)}));
                people.push_back(!play || play->bot.empty());
            }
            tokensFor_ = game;
            lastSeen_.assign(people.size(), std::nullopt);
            linksForGame(*game, people);
        }
    }
    // A game over keeps its links in memory (its players may read their
    // last cards) but no longer on disk: no restart brings them back.
    if (linksOver_ && linksOnDisk_) dropSavedLinks();
    lastChange_ = clock_.now();
    dirty_ = false;
    changed();
}

json TableCore::publicStatus() {
    json status = table_.referee().publicStatus();
    // The characters' names, for the pages (the referee speaks in slugs).
    if (const auto* state = table_.referee().state();
        state && status.is_object() && !status.contains("roster")) {
        json roster = json::array();
        for (const auto& c : state->rules().roster().characters())
            roster.push_back({{"id", c.id}, {"name", c.name}, {"kind", engine::characterKindName(c.kind)}});
        status["roster"] = std::move(roster);
    }
    // What the castle's place LEDs show now ("place-3": "on"), for the
    // shared screens' castle: public, as the castle is. Not the stations'
    // LEDs, whose blink answers one seat's private refusal.
    if (status.is_object()) {
        json leds = json::object();
        for (const auto& [led, mode] : table_.referee().leds(clock_.now()))
            if (led.name.starts_with("place-") && mode != drivers::LedMode::Off)
                leds[led.name] = drivers::ledModeName(mode);
        status["leds"] = std::move(leds);
    }
    // The table's language and its voice (none of it secret), for the shared
    // screens to follow and the host page's controls.
    if (status.is_object()) {
        status["language"] = language_;
        status["voice"] = voiceJson();
    }
    addPhones(status);
    // What waits for the club, for the health card: where it goes and why
    // not yet; never the credentials nor the members.
    if (club_ && status.is_object()) {
        const auto state = club_->state();
        auto ms = [](const std::optional<store::WallTime>& t) {
            return t ? json(t->time_since_epoch().count()) : json(nullptr);
        };
        status["club"] = {{"table", state.table},
                          {"server", state.server},
                          {"waiting", state.waiting},
                          {"pushed", state.pushed},
                          {"last_success_ms", ms(state.lastSuccess)},
                          {"last_attempt_ms", ms(state.lastAttempt)},
                          {"last_error", state.lastError},
                          {"refused", state.refused},
                          {"next_try_ms", ms(state.nextTry)}};
    }
    return status;
}

json TableCore::games() { return store_ ? gamesJson(*store_) : json::array(); }

std::optional<json> TableCore::game(std::int64_t id) {
    if (!store_) return std::nullopt;
    return gameJson(*store_, store::GameId{id});
}

std::optional<std::string> TableCore::gameText(std::int64_t id) {
    if (!store_) return std::nullopt;
    return server::gameText(*store_, store::GameId{id}, archive_);
}

ServiceAnswer TableCore::gameAnalysis(std::int64_t id) {
    if (!store_)
        return ServiceAnswer::failed(Outcome::NotFound, "no-such-game", "this table keeps no game log");
    const store::GameId game{id};
    const auto summary = store_->game(game);
    if (!summary)
        return ServiceAnswer::failed(Outcome::NotFound, "no-such-game",
                                     "the game log holds no game " + std::to_string(id));
    // The analysis knows every card: nothing is said of a game in progress.
    if (!analysis::isFinished(*summary))
        return ServiceAnswer::failed(
            Outcome::Refused, "game-in-progress",
            "game " + std::to_string(id) + " is still being played: it is analysed once it is over");
    if (const auto kept = store_->analyses().find(game)) {
        const std::string version = std::to_string(kept->madeAt.time_since_epoch().count());
        if (auto text = analyses_.find(id, version)) return {Outcome::Ok, json::object(), *text};
        json stored = json::parse(kept->result, nullptr, false);
        auto problem = stored.is_discarded() ? std::optional<std::string>("it is not JSON")
                                             : analysis::analysisProblem(stored);
        if (problem)
            return ServiceAnswer::ok(
                {{"status", "damaged"},
                 {"message", "the analysis kept in the game log cannot be read (" + *problem +
                                 "): 'vivaref analyse " + std::to_string(id) + " --redo' makes it again"}});
        stored["status"] = "analysed";
        stored["madeAt"] = kept->madeAt.time_since_epoch().count();
        auto text = analyses_.keep(id, version, stored.dump(-1, ' ', false, json::error_handler_t::replace));
        return {Outcome::Ok, json::object(), *text};
    }
    if (background_) {
        if (const auto under = background_->underWay(); under && under->game == game)
            return ServiceAnswer::ok({{"status", "analysing"}, {"progress", under->done}});
        if (auto why = background_->failure(game))
            return ServiceAnswer::ok({{"status", "failed"}, {"message", "the analysis failed: " + *why}});
        return ServiceAnswer::ok({{"status", "waiting"}, {"progress", 0}});
    }
    return ServiceAnswer::ok(
        {{"status", "waiting"},
         {"progress", 0},
         {"message", "no analysis runs here: 'vivaref analyse " + std::to_string(id) + "' makes one"}});
}

// A seat played from afar whose players' phones have asked nothing for
// phoneAwayAfter_ is away: "phone_away" in its "seats" entry, and when the
// game waits for that seat, "waiting_phone" and the headline say so
// ("Waiting for Ann’s phone."). Its page reads its status at least every
// few seconds (web-ui/js/player.js), so a phone closed or out of reach
// shows within that.
void TableCore::addPhones(json& status) const {
    const auto* state = table_.referee().state();
    if (!state || !status.is_object() || !status.contains("seats") || !status["seats"].is_array()) return;
    const auto now = clock_.now();
    const auto& rules = state->rules();
    const auto toAct = state->toAct();
    const bool playing = status.value("state", "") == "playing";
    const bool planned = status.contains("plan") && !status["plan"].is_null();
    // Each player's name, read once (the loop below asks per seat).
    std::map<int, std::string> nameOf;
    if (const auto players = status.find("players"); players != status.end() && players->is_array())
        for (const auto& named : *players)
            if (named.is_object()) nameOf.emplace(named.value("player", -1), named.value("name", ""));
    for (auto& entry : status["seats"]) {
        if (!entry.is_object() || !entry.value("remote", false) || !entry["stand_in"].is_null()) continue;
        const int seat = entry.value("seat", -1);
        bool away = true;
        std::vector<engine::MessageValue> names;
        for (int p = 0; p < rules.players(); ++p) {
            const engine::PlayerId player{static_cast<std::uint8_t>(p)};
            if (rules.seatOf(player).index != seat) continue;
            const auto& last = static_cast<std::size_t>(p) < lastSeen_.size() ? lastSeen_[p] : std::nullopt;
            if (last && now - *last < phoneAwayAfter_) away = false;
            if (const auto named = nameOf.find(p); named != nameOf.end())
                names.push_back(engine::say::player(named->second));
        }
        entry["phone_away"] = away;
        const bool awaited =
            std::any_of(toAct.begin(), toAct.end(), [&](engine::Seat s) { return s.index == seat; });
        if (!away || !playing || !awaited || planned || status.contains("waiting_phone")) continue;
        const engine::Message says(
            "wait.phone-away",
            {{"seat", names.size() == 1 ? names.front() : engine::say::list(std::move(names))}});
        status["waiting_phone"] = {{"seat", seat}, {"says", words::messageJson(says)}};
        status["waiting_for"] = words::english().say(says);
        status["waiting_says"] = words::messageJson(says);
    }
}

void TableCore::seen(int player) {
    if (player >= 0 && static_cast<std::size_t>(player) < lastSeen_.size()) {
        const bool wasAway = !lastSeen_[player] || clock_.now() - *lastSeen_[player] >= phoneAwayAfter_;
        lastSeen_[player] = clock_.now();
        if (wasAway) dirty_ = true;  // "waiting for ...’s phone" is over
    }
}

std::optional<json> TableCore::playerStatus(std::string_view token) {
    const auto player = tokens_.find(token);
    if (!player) return std::nullopt;
    seen(*player);
    // The host's page hides this player's code once their page has opened.
    const auto wall = wallAtZero_ + std::chrono::duration_cast<std::chrono::milliseconds>(clock_.now());
    if (tokens_.markOpened(*player, wall.time_since_epoch().count())) saveLinks();
    return table_.referee().playerStatus(engine::PlayerId{static_cast<std::uint8_t>(*player)});
}

ServiceAnswer TableCore::player(std::string_view token, std::string_view request, const json& body) {
    const auto player = tokens_.find(token);
    if (!player)
        return saying(ServiceAnswer::failed(Outcome::NotFound, "no-such-player",
                                            "this link belongs to no player of the current game"),
                      engine::Message("api.no-such-player-link"));
    seen(*player);
    if (request == "keep") {
        auto ambition = body.find("ambition");
        if (ambition == body.end() || !ambition->is_string() || body.size() != 1)
            return badRequest("a keep names the \"ambition\" card kept (its slug)");
        // The same keep line the host could enter, with the player the token names.
        return host("keep", json{{"player", *player}, {"ambition", *ambition}});
    }
    const auto* state = table_.referee().state();
    if (!state) return noGameYet();
    const auto seat = state->rules().seatOf(engine::PlayerId{static_cast<std::uint8_t>(*player)});
    if (request == "vote") {
        // The same vote a key of this seat's station makes (issue 35).
        auto card = body.find("card");
        if (card == body.end() || !card->is_string() || body.size() != 1)
            return badRequest("a vote names its \"card\" (yes, no, stomachache)");
        return tableInput(trace::HostKind::Vote, json{{"seat", seat.index}, {"card", *card}});
    }
    if (request == "plan") {
        // A seat played from afar: its placement or move, for the position
        // its page was offered ("step"), shown to the table to make.
        auto character = body.find("character");
        auto to = body.find("to");
        auto step = body.find("step");
        if (character == body.end() || !character->is_string() || to == body.end() || !to->is_string() ||
            step == body.end() || !step->is_number_unsigned() || body.size() != 3)
            return badRequest(
                "a plan names the \"character\" (its slug), where it goes (\"to\", a place) and the "
                "\"step\" its page was offered");
        const auto& roster = state->rules().roster();
        const auto id = roster.find(character->get<std::string>());
        const bool placing = id.index < roster.size() && state->placeOf(id) == engine::Place::Reserve;
        return tableInput(
            trace::HostKind::Plan,
            json{{placing ? "place" : "move", {{"seat", seat.index}, {"character", *character}, {"to", *to}}},
                 {"step", *step}});
    }
    return ServiceAnswer::failed(
        Outcome::NotFound, "no-such-request",
        "a player's page can keep an Ambition card, vote and choose a move from afar");
}

ServiceAnswer TableCore::players() {
    const auto* state = table_.referee().state();
    const auto game = table_.referee().game();
    if (!state || !game || tokensFor_ != game) return noGameYet();
    json out = {{"game", game->value}, {"players", json::array()}};
    std::vector<std::string> names;
    if (store_)
        if (auto summary = store_->game(*game))
            for (const auto& p : summary->players) names.push_back(p.name);
    const auto& rules = state->rules();
    for (int p = 0; p < rules.players(); ++p) {
        const auto& token = tokens_.tokens()[static_cast<std::size_t>(p)];
        const auto seat = rules.seatOf(engine::PlayerId{static_cast<std::uint8_t>(p)});
        json player = {{"player", p},
                       {"seat", seat.index},
                       {"name", p < static_cast<int>(names.size()) ? names[static_cast<std::size_t>(p)]
                                                                   : "Player " + std::to_string(p + 1)}};
        // A bot seat's player: its strength, and no link. A seat a bot stands
        // in for keeps its people's links (issue 35).
        const auto play = table_.referee().seatPlay(seat);
        const bool bot = play && !play->bot.empty();
        player["bot"] = bot ? json(play->bot) : json(nullptr);
        player["stand_in"] = play && !play->standIn.empty() ? json(play->standIn) : json(nullptr);
        player["remote"] = play && play->remote;
        player["votes_by"] = play ? json(referee::voteSourceName(play->votesBy())) : json(nullptr);
        // When their page last asked the table anything (ms ago; null: not this run).
        const auto last = static_cast<std::size_t>(p) < lastSeen_.size() ? lastSeen_[p] : std::nullopt;
        player["seen_ms_ago"] = last ? json((clock_.now() - *last).count()) : json(nullptr);
        if (!bot && !token.empty()) {
            player["token"] = token;
            player["path"] = "/player.html#" + token;
            // Whether (and when) this link has opened the player's page.
            const auto opened = tokens_.openedAt(p);
            player["opened"] = opened.has_value();
            player["opened_ms"] = opened ? json(*opened) : json(nullptr);
        }
        out["players"].push_back(std::move(player));
    }
    return ServiceAnswer::ok(std::move(out));
}

// {"player": P}: player P's link is replaced by a new one (a lost phone);
// the answer is the players' links, as "players" gives them.
ServiceAnswer TableCore::newLink(const json& body) {
    const auto player = body.find("player");
    if (player == body.end() || !player->is_number_integer() || body.size() != 1)
        return badRequest("a new link names its \"player\" (a number, from 0)");
    if (!table_.referee().game() || tokensFor_ != table_.referee().game()) return noGameYet();
    const auto number = player->get<std::int64_t>();
    if (number < 0 || number >= static_cast<std::int64_t>(tokens_.tokens().size()))
        return ServiceAnswer::failed(Outcome::NotFound, "no-such-player",
                                     "the current game has no player " + std::to_string(number));
    const auto seat =
        table_.referee().state()->rules().seatOf(engine::PlayerId{static_cast<std::uint8_t>(number)});
    const auto play = table_.referee().seatPlay(seat);
    if ((play && !play->bot.empty()) || !tokens_.renew(static_cast<int>(number)))
        return playedByReferee(seat.index, "its player has no link, so that its cards stay secret",
                               "api.bot-seat-link");
    // Kept before the answer: the old link stays revoked after a restart.
    saveLinks();
    return players();
}

// The club's members as the table last fetched them, for the host's
// new-game form: host only (a club's list of people is not public).
ServiceAnswer TableCore::members() {
    json out = {{"club", club_ != nullptr}, {"members", json::array()}};
    if (club_ && store_) {
        try {
            for (const auto& m : store_->club().members())
                out["members"].push_back({{"id", m.id}, {"name", m.name}});
            if (const auto at = store_->club().membersFetchedAt())
                out["fetched_ms"] = at->time_since_epoch().count();
        } catch (const std::exception& e) {
            return ServiceAnswer::failed(Outcome::Unavailable, "members-unreadable",
                                         std::string("the club's members cannot be read: ") + e.what());
        }
    }
    return ServiceAnswer::ok(std::move(out));
}

ServiceAnswer TableCore::host(std::string_view request, const json& body) {
    if (request == "players") return players();
    if (request == "members") return members();
    if (request == "new-link") return newLink(body);
    if (request == "language") return hostLanguage(body);
    if (request == "voice") return hostVoice(body);
    trace::HostKind kind{};
    // A vote or a move from afar is a player's, from their own page.
    if (!trace::parseHostKind(request, kind) || kind == trace::HostKind::Vote ||
        kind == trace::HostKind::Plan)
        return ServiceAnswer::failed(
            Outcome::NotFound, "no-such-request",
            "the host's requests are new-game, deal, keep, reshuffle, reveal, undo, "
            "pause, resume, abandon, seat, order, players, members, language and voice");
    // Undo past a scoring the table has seen is asked about first (issue 34):
    // the host's answer, not the game's, so it stays out of the trace.
    json form = body;
    if (kind == trace::HostKind::Undo) {
        if (auto refused = undoNeedsConfirmation(form)) return std::move(*refused);
    }
    // The form is checked as a trace line's would be; the game judges the rest.
    const auto parsed = referee::parseHostRequest(json{{std::string(request), form}});
    if (!parsed.ok()) {
        auto bad = badRequest(std::get<std::string>(parsed.value));
        if (parsed.says) bad.body["says"] = words::messageJson(*parsed.says);
        return bad;
    }
    trace::HostLine line{
        kind, kind == trace::HostKind::NewGame ? body.value("setup", json::object()) : body, {}};
    if (kind == trace::HostKind::NewGame) {
        const auto& newGame = std::get<referee::NewGameRequest>(std::get<referee::HostRequest>(parsed.value));
        line.players = newGame.players;
        if (newGame.favourites != referee::FavouritesMode::Dealt)
            line.favourites = referee::favouritesModeName(newGame.favourites);
        if (!newGame.bots.empty()) line.bots = referee::botSeatsJson(newGame.bots);
        if (!newGame.members.empty()) {
            line.members = json::array();
            for (const auto& m : newGame.members) line.members.push_back(m ? json(*m) : json(nullptr));
        }
        if (newGame.teaching) line.teaching = *newGame.teaching;
        if (!newGame.seats.empty()) line.seats = referee::seatSetupsJson(newGame.seats);
    } else if (kind == trace::HostKind::Undo || kind == trace::HostKind::Pause ||
               kind == trace::HostKind::Resume || kind == trace::HostKind::Abandon) {
        line.payload = json::object();
    }

    if (kind != trace::HostKind::NewGame) {
        auto done = tableInput(kind, line.payload);
        // An undo says what it took back (issue 34), a seat's change what
        // changed; the other answers stay as they were.
        if (done.outcome == Outcome::Ok && kind != trace::HostKind::Undo && kind != trace::HostKind::Seat) {
            done.body.erase("message");
            done.body.erase("says");
        }
        return done;
    }
    const auto answer = table_.host(line, table_.stamp());
    lastActivity_ = clock_.now();
    // A new game keeps the table's language from its start.
    if (answer.ok)
        if (const auto game = table_.referee().game()) logLanguage(*game);
    afterInput();
    if (voiceDue_) speak();
    if (!answer.ok) return refusedBy(answer);
    auto links = players();
    // A player named as a character: started all the same, said to the host.
    if (answer.warning && links.outcome == Outcome::Ok) {
        links.body["warning"] = words::english().say(*answer.warning);
        links.body["warning_says"] = words::messageJson(*answer.warning);
    }
    return links;
}

// A request the table takes as a trace's host line of `kind` (the host's,
// or a player's from their page), answered {"ok", "game", "message", "says"}.
ServiceAnswer TableCore::tableInput(trace::HostKind kind, const json& payload) {
    const auto answer = table_.host(trace::HostLine{kind, payload, {}}, table_.stamp());
    lastActivity_ = clock_.now();
    afterInput();
    if (voiceDue_) speak();
    if (!answer.ok) return refusedBy(answer);
    json out = {{"ok", true}, {"message", answer.message}};
    if (auto game = table_.referee().game()) out["game"] = game->value;
    if (answer.says) out["says"] = words::messageJson(*answer.says);
    return ServiceAnswer::ok(std::move(out));
}

// An undo's body: {} or {"confirm": true}. Without the confirmation, an undo
// that would take back a coronation the table has seen scored is answered
// 409 "needs-confirmation", saying so, and nothing is done. `form` is left
// as the request's form (without "confirm").
std::optional<ServiceAnswer> TableCore::undoNeedsConfirmation(json& form) {
    bool confirmed = false;
    if (form.is_object() && form.contains("confirm")) {
        if (!form["confirm"].is_boolean()) return badRequest("an undo's \"confirm\" is true or false");
        confirmed = form["confirm"].get<bool>();
        form.erase("confirm");
    }
    if (confirmed) return std::nullopt;
    const auto preview = table_.referee().undoPreview();
    if (!preview || preview->unscoresRound == 0) return std::nullopt;
    const auto asks = preview->confirmation();
    auto asked = ServiceAnswer::failed(Outcome::Refused, "needs-confirmation", words::english().say(asks));
    asked.body["says"] = words::messageJson(asks);
    asked.body["undoing"] = words::messageJson(preview->undone);
    asked.body["round"] = preview->unscoresRound;
    return asked;
}

// --- the players' links across a restart (issue 35) -------------------------

void TableCore::notice(const referee::Notice& notice) {
    if (notice.kind == "game-over" || notice.kind == "abandoned") linksOver_ = true;
}

void TableCore::linksNote(const std::string& line) {
    if (onLinksNote_) onLinksNote_(line);
}

void TableCore::linksForGame(store::GameId game, const std::vector<bool>& people) {
    linksOver_ = false;
    tokensUid_.clear();
    if (store_) {
        try {
            if (const auto summary = store_->game(game)) tokensUid_ = summary->uid;
        } catch (const std::exception&) {
            // An unreadable log: the links are named by the game's number only.
        }
    }
    bool adopted = false;
    if (!savedLinksSettled_) {
        const std::string file = linksFile_ ? linksFile_->file().string() : std::string();
        const std::string number = std::to_string(game.value);
        if (savedLinks_ && savedLinks_->game == game.value && savedLinks_->uid == tokensUid_)
            adopted = tokens_.adopt(savedLinks_->tokens, savedLinks_->opened, people);
        if (adopted)
            linksNote("game " + number + ": the players' links kept in " + file + " work again");
        else if (!savedLinksProblem_.empty())
            linksNote("the players' links " + file + " cannot be used (" + savedLinksProblem_ + "): game " +
                      number + "'s players get new links, which the host page shows");
        else if (savedLinks_)
            linksNote("the players' links kept in " + file + " are not game " + number +
                      "'s: its players get new links, which the host page shows");
        savedLinks_.reset();
        savedLinksProblem_.clear();
        savedLinksSettled_ = true;
    }
    if (!adopted) tokens_.issue(people);
    saveLinks();
}

void TableCore::saveLinks() {
    if (!linksFile_ || !tokensFor_ || linksOver_) return;
    const SavedPlayerLinks links{tokensFor_->value, tokensUid_, tokens_.tokens(), tokens_.opened()};
    std::string why;
    if (linksFile_->write(links, why)) {
        linksOnDisk_ = true;
        lastLinksProblem_.clear();
        return;
    }
    // What the file held must not outlive this: a link the host replaced
    // would work again after a restart. Without a file, a restart makes
    // new links.
    std::string removeWhy;
    const bool removed = linksFile_->remove(removeWhy);
    linksOnDisk_ = !removed;
    std::string line = "the players' links of game " + std::to_string(tokensFor_->value) +
                       " cannot be kept in " + linksFile_->file().string() + " (" + why + ")";
    line += removed ? ": after a restart, its players get new links"
                    : "; nor can the file be removed (" + removeWhy +
                          "): remove it before a restart, or links replaced since work again after it";
    if (line != lastLinksProblem_) {
        lastLinksProblem_ = line;
        linksNote(line);
    }
}

void TableCore::dropSavedLinks() {
    if (!linksFile_) return;
    std::string why;
    if (linksFile_->remove(why)) {
        linksOnDisk_ = false;
        return;
    }
    const std::string line = "the players' links " + linksFile_->file().string() + ": " + why +
                             ": remove it, or a finished game's links work again after a restart";
    if (line != lastLinksProblem_) {
        lastLinksProblem_ = line;
        linksNote(line);
    }
}

void TableCore::settleSavedLinks() {
    if (savedLinksSettled_) return;
    savedLinksSettled_ = true;
    if (!linksFile_) return;
    const std::string file = linksFile_->file().string();
    if (savedLinks_)
        linksNote("the players' links of game " + std::to_string(savedLinks_->game) + " kept in " + file +
                  " are dropped: that game is not being resumed");
    else if (!savedLinksProblem_.empty())
        linksNote("the players' links " + file + " cannot be used (" + savedLinksProblem_ +
                  "); no game is resumed, so it is removed");
    const bool existed = savedLinks_.has_value() || !savedLinksProblem_.empty();
    savedLinks_.reset();
    savedLinksProblem_.clear();
    if (existed) dropSavedLinks();
}

// --- the table's language and its voice ----------------------------------------

bool TableCore::setLanguage(const std::string& language) {
    if (!words::findCatalog(language)) return false;
    language_ = language;
    voice_.setLanguage(language);
    return true;
}

void TableCore::setVoice(const voice::VoiceSettings& settings) { voice_.setSettings(settings); }

void TableCore::setSpeaker(drivers::SpeechOut* speaker, std::string kind, std::string problem,
                           std::function<void(const std::string&)> onProblem) {
    voice_.setSpeaker(speaker);
    speakerKind_ = std::move(kind);
    speakerProblem_ = std::move(problem);
    onVoiceProblem_ = std::move(onProblem);
}

json TableCore::voiceJson() const {
    const auto& settings = voice_.settings();
    return json{{"enabled", settings.enabled},
                {"volume", settings.volume},
                {"moments", settings.moments.names()},
                {"speaker", speakerKind_},
                {"problem", speakerProblem_.empty() ? json(nullptr) : json(speakerProblem_)}};
}

void TableCore::logLanguage(store::GameId game) {
    if (!store_) return;
    const auto at = wallAtZero_ + std::chrono::duration_cast<std::chrono::milliseconds>(table_.now());
    // Not saved (a full disk): the game keeps the configuration's language
    // when resumed; nothing else depends on it.
    try {
        (void)store_->appendRefereeEvent(game, "table-language", json{{"language", language_}}.dump(), at);
    } catch (const std::exception&) {
        // The log unreadable: the table speaks the language all the same.
    }
}

// {"language": "fr"}: the shared screens and the voice speak it from now on.
ServiceAnswer TableCore::hostLanguage(const json& body) {
    const auto language = body.find("language");
    if (language == body.end() || !language->is_string() || body.size() != 1)
        return badRequest("a language request names its \"language\" (en, fr, de or it)");
    if (!setLanguage(language->get<std::string>())) {
        std::string shipped;
        for (const auto& l : words::shippedLanguages()) shipped += (shipped.empty() ? "" : ", ") + l;
        return ServiceAnswer::failed(
            Outcome::NotFound, "no-such-language",
            "vivaref has no words in '" + language->get<std::string>() + "': " + shipped);
    }
    // Kept with the game being played (not one already over), so that it
    // resumes and is reviewed in it.
    if (const auto game = table_.referee().game(); game && store_)
        if (const auto summary = store_->game(*game); summary && !summary->ended) logLanguage(*game);
    lastActivity_ = clock_.now();
    afterInput();
    return ServiceAnswer::ok({{"ok", true}, {"language", language_}});
}

// {"enabled": BOOL, "volume": 0..100, "moments": [NAME...]}, each optional.
ServiceAnswer TableCore::hostVoice(const json& body) {
    if (!body.is_object() || body.empty())
        return badRequest("a voice request sets \"enabled\", \"volume\" or \"moments\"");
    auto settings = voice_.settings();
    for (const auto& [key, value] : body.items()) {
        if (key == "enabled") {
            if (!value.is_boolean()) return badRequest("\"enabled\" is true or false");
            settings.enabled = value.get<bool>();
        } else if (key == "volume") {
            if (!value.is_number_integer() || value.get<std::int64_t>() < 0 ||
                value.get<std::int64_t>() > 100)
                return badRequest("\"volume\" is a whole number from 0 to 100");
            settings.volume = value.get<int>();
        } else if (key == "moments") {
            if (!value.is_array())
                return badRequest("\"moments\" is a list of " + voice::VoiceMoments::known());
            auto moments = voice::VoiceMoments::none();
            for (const auto& name : value) {
                const auto moment =
                    name.is_string() ? voice::voiceMomentNamed(name.get<std::string>()) : std::nullopt;
                if (!moment)
                    return badRequest("\"moments\" names only " + voice::VoiceMoments::known() + ", not " +
                                      name.dump());
                moments.set(*moment, true);
            }
            settings.moments = moments;
        } else {
            return badRequest("a voice request sets \"enabled\", \"volume\" and \"moments\" only, not \"" +
                              key + "\"");
        }
    }
    voice_.setSettings(settings);
    afterInput();
    return ServiceAnswer::ok(voiceJson());
}

// The voice has lines to say: rendered after this step (posted), or at the
// end of advance() and of the host's request.
void TableCore::voiceDue() {
    if (!voicePost_) {
        voiceDue_ = true;
        return;
    }
    if (voicePosted_) return;
    voicePosted_ = true;
    voicePost_([this] {
        voicePosted_ = false;
        speak();
    });
}

void TableCore::speak() {
    voiceDue_ = false;
    if (voice_.pending() == 0) return;
    voice_.flush();
    pollVoice();
    changed();  // the pages' "spoken" event
}

// A line the speaker could not say (the sound device gone): the host page
// says why, and the daemon's log once per different reason.
void TableCore::pollVoice() {
    lastVoicePoll_ = clock_.now();
    for (const auto& report : voice_.takeReports()) {
        if (report.fate != drivers::SpeechFate::Failed) {
            if (report.fate == drivers::SpeechFate::Spoken && !speakerProblem_.empty() &&
                speakerKind_ != "none") {
                speakerProblem_.clear();
                dirty_ = true;
            }
            continue;
        }
        if (report.error == speakerProblem_) continue;
        speakerProblem_ = report.error;
        dirty_ = true;
        if (onVoiceProblem_) onVoiceProblem_("the voice: " + report.error);
    }
}

std::optional<trace::TagName> TableCore::tagOf(const json& body, std::string& why) const {
    if (auto c = body.find("character"); c != body.end()) {
        if (!c->is_string() || !isSlug(c->get<std::string>())) {
            why = "\"character\" is a character's slug (\"odessa\")";
            return std::nullopt;
        }
        return trace::TagName{c->get<std::string>()};
    }
    if (auto t = body.find("tag"); t != body.end()) {
        if (!t->is_string() || !isUidText(t->get<std::string>())) {
            why = "\"tag\" is a tag's UID in uppercase hex (8 to 20 digits)";
            return std::nullopt;
        }
        return trace::TagName{t->get<std::string>()};
    }
    why = "name the tag by \"character\" (a slug) or \"tag\" (a UID in hex)";
    return std::nullopt;
}

ServiceAnswer TableCore::sim(std::string_view request, const json& body) {
    if (!hands_)
        return ServiceAnswer::failed(Outcome::Unavailable, "not-simulated",
                                     "the castle is real: no sim routes");
    std::string why;
    if (request == "put" || request == "lift") {
        auto tag = tagOf(body, why);
        if (!tag) return badRequest(why);
        const drivers::TagUid uid = tag->uid();
        if (request == "lift") {
            if (body.size() != 1) return badRequest("a lift names its tag only");
            hands_->lift(uid);
            return ServiceAnswer::ok({{"ok", true}});
        }
        // Over one reader's spot (a place with several: the set-up's "put a tag on floor 1's spot 2").
        if (auto over = body.find("over"); over != body.end()) {
            if (!over->is_string() || body.size() != 2)
                return badRequest(
                    "a put over a spot names its tag and the spot's reader (\"over\": \"floor1-b\")");
            if (!hands_->putOver(uid, drivers::ReaderId{over->get<std::string>()}))
                return ServiceAnswer::failed(Outcome::NotFound, "no-such-reader",
                                             "no reader of this castle is named " + over->get<std::string>());
            return ServiceAnswer::ok({{"ok", true}});
        }
        auto place = body.find("place");
        if (place == body.end() || !place->is_string() || body.size() != 2)
            return badRequest("a put names its tag and its \"place\" (\"3\", \"wc3\", \"dungeon1\")");
        const drivers::PlaceName where{place->get<std::string>()};
        if (!hands_->put(uid, where)) {
            // The same sentence as a trace's put on no place.
            trace::TraceLine line{0, trace::PutLine{std::move(*tag), where}};
            const auto problem = trace::lineProblem(table_.layout(), line);
            return ServiceAnswer::failed(Outcome::NotFound, "no-such-place",
                                         problem.value_or("no such place: " + where.name));
        }
        return ServiceAnswer::ok({{"ok", true}});
    }
    if (request == "press") {
        auto station = body.find("station");
        auto key = body.find("key");
        if (station == body.end() || !station->is_number_integer() || key == body.end() ||
            !key->is_string() || body.size() != 2)
            return badRequest(
                "a press names its \"station\" (the seat, from 0) and its \"key\" (yes, no, stomachache)");
        const auto number = station->get<std::int64_t>();
        if (number < 0 || number >= trace::kMaxStations)
            return badRequest("stations are numbered from 0 to " + std::to_string(trace::kMaxStations - 1));
        const auto voteKey = drivers::voteKeyFromName(key->get<std::string>());
        if (!voteKey) return badRequest("the keys are yes, no and stomachache");
        // Not passed on to the castle: one answer, whether or not (and
        // however) the bot has voted.
        if (const auto* state = table_.referee().state();
            state && number < state->rules().seats() &&
            table_.referee().botAt(engine::Seat{static_cast<std::uint8_t>(number)}))
            return playedByReferee(number, "its keys are not for people", "api.bot-seat-keys");
        hands_->press(drivers::StationId{static_cast<int>(number)}, *voteKey);
        return ServiceAnswer::ok({{"ok", true}});
    }
    return ServiceAnswer::failed(Outcome::NotFound, "no-such-request",
                                 "the simulated castle takes put, lift and press");
}

json TableCore::simState() {
    const Timestamp now = clock_.now();
    json leds = json::object();
    json board = json::object();
    if (hands_) {
        const auto view = hands_->view();
        for (const auto& [led, mode] : view.leds) leds[led.name] = drivers::ledModeName(mode);
        for (const auto& [place, tags] : view.tags) board[place.name] = tags;
    }
    return {{"now", now.count()}, {"leds", std::move(leds)}, {"board", std::move(board)}};
}

std::string TableCore::summaryLine() {
    const auto game = table_.referee().game();
    if (!game) return "no game yet";
    // Cheap: called after every change.
    return "game " + std::to_string(game->value) + (table_.referee().paused() ? " (paused)" : "");
}

}  // namespace vivaref::server
