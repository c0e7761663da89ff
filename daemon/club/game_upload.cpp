#include "daemon/club/game_upload.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vivaref::club {

namespace {

// The seats the referee played itself: its "bots" event, {"seats": [{"seat": 1, ...}]}.
std::vector<bool> botSeats(const std::vector<store::StoredEvent>& events, int seats) {
    std::vector<bool> bot(static_cast<std::size_t>(seats), false);
    for (const auto& e : events) {
        if (e.kind != "bots") continue;
        const auto payload = nlohmann::json::parse(e.payload, nullptr, false);
        if (!payload.is_object() || !payload.contains("seats") || !payload["seats"].is_array()) continue;
        for (const auto& s : payload["seats"]) {
            if (!s.is_object() || !s.contains("seat") || !s["seat"].is_number_integer()) continue;
            const auto seat = s["seat"].get<std::int64_t>();
            if (seat >= 0 && seat < seats) bot[static_cast<std::size_t>(seat)] = true;
        }
    }
    return bot;
}

}  // namespace

GameUpload uploadOf(store::GameStore& log, store::GameId id, std::string_view table) {
    const auto summary = log.game(id);
    if (!summary)
        throw store::StoreError(log.file(),
                                "holds no game " + std::to_string(id.value) + "; 'vivaref games' lists them");
    if (!summary->ended)
        throw store::StoreError(log.file(),
                                "holds game " + std::to_string(id.value) +
                                    " still in progress: nothing of it leaves the table before it ends");
    GameUpload up;
    up.uid = summary->uid;
    up.table = std::string(table);
    up.localId = id.value;
    up.startedMs = summary->started.time_since_epoch().count();
    up.endedMs = summary->ended->time_since_epoch().count();
    up.edition = summary->edition;
    up.complete = summary->complete;
    up.abandoned = summary->abandoned;
    const auto gameEvents = log.events(id);  // one read for the record and the bots
    up.record = store::GameStore::recordText(gameEvents);
    const nlohmann::json* result = nullptr;
    if (!summary->abandoned && summary->result && summary->result->is_object()) {
        result = &*summary->result;
        up.result = summary->result->dump();
    }
    int seats = 0;
    for (const auto& p : summary->players) seats = std::max(seats, p.seat + 1);
    const auto bots = botSeats(gameEvents, seats);
    for (const auto& p : summary->players) {
        SeatUpload seat;
        seat.seat = p.seat;
        seat.player = p.player;
        seat.name = p.name;
        seat.bot = p.seat >= 0 && static_cast<std::size_t>(p.seat) < bots.size() &&
                   bots[static_cast<std::size_t>(p.seat)];
        if (!seat.bot) seat.member = p.member;
        if (result) {
            const auto& totals = result->value("totals", nlohmann::json::array());
            if (totals.is_array() && static_cast<std::size_t>(p.player) < totals.size() &&
                totals[static_cast<std::size_t>(p.player)].is_number_integer())
                seat.score = totals[static_cast<std::size_t>(p.player)].get<int>();
            const auto& winners = result->value("winners", nlohmann::json::array());
            if (winners.is_array())
                for (const auto& w : winners)
                    if (w.is_number_integer() && w.get<int>() == p.player) seat.winner = true;
        }
        up.seats.push_back(std::move(seat));
    }
    return up;
}

}  // namespace vivaref::club
