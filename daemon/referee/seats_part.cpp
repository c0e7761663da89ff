// How each seat plays: its votes, from afar, a bot standing in.
#include "daemon/referee/seats_part.hpp"

#include "daemon/referee/bot_strength.hpp"
#include "engine/record/line_reader.hpp"
#include "engine/record/line_writer.hpp"

namespace vivaref::referee {

using nlohmann::json;
namespace say = engine::say;

SeatPlay SeatsPart::defaultPlay(int seat) const {
    SeatPlay play;
    const auto& stations = ctx_.options.stationSeats;
    play.votes = !stations || stations->count(seat) ? VoteSource::Station : VoteSource::Phone;
    return play;
}

std::optional<HostAnswer> SeatsPart::check(const std::vector<SeatSetup>& setups,
                                           const engine::Rules& rules) const {
    std::vector<bool> named(static_cast<std::size_t>(rules.seats()), false);
    for (const auto& s : setups) {
        if (s.seat < 0 || s.seat >= rules.seats())
            return HostAnswer::refused(
                "bad-seats", engine::Message("host.seat-no-such", {{"seat", say::number(s.seat + 1)},
                                                                   {"seats", say::number(rules.seats())}}));
        if (named[static_cast<std::size_t>(s.seat)])
            return HostAnswer::refused(
                "bad-seats", engine::Message("host.seat-twice", {{"seat", say::number(s.seat + 1)}}));
        named[static_cast<std::size_t>(s.seat)] = true;
        // Played from afar, the seat has no keys at the table to vote with.
        if (s.remote && s.votes == VoteSource::Station)
            return HostAnswer::refused("bad-seats", engine::Message("host.seat-remote-station",
                                                                    {{"seat", say::number(s.seat + 1)}}));
    }
    return std::nullopt;
}

void SeatsPart::startGame(const std::vector<SeatSetup>& setups) {
    plannedFor_.reset();
    ctx_.game.plan.reset();
    const int seats = ctx_.game.state ? ctx_.game.state->rules().seats() : 0;
    std::vector<SeatPlay> table;
    for (int s = 0; s < seats; ++s) table.push_back(defaultPlay(s));
    for (const auto& s : setups) {
        if (s.seat < 0 || s.seat >= seats) continue;
        auto& play = table[static_cast<std::size_t>(s.seat)];
        if (s.votes) play.votes = *s.votes;
        play.remote = s.remote;
        if (s.remote) play.votes = VoteSource::Phone;
    }
    ctx_.game.seats = std::move(table);
    // The game has just started on disk: what it could not log, the next
    // change logs (the seats as they are).
    ctx_.refereeEvent("seats", tableJson(ctx_.game.seats));
}

void SeatsPart::resumeGame(const json& logged) {
    plannedFor_.reset();
    ctx_.game.plan.reset();
    const int seats = ctx_.game.state ? ctx_.game.state->rules().seats() : 0;
    std::vector<SeatPlay> table;
    for (int s = 0; s < seats; ++s) table.push_back(defaultPlay(s));
    if (logged.is_object() && logged.contains("seats") && logged["seats"].is_array()) {
        for (const auto& entry : logged["seats"]) {
            if (!entry.is_object() || !entry.contains("seat") || !entry["seat"].is_number_integer()) continue;
            const int s = entry["seat"].get<int>();
            if (s < 0 || s >= seats) continue;
            auto& play = table[static_cast<std::size_t>(s)];
            if (auto votes = readVoteSource(entry.value("votes", ""))) play.votes = *votes;
            play.remote = entry.value("remote", false);
            play.standIn = entry.value("stand_in", "");
            play.standInRound = entry.value("stand_in_round", 0);
        }
    }
    ctx_.game.seats = std::move(table);
}

void SeatsPart::restorePlan(const json& plan) {
    // The move chosen from afar that the table had not made yet, if it is
    // still this position's (the log put it after the last decision).
    if (!plan.is_object() || !ctx_.game.state) return;
    const auto read = record::readLine(plan.dump(), &ctx_.game.state->rules());
    if (!read.line || !std::holds_alternative<engine::Action>(*read.line)) return;
    const auto& action = std::get<engine::Action>(*read.line);
    engine::State copy = *ctx_.game.state;
    if (!ctx_.game.moving() || ctx_.game.state->seatToAct() != action.seat() ||
        !ctx_.game.remoteAt(action.seat()) || copy.apply(action))
        return;
    ctx_.game.plan = action;
    ctx_.game.planFromAfar = true;
    plannedFor_ = *ctx_.game.state;
}

json SeatsPart::tableJson(const std::vector<SeatPlay>& seats) const {
    json out = json::array();
    for (std::size_t s = 0; s < seats.size(); ++s) {
        const auto& play = seats[s];
        json entry{{"seat", s}, {"votes", voteSourceName(play.votes)}, {"remote", play.remote}};
        if (!play.standIn.empty()) {
            entry["stand_in"] = play.standIn;
            entry["stand_in_round"] = play.standInRound;
        }
        out.push_back(std::move(entry));
    }
    return json{{"seats", std::move(out)}};
}

bool SeatsPart::commit(std::vector<SeatPlay> seats) {
    if (!ctx_.refereeEvent("seats", tableJson(seats))) return false;
    ctx_.game.seats = std::move(seats);
    return true;
}

json SeatsPart::seatJson(engine::Seat seat) const {
    const auto* play = ctx_.game.seat(seat);
    if (!play) return nullptr;
    return json{{"seat", seat.index},
                {"votes_by", voteSourceName(play->votesBy())},
                {"remote", play->remote},
                {"bot", play->bot.empty() ? json(nullptr) : json(play->bot)},
                {"stand_in", play->standIn.empty() ? json(nullptr) : json(play->standIn)},
                {"stand_in_until", play->standIn.empty() ? json(nullptr)
                                   : play->standInRound  ? json("round")
                                                         : json("game")}};
}

json SeatsPart::statusJson() const {
    nlohmann::json out = nlohmann::json::array();
    for (std::size_t s = 0; s < ctx_.game.seats.size(); ++s)
        out.push_back(seatJson(engine::Seat{static_cast<std::uint8_t>(s)}));
    return out;
}

HostAnswer SeatsPart::change(const SeatRequest& r, bool physicalCards) {
    auto& game = ctx_.game;
    if (!game.state || (game.status != GameStatus::Playing && game.status != GameStatus::Paused))
        return HostAnswer::refused("no-game", engine::Message("host.no-game"), game.id);
    const int seats = game.state->rules().seats();
    const auto seatWords = [&] { return say::number(r.seat + 1); };
    if (r.seat < 0 || r.seat >= seats)
        return HostAnswer::refused(
            "no-such-seat",
            engine::Message("host.seat-no-such", {{"seat", seatWords()}, {"seats", say::number(seats)}}),
            game.id);
    const engine::Seat seat{static_cast<std::uint8_t>(r.seat)};
    auto table = game.seats;
    auto& play = table[seat.index];
    if (!play.bot.empty())
        return HostAnswer::refused(
            "bot-seat", engine::Message("host.seat-bot-from-start", {{"seat", seatWords()}}), game.id);
    if (!r.votes && !r.remote && !r.bot)
        return HostAnswer::refused("bad-seat", engine::Message("host.seat-nothing"), game.id);
    engine::Message says("answer.seat-changed", {{"seat", ctx_.seatWords(seat)}});
    engine::Message told = says;
    if (r.remote) {
        play.remote = *r.remote;
        says = told = engine::Message(play.remote ? "notice.seat-remote" : "notice.seat-at-table",
                                      {{"seat", ctx_.seatWords(seat)}});
    }
    if (r.votes) {
        if (play.remote && *r.votes == VoteSource::Station)
            return HostAnswer::refused(
                "bad-seat", engine::Message("host.seat-remote-station", {{"seat", seatWords()}}), game.id);
        play.votes = *r.votes;
    } else if (r.remote && *r.remote) {
        play.votes = VoteSource::Phone;
    }
    if (r.bot) {
        if (*r.bot) {
            if (!botStrength(**r.bot))
                return HostAnswer::refused(
                    "bad-bots",
                    engine::Message("host.bot-strength", {{"strengths", say::text(botStrengthNames())},
                                                          {"given", say::text(**r.bot)}}),
                    game.id);
            // A bot cannot see the table's own cards.
            if (physicalCards)
                return HostAnswer::refused("bad-bots", engine::Message("host.bots-with-physical-cards"),
                                           game.id);
            play.standIn = **r.bot;
            play.standInRound = r.forRound ? game.state->round() : 0;
            says = told = engine::Message(r.forRound ? "notice.seat-stand-in-round" : "notice.seat-stand-in",
                                          {{"seat", ctx_.seatWords(seat)}});
        } else {
            if (play.standIn.empty())
                return HostAnswer::refused("no-stand-in",
                                           engine::Message("host.seat-no-stand-in", {{"seat", seatWords()}}),
                                           game.id);
            play.standIn.clear();
            play.standInRound = 0;
            says = told = engine::Message("notice.seat-back", {{"seat", ctx_.seatWords(seat)}});
        }
    }
    if (table == game.seats) return HostAnswer::accepted(game.id, says);
    if (!commit(std::move(table)))
        return HostAnswer::refused("log-unwritable", engine::Message("host.log-cannot-save"), game.id);
    // A move chosen from afar for this seat is no longer theirs to make.
    if (game.plan && game.planFromAfar && game.plan->seat() == seat && !game.remoteAt(seat)) {
        game.plan.reset();
        plannedFor_.reset();
    }
    ctx_.notice("seat-changed", told, seatJson(seat));
    return HostAnswer::accepted(game.id, says);
}

HostAnswer SeatsPart::plan(const PlanRequest& r, std::size_t step) {
    auto& game = ctx_.game;
    json line = r.plan;
    const json offered = line.is_object() && line.contains("step") ? line["step"] : json(nullptr);
    if (line.is_object()) line.erase("step");
    if (!offered.is_number_unsigned() || offered.get<std::uint64_t>() != step)
        return HostAnswer::refused("stale", engine::Message("plan.stale"), game.id);
    const auto read = record::readLine(line.dump(), &game.state->rules());
    if (!read.line || !std::holds_alternative<engine::Action>(*read.line) ||
        (std::get<engine::Action>(*read.line).kind() != engine::ActionKind::Place &&
         std::get<engine::Action>(*read.line).kind() != engine::ActionKind::Move))
        return HostAnswer::refused("bad-plan", engine::Message("plan.not-a-move"), game.id);
    const auto& action = std::get<engine::Action>(*read.line);
    const auto seat = action.seat();
    if (!game.remoteAt(seat))
        return HostAnswer::refused("not-remote", engine::Message("plan.not-remote"), game.id);
    if (!game.moving() || game.state->seatToAct() != seat)
        return HostAnswer::refused("not-your-turn", engine::Message("plan.not-your-turn"), game.id);
    engine::State copy = *game.state;
    if (auto refusal = copy.apply(action))
        return HostAnswer::refused(std::string(engine::refusalCodeName(refusal->code)), refusal->message,
                                   game.id);
    // Logged, so that a daemon restarted before the table made it shows it again.
    if (!ctx_.refereeEvent("plan", json::parse(record::writeAction(action, game.state->rules()))))
        return HostAnswer::refused("log-unwritable", engine::Message("host.log-cannot-save"), game.id);
    game.plan = action;
    game.planFromAfar = true;
    plannedFor_ = *game.state;
    ctx_.notice("remote-plan", ctx_.planCall(), ctx_.planJson());
    return HostAnswer::accepted(
        game.id, engine::Message("answer.plan-shown", {{"plan", say::message(ctx_.planMessage())}}));
}

void SeatsPart::review() {
    auto& game = ctx_.game;
    if (game.plan && game.planFromAfar &&
        (!plannedFor_ || !game.state || *plannedFor_ != *game.state || !game.remoteAt(game.plan->seat()))) {
        game.plan.reset();
        game.planFromAfar = false;
        plannedFor_.reset();
    }
    if (!game.state || !game.playing()) return;
    // A bot that stood in for a round that is over hands the seat back.
    const int finished = static_cast<int>(game.state->finishedRounds().size());
    std::vector<engine::Seat> back;
    auto table = game.seats;
    for (std::size_t s = 0; s < table.size(); ++s) {
        auto& play = table[s];
        if (play.standIn.empty() || play.standInRound == 0 ||
            (finished < play.standInRound && !game.state->isOver()))
            continue;
        play.standIn.clear();
        play.standInRound = 0;
        back.push_back(engine::Seat{static_cast<std::uint8_t>(s)});
    }
    // Not saved: tried again at the next review.
    if (back.empty() || !commit(std::move(table))) return;
    for (auto seat : back)
        ctx_.notice("seat-changed", engine::Message("notice.seat-back", {{"seat", ctx_.seatWords(seat)}}),
                    seatJson(seat));
}

}  // namespace vivaref::referee
