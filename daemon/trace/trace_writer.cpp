#include "daemon/trace/trace_writer.hpp"

#include <algorithm>
#include <array>

namespace vivaref::trace {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// One rank for every key a GAME-RECORD payload holds, chosen so that each
// object comes out in the spec's order: setup (edition ... roster), roster
// entries (id, name, kind), options (ambition, banished), deal (round,
// favourites, banished, ambitions, emissary, placement), the Emissary's
// (favourites, pile, banished), keep (player, ambition), reshuffle (pile).
constexpr std::array<std::string_view, 20> kKeyOrder = {
    "edition", "seats",    "rounds",   "first",     "options",  "variant",    "teams",
    "roster",  "id",       "name",     "kind",      "round",    "favourites", "pile",
    "player",  "ambition", "banished", "ambitions", "emissary", "placement"};

std::size_t rank(const std::string& key) {
    return static_cast<std::size_t>(std::find(kKeyOrder.begin(), kKeyOrder.end(), key) - kKeyOrder.begin());
}

ordered_json uids(const std::vector<drivers::TagUid>& tags) {
    ordered_json list = ordered_json::array();
    for (const auto& t : tags) list.push_back(t.toHex());
    return list;
}

struct InputJson {
    ordered_json operator()(const HostLine& host) const {
        ordered_json request;
        if (host.kind == HostKind::NewGame) {
            request["setup"] = recordOrdered(host.payload);
            request["players"] = host.players;
            if (!host.favourites.empty()) request["favourites"] = host.favourites;
            if (host.bots.is_array()) request["bots"] = host.bots;
            if (host.members.is_array()) request["members"] = host.members;
            if (host.teaching.is_boolean()) request["teaching"] = host.teaching;
            if (host.seats.is_array()) request["seats"] = host.seats;
        } else {
            request = recordOrdered(host.payload);
        }
        ordered_json out;
        out[std::string(hostKindName(host.kind))] = std::move(request);
        return out;
    }
    ordered_json operator()(const ScanLine& scan) const {
        ordered_json out{{"reader", scan.reader.name}, {"tags", uids(scan.tags)}};
        if (scan.once) out["once"] = true;
        return out;
    }
    ordered_json operator()(const ReaderFaultLine& fault) const {
        ordered_json out{{"reader", fault.reader.name}, {"what", fault.what}};
        if (fault.once) out["once"] = true;
        return out;
    }
    ordered_json operator()(const PutLine& put) const {
        return ordered_json{{"tag", put.tag.text}, {"place", put.place.name}};
    }
    ordered_json operator()(const LiftLine& lift) const { return ordered_json{{"tag", lift.tag.text}}; }
    ordered_json operator()(const ButtonLine& button) const {
        return ordered_json{{"station", button.station.number}, {"key", drivers::voteKeyName(button.key)}};
    }
};

}  // namespace

ordered_json recordOrdered(const json& payload) {
    if (payload.is_array()) {
        ordered_json out = ordered_json::array();
        for (const auto& v : payload) out.push_back(recordOrdered(v));
        return out;
    }
    switch (payload.type()) {
        case json::value_t::object:
            break;
        case json::value_t::string:
            return payload.get<std::string>();
        case json::value_t::boolean:
            return payload.get<bool>();
        case json::value_t::number_integer:
            return payload.get<std::int64_t>();
        case json::value_t::number_unsigned:
            return payload.get<std::uint64_t>();
        case json::value_t::number_float:
            return payload.get<double>();
        default:
            return nullptr;
    }
    std::vector<std::string> keys;
    for (const auto& [key, _] : payload.items()) keys.push_back(key);
    // std::map already sorted them; a stable sort by rank keeps that order among the unranked.
    std::stable_sort(keys.begin(), keys.end(),
                     [](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    ordered_json out = ordered_json::object();
    for (const auto& key : keys) out[key] = recordOrdered(payload.at(key));
    return out;
}

ordered_json traceLineJson(const TraceLine& line) {
    ordered_json out;
    out["t"] = line.t;
    out[kInputKeys[line.input.index()]] = std::visit(InputJson{}, line.input);
    return out;
}

std::string writeTraceLine(const TraceLine& line) {
    return traceLineJson(line).dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

std::string writeTrace(const std::vector<TraceLine>& lines) {
    std::string out;
    for (const auto& line : lines) {
        out += writeTraceLine(line);
        out += '\n';
    }
    return out;
}

}  // namespace vivaref::trace
