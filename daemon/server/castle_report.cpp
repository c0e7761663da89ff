#include "daemon/server/castle_report.hpp"

#include <algorithm>
#include <cmath>

namespace vivaref::server {

using nlohmann::json;

CastleWiring castleWiringOf(const config::CastleConfig& castle) {
    CastleWiring wiring;
    for (const auto& reader : castle.readers)
        wiring.readers[reader.name] = {std::string(config::readerTypeName(reader.type)), reader.bus,
                                       reader.chipSelect ? reader.chipSelect->text() : std::string()};
    for (const auto& station : castle.stations) {
        CastleWiring::Station out{station.seat, {}, {}};
        if (station.yes) out.keys[drivers::VoteKey::Yes] = station.yes->gpio.text();
        if (station.no) out.keys[drivers::VoteKey::No] = station.no->gpio.text();
        if (station.stomachache) out.keys[drivers::VoteKey::Stomachache] = station.stomachache->gpio.text();
        if (station.led) out.led = station.led->gpio.text();
        wiring.stations.push_back(std::move(out));
    }
    // A simulated castle's configuration that names no station simulates every seat's.
    wiring.everySeat = castle.stations.empty() && castle.daemon.hardware == config::Hardware::Sim;
    for (const auto& [place, pin] : castle.placeLeds) wiring.placeLeds[place] = pin.gpio.text();
    for (const auto& [seat, pin] : castle.turnLeds) wiring.turnLeds[seat] = pin.gpio.text();
    return wiring;
}

CastleWiring simulatedWiring() {
    CastleWiring wiring;
    wiring.everySeat = true;
    return wiring;
}

namespace {

json healthMsAgo(const std::optional<Timestamp>& at, Timestamp now) {
    if (!at) return nullptr;
    return std::max<std::int64_t>((now - *at).count(), 0);
}

json healthTagJson(const CastleHealth& health, const drivers::TagUid& tag) {
    json out{{"uid", tag.toHex()}};
    if (const auto character = health.characterOf(tag)) out["character"] = character->name;
    return out;
}

json healthChipJson(const std::optional<castle::ReaderChip>& chip) {
    if (!chip) return nullptr;
    return {{"kind", chip->kind}, {"version", chip->version}, {"model", chip->model}, {"clone", chip->clone}};
}

// The reader's state as the page shows it, the gravest first: "silent" (no
// successful scan lately), "failing" (scans failed lately, or the pipeline
// holds it failing or faulty), "cross-reads" (a tag it reads is read by
// another reader too, now), "clone" (its chip answers as a clone), "answers".
std::string healthStateOf(bool answers, bool failing, bool crossReads, bool clone) {
    if (!answers) return "silent";
    if (failing) return "failing";
    if (crossReads) return "cross-reads";
    if (clone) return "clone";
    return "answers";
}

json healthStationsJson(const CastleHealth& health, const CastleWiring& wiring, const castle::Castle* castle,
                        Timestamp now) {
    const auto down =
        castle ? castle->keysDown() : std::vector<std::pair<drivers::StationId, drivers::VoteKey>>{};
    const auto isDown = [&](int seat, drivers::VoteKey key) {
        return std::find(down.begin(), down.end(), std::pair{drivers::StationId{seat}, key}) != down.end();
    };
    const auto pressJson = [&](int seat, drivers::VoteKey key) {
        const auto found = health.presses().find({seat, key});
        if (found == health.presses().end()) return json{{"presses", 0}, {"pressed_ms_ago", nullptr}};
        return json{{"presses", found->second.count},
                    {"pressed_ms_ago", healthMsAgo(found->second.lastAt, now)}};
    };
    json stations = json::array();
    for (const auto& station : wiring.stations) {
        json keys = json::object();
        for (const auto& [key, line] : station.keys) {
            json k = pressJson(station.seat, key);
            k["line"] = line;
            k["down"] = isDown(station.seat, key);
            keys[drivers::voteKeyName(key)] = std::move(k);
        }
        stations.push_back({{"seat", station.seat},
                            {"keys", std::move(keys)},
                            {"led", station.led.empty() ? json(nullptr) : json(station.led)}});
    }
    return stations;
}

}  // namespace

json castleReport(const CastleHealth& health, const table::Table& table, const castle::Castle* castle,
                  const CastleWiring& wiring, Timestamp now) {
    const auto& layout = table.layout();
    const auto& pipeline = table.pipeline();
    // The pairs happening now, for each reader's state.
    std::vector<bool> crossing(layout.readerCount(), false);
    json crossReads = json::array();
    for (const auto& pair : health.crossReads()) {
        const bool happening = health.crossReading(pair, now);
        if (happening) crossing[pair.first] = crossing[pair.second] = true;
        crossReads.push_back({{"readers", {layout.reader(pair.first).name, layout.reader(pair.second).name}},
                              {"places",
                               {layout.place(layout.placeOf(pair.first)).name,
                                layout.place(layout.placeOf(pair.second)).name}},
                              {"same_place", layout.placeOf(pair.first) == layout.placeOf(pair.second)},
                              {"tag", healthTagJson(health, pair.tag)},
                              {"count", pair.count},
                              {"first_ms_ago", healthMsAgo(pair.firstAt, now)},
                              {"last_ms_ago", healthMsAgo(pair.lastAt, now)},
                              {"now", happening}});
    }
    json readers = json::array();
    for (drivers::ReaderIndex r = 0; r < layout.readerCount(); ++r) {
        const auto& counts = health.reader(r);
        const auto& quality = pipeline.quality(r);
        const auto chip = castle ? castle->chipOf(r) : std::nullopt;
        const bool answers = health.answers(r, now);
        const std::int64_t recentFailures = health.recentFailures(r, now);
        json tags = json::array();
        if (answers)
            for (const auto& tag : counts.tags) tags.push_back(healthTagJson(health, tag));
        json unknown = json::array();
        for (const auto& tag : counts.unknown) unknown.push_back(tag.toHex());
        json reader{
            {"name", layout.reader(r).name},
            {"place", layout.place(layout.placeOf(r)).name},
            {"state", healthStateOf(answers, recentFailures > 0 || quality.failing || quality.faulty,
                                    crossing[r], chip && chip->clone)},
            {"answers", answers},
            {"chip", healthChipJson(chip)},
            {"tags", std::move(tags)},
            {"reads_per_second", std::round(health.readsPerSecond(r, now) * 10.0) / 10.0},
            {"scans", counts.scans},
            {"reads", counts.reads},
            {"last_scan_ms_ago", healthMsAgo(counts.lastScanAt, now)},
            {"last_read_ms_ago", healthMsAgo(counts.lastReadAt, now)},
            {"failed",
             {{"count", counts.failed},
              {"recent", recentFailures},
              {"kind",
               counts.lastError ? json(drivers::errorKindName(counts.lastError->kind)) : json(nullptr)},
              {"message", counts.lastError ? json(counts.lastError->message) : json(nullptr)},
              {"ms_ago", healthMsAgo(counts.lastErrorAt, now)}}},
            {"unknown", {{"count", counts.unknownReads}, {"last", std::move(unknown)}}},
            {"garbled", {{"count", counts.garbled}, {"ms_ago", healthMsAgo(counts.lastGarbledAt, now)}}},
            {"pipeline", {{"failing", quality.failing}, {"faulty", quality.faulty}}},
            {"wiring", nullptr},
        };
        if (const auto found = wiring.readers.find(layout.reader(r).name); found != wiring.readers.end())
            reader["wiring"] = {
                {"type", found->second.type},
                {"bus", found->second.bus},
                {"chip_select",
                 found->second.chipSelect.empty() ? json(nullptr) : json(found->second.chipSelect)}};
        readers.push_back(std::move(reader));
    }
    // Presses of keys no configuration names (the simulated castle's every seat).
    json presses = json::array();
    for (const auto& [key, press] : health.presses())
        presses.push_back({{"seat", key.first},
                           {"key", drivers::voteKeyName(key.second)},
                           {"presses", press.count},
                           {"pressed_ms_ago", healthMsAgo(press.lastAt, now)}});
    // The keys that read pressed now, configured or not (a key held, or stuck since start-up).
    json keysDown = json::array();
    if (castle)
        for (const auto& [station, key] : castle->keysDown())
            keysDown.push_back({{"seat", station.number}, {"key", drivers::voteKeyName(key)}});
    json leds{{"places", wiring.placeLeds}, {"turns", json::object()}};
    for (const auto& [seat, line] : wiring.turnLeds) leds["turns"][std::to_string(seat)] = line;
    return {{"now_ms", now.count()},
            {"readers", std::move(readers)},
            {"cross_reads", std::move(crossReads)},
            {"stations", healthStationsJson(health, wiring, castle, now)},
            {"keys_down", std::move(keysDown)},
            {"every_seat", wiring.everySeat},
            {"presses", std::move(presses)},
            {"leds", std::move(leds)},
            {"settings",
             {{"answers_within_ms", health.settings().answersWithin.count()},
              {"rate_over_ms", health.settings().rateOver.count()}}}};
}

}  // namespace vivaref::server
