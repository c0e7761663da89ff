#include "daemon/referee/host_request.hpp"

#include <type_traits>

#include "daemon/referee/player_names.hpp"
#include "daemon/words/words.hpp"

namespace vivaref::referee {

using nlohmann::json;

namespace {

template <class T>
constexpr const char* nameOf() {
    if constexpr (std::is_same_v<T, NewGameRequest>) return "new-game";
    if constexpr (std::is_same_v<T, DealRequest>) return "deal";
    if constexpr (std::is_same_v<T, KeepRequest>) return "keep";
    if constexpr (std::is_same_v<T, ReshuffleRequest>) return "reshuffle";
    if constexpr (std::is_same_v<T, UndoRequest>) return "undo";
    if constexpr (std::is_same_v<T, PauseRequest>) return "pause";
    if constexpr (std::is_same_v<T, ResumeRequest>) return "resume";
    if constexpr (std::is_same_v<T, AbandonRequest>) return "abandon";
    if constexpr (std::is_same_v<T, RevealRequest>) return "reveal";
    if constexpr (std::is_same_v<T, SeatRequest>) return "seat";
    if constexpr (std::is_same_v<T, VoteRequest>) return "vote";
    if constexpr (std::is_same_v<T, PlanRequest>) return "plan";
    if constexpr (std::is_same_v<T, OrderRequest>) return "order";
}

HostRequestParse readOrder(const json& v) {
    if (!v.is_object()) return HostRequestParse("the order request is not a JSON object");
    for (const auto& [key, value] : v.items())
        if (key != "characters")
            return HostRequestParse("the order request has an unknown key '" + key + "'");
    auto it = v.find("characters");
    if (it == v.end() || !it->is_array() || it->size() < 2 || it->size() > 4)
        return HostRequestParse("the order request's characters are a list of 2 to 4 characters' ids");
    OrderRequest r;
    for (const auto& c : *it) {
        if (!c.is_string() || c.get_ref<const std::string&>().empty())
            return HostRequestParse("an order request's character is not a character's id");
        r.characters.push_back(c.get<std::string>());
    }
    return {HostRequest{std::move(r)}};
}

HostRequestParse failed(std::string why) { return {std::move(why)}; }

HostRequestParse readNewGame(const json& v) {
    if (!v.is_object()) return failed("the new-game request is not a JSON object");
    NewGameRequest r;
    for (const auto& [key, value] : v.items()) {
        if (key == "setup") {
            if (!value.is_object()) return failed("the new-game setup is not a JSON object");
            r.setup = value;
        } else if (key == "players") {
            if (!value.is_array()) return failed("the new-game players are not a list of names");
            for (const auto& name : value) {
                if (!name.is_string()) return failed("a new-game player name is not a string");
                r.players.push_back(name.get<std::string>());
            }
        } else if (key == "favourites") {
            if (value == "dealt")
                r.favourites = FavouritesMode::Dealt;
            else if (value == "physical")
                r.favourites = FavouritesMode::Physical;
            else
                return failed("the new-game favourites are \"dealt\" or \"physical\"");
        } else if (key == "bots") {
            auto bots = readBotSeats(value);
            if (auto* why = std::get_if<std::string>(&bots)) return failed(*why);
            r.bots = std::move(std::get<std::vector<BotSeatRequest>>(bots));
        } else if (key == "members") {
            if (!value.is_array())
                return failed("the new-game members are not a list (a member id or null by player)");
            for (const auto& id : value) {
                if (id.is_null())
                    r.members.emplace_back();
                else if (id.is_number_integer() && id.get<std::int64_t>() > 0)
                    r.members.emplace_back(id.get<std::int64_t>());
                else
                    return failed("a new-game member is not a member id (a positive whole number) or null");
            }
        } else if (key == "teaching") {
            if (!value.is_boolean()) return failed("the new-game teaching is true or false");
            r.teaching = value.get<bool>();
        } else if (key == "seats") {
            auto seats = readSeatSetups(value);
            if (auto* why = std::get_if<std::string>(&seats)) return failed(*why);
            r.seats = std::move(std::get<std::vector<SeatSetup>>(seats));
        } else {
            return failed("the new-game request has an unknown key '" + key +
                          "' (setup, players, favourites, bots, members, teaching, seats)");
        }
    }
    if (r.setup.is_null()) return failed("the new-game request has no setup");
    if (auto why = newPlayerNamesProblem(r.players)) {
        auto text = words::english().say(*why);
        return HostRequestParse(std::move(text), std::move(why));
    }
    return {HostRequest{std::move(r)}};
}

bool seatNumber(const json& value) {
    return value.is_number_integer() && value.get<std::int64_t>() >= 0 && value.get<std::int64_t>() <= 63;
}

HostRequestParse readSeatChange(const json& v) {
    if (!v.is_object()) return failed("the seat request is not a JSON object");
    SeatRequest r;
    bool until = false;
    for (const auto& [key, value] : v.items()) {
        if (key == "seat") {
            if (!seatNumber(value)) return failed("the seat request's seat is not a seat number (from 0)");
            r.seat = value.get<int>();
        } else if (key == "votes") {
            r.votes = value.is_string() ? readVoteSource(value.get<std::string>()) : std::nullopt;
            if (!r.votes) return failed("the seat request's votes are \"station\", \"phone\" or \"either\"");
        } else if (key == "remote") {
            if (!value.is_boolean()) return failed("the seat request's remote is true or false");
            r.remote = value.get<bool>();
        } else if (key == "bot") {
            if (value.is_null())
                r.bot = std::optional<std::string>();
            else if (value.is_string() && !value.get<std::string>().empty() &&
                     value.get<std::string>().size() <= 16)
                r.bot = std::optional<std::string>(value.get<std::string>());
            else
                return failed("the seat request's bot is a strength's name, or null to hand the seat back");
        } else if (key == "until") {
            if (value != "round" && value != "game")
                return failed("the seat request's until is \"round\" or \"game\"");
            r.forRound = value == "round";
            until = true;
        } else {
            return failed("the seat request has an unknown key '" + key +
                          "' (seat, votes, remote, bot, until)");
        }
    }
    if (!v.contains("seat")) return failed("the seat request names no seat");
    if (until && !(r.bot && *r.bot)) return failed("the seat request's until goes with a bot standing in");
    if (!r.votes && !r.remote && !r.bot)
        return failed("the seat request changes nothing (votes, remote or bot)");
    return {HostRequest{r}};
}

HostRequestParse readEmpty(const json& v, const std::string& name, HostRequest request) {
    if (!v.is_object() || !v.empty()) return failed("the " + name + " request takes an empty object {}");
    return {std::move(request)};
}

}  // namespace

std::variant<std::vector<BotSeatRequest>, std::string> readBotSeats(const json& bots) {
    if (!bots.is_array()) return std::string("the new-game bots are not a list");
    std::vector<BotSeatRequest> out;
    for (const auto& b : bots) {
        const std::string which = "the new-game's bot " + std::to_string(out.size() + 1);
        if (!b.is_object()) return which + " is not a JSON object ({\"seat\": 1, \"strength\": \"good\"})";
        BotSeatRequest bot;
        for (const auto& [key, value] : b.items()) {
            if (key == "seat") {
                if (!value.is_number_integer() || value.get<std::int64_t>() < 0 ||
                    value.get<std::int64_t>() > 63)
                    return which + "'s seat is not a seat number (from 0)";
                bot.seat = value.get<int>();
            } else if (key == "strength") {
                if (!value.is_string() || value.get<std::string>().empty() ||
                    value.get<std::string>().size() > 16)
                    return which + "'s strength is not a strength's name";
                bot.strength = value.get<std::string>();
            } else {
                return which + " has an unknown key '" + key + "' (seat, strength)";
            }
        }
        if (!b.contains("seat") || !b.contains("strength")) return which + " needs a seat and a strength";
        out.push_back(std::move(bot));
    }
    return out;
}

std::variant<std::vector<SeatSetup>, std::string> readSeatSetups(const json& seats) {
    if (!seats.is_array()) return std::string("the new-game seats are not a list");
    std::vector<SeatSetup> out;
    for (const auto& s : seats) {
        const std::string which = "the new-game's seat entry " + std::to_string(out.size() + 1);
        if (!s.is_object())
            return which + " is not a JSON object ({\"seat\": 1, \"votes\": \"phone\", \"remote\": true})";
        SeatSetup seat;
        for (const auto& [key, value] : s.items()) {
            if (key == "seat") {
                if (!seatNumber(value)) return which + "'s seat is not a seat number (from 0)";
                seat.seat = value.get<int>();
            } else if (key == "votes") {
                seat.votes = value.is_string() ? readVoteSource(value.get<std::string>()) : std::nullopt;
                if (!seat.votes) return which + "'s votes are \"station\", \"phone\" or \"either\"";
            } else if (key == "remote") {
                if (!value.is_boolean()) return which + "'s remote is true or false";
                seat.remote = value.get<bool>();
            } else {
                return which + " has an unknown key '" + key + "' (seat, votes, remote)";
            }
        }
        if (!s.contains("seat")) return which + " names no seat";
        out.push_back(seat);
    }
    return out;
}

json seatSetupsJson(const std::vector<SeatSetup>& seats) {
    json out = json::array();
    for (const auto& s : seats) {
        json seat{{"seat", s.seat}};
        if (s.votes) seat["votes"] = voteSourceName(*s.votes);
        if (s.remote) seat["remote"] = true;
        out.push_back(std::move(seat));
    }
    return out;
}

const char* voteSourceName(VoteSource source) {
    switch (source) {
        case VoteSource::Station:
            return "station";
        case VoteSource::Phone:
            return "phone";
        case VoteSource::Either:
            break;
    }
    return "either";
}

std::optional<VoteSource> readVoteSource(std::string_view name) {
    for (auto source : {VoteSource::Station, VoteSource::Phone, VoteSource::Either})
        if (name == voteSourceName(source)) return source;
    return std::nullopt;
}

json botSeatsJson(const std::vector<BotSeatRequest>& bots) {
    json out = json::array();
    for (const auto& b : bots) out.push_back(json{{"seat", b.seat}, {"strength", b.strength}});
    return out;
}

const char* favouritesModeName(FavouritesMode mode) {
    return mode == FavouritesMode::Physical ? "physical" : "dealt";
}

std::string hostRequestName(const HostRequest& request) {
    return std::visit([](const auto& r) { return std::string(nameOf<std::decay_t<decltype(r)>>()); },
                      request);
}

HostRequestParse parseHostRequest(const json& host) {
    if (!host.is_object()) return failed("a host request is not a JSON object");
    if (host.size() != 1) return failed("a host request has exactly one key naming it");
    // Not a structured binding over items(): that binds to a temporary proxy.
    const std::string name = host.begin().key();
    const json& value = host.begin().value();
    if (name == "new-game") return readNewGame(value);
    if (name == "seat") return readSeatChange(value);
    if (name == "deal" || name == "keep" || name == "reshuffle" || name == "reveal" || name == "vote" ||
        name == "plan") {
        if (!value.is_object()) return failed("the " + name + " request is not a JSON object");
        if (name == "vote") return {HostRequest{VoteRequest{value}}};
        if (name == "plan") return {HostRequest{PlanRequest{value}}};
        if (name == "deal") return {HostRequest{DealRequest{value}}};
        if (name == "keep") return {HostRequest{KeepRequest{value}}};
        if (name == "reveal") return {HostRequest{RevealRequest{value}}};
        return {HostRequest{ReshuffleRequest{value}}};
    }
    if (name == "undo") return readEmpty(value, name, UndoRequest{});
    if (name == "pause") return readEmpty(value, name, PauseRequest{});
    if (name == "resume") return readEmpty(value, name, ResumeRequest{});
    if (name == "abandon") return readEmpty(value, name, AbandonRequest{});
    if (name == "order") return readOrder(value);
    return failed(
        "unknown host request '" + name +
        "' (new-game, deal, keep, reshuffle, reveal, undo, pause, resume, abandon, seat, vote, plan, order)");
}

json hostRequestJson(const HostRequest& request) {
    return std::visit(
        [](const auto& r) -> json {
            using T = std::decay_t<decltype(r)>;
            json payload = json::object();
            if constexpr (std::is_same_v<T, NewGameRequest>) {
                payload["setup"] = r.setup;
                payload["players"] = r.players;
                if (r.favourites != FavouritesMode::Dealt)
                    payload["favourites"] = favouritesModeName(r.favourites);
                if (!r.bots.empty()) payload["bots"] = botSeatsJson(r.bots);
                if (!r.members.empty()) {
                    json members = json::array();
                    for (const auto& m : r.members) members.push_back(m ? json(*m) : json(nullptr));
                    payload["members"] = std::move(members);
                }
                if (r.teaching) payload["teaching"] = *r.teaching;
                if (!r.seats.empty()) payload["seats"] = seatSetupsJson(r.seats);
            } else if constexpr (std::is_same_v<T, SeatRequest>) {
                payload["seat"] = r.seat;
                if (r.votes) payload["votes"] = voteSourceName(*r.votes);
                if (r.remote) payload["remote"] = *r.remote;
                if (r.bot) payload["bot"] = *r.bot ? json(**r.bot) : json(nullptr);
                if (r.bot && *r.bot) payload["until"] = r.forRound ? "round" : "game";
            } else if constexpr (std::is_same_v<T, VoteRequest>) {
                payload = r.vote;
            } else if constexpr (std::is_same_v<T, PlanRequest>) {
                payload = r.plan;
            } else if constexpr (std::is_same_v<T, RevealRequest>) {
                payload = r.reveal;
            } else if constexpr (std::is_same_v<T, DealRequest>) {
                payload = r.deal;
            } else if constexpr (std::is_same_v<T, KeepRequest>) {
                payload = r.keep;
            } else if constexpr (std::is_same_v<T, ReshuffleRequest>) {
                payload = r.reshuffle;
            } else if constexpr (std::is_same_v<T, OrderRequest>) {
                payload["characters"] = r.characters;
            }
            return json{{nameOf<T>(), std::move(payload)}};
        },
        request);
}

}  // namespace vivaref::referee
