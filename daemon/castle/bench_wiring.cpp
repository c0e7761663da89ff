#include "daemon/castle/bench_wiring.hpp"

#include <algorithm>
#include <optional>

#include "drivers/leds/led_names.hpp"
#include "drivers/rfid/mfrc522_chip.hpp"

namespace vivaref::castle {
namespace {

// One chip of the physical castle: its wire, and the spot its antenna is
// under (none: a spot this castle does not have).
struct BenchChip {
    std::string wire;
    std::optional<drivers::ReaderIndex> spot;
};

std::string benchWhere(const config::SimBench& bench, int line) {
    return (bench.file.empty() ? std::string("bench") : bench.file.string()) + ":" + std::to_string(line);
}

std::optional<drivers::ReaderIndex> benchSpotNamed(const drivers::BoardLayout& layout,
                                                   const std::string& name) {
    if (auto reader = layout.findReader(drivers::ReaderId{name})) return reader;
    if (auto place = layout.findPlace(drivers::PlaceName{name}); place && !layout.readersOf(*place).empty())
        return layout.readersOf(*place).front();
    return std::nullopt;
}

std::optional<std::pair<drivers::StationId, drivers::VoteKey>> benchKey(const std::string& name) {
    // "station.S.KEY", checked by the parser.
    if (!name.starts_with("station.") || name.size() < 11) return std::nullopt;
    const drivers::StationId station{name[8] - '0'};
    const std::string key = name.substr(10);
    if (key == "yes") return std::pair{station, drivers::VoteKey::Yes};
    if (key == "no") return std::pair{station, drivers::VoteKey::No};
    if (key == "stomachache") return std::pair{station, drivers::VoteKey::Stomachache};
    return std::nullopt;
}

std::optional<drivers::LedId> benchLed(const std::string& name) {
    if (name.starts_with("place.")) return drivers::placeLed(drivers::PlaceName{name.substr(6)});
    if (name.starts_with("turn.") && name.size() == 6)
        return drivers::turnLed(drivers::StationId{name[5] - '0'});
    if (name.starts_with("station.") && name.size() == 9)
        return drivers::stationLed(drivers::StationId{name[8] - '0'});
    return std::nullopt;
}

// A GPIO line's bench name from the configuration, else the name as given.
const std::string& benchNameByLine(const std::map<std::string, std::string>& lineNames,
                                   const std::string& name) {
    auto it = lineNames.find(name);
    return it == lineNames.end() ? name : it->second;
}

}  // namespace

BenchWiring wireBench(const config::SimBench& bench, const drivers::BoardLayout& layout,
                      const std::vector<SimulatedReaderWire>& wires,
                      const std::map<std::string, std::string>& lineNames) {
    const std::size_t count = layout.readerCount();
    auto wireOf = [&](drivers::ReaderIndex r) {
        return r < wires.size() ? wires[r].wire : layout.reader(r).name;
    };
    // The wires the bench gives chips to (or none), and the spots it claims.
    std::set<std::string> stated;
    std::set<drivers::ReaderIndex> claimed;
    std::vector<BenchChip> chips;
    BenchWiring out;
    for (const auto& c : bench.chips) {
        stated.insert(c.wire);
        const auto spot = benchSpotNamed(layout, c.under);
        if (!spot)
            out.notes.push_back(benchWhere(bench, c.line) + ": chip " + c.wire + " under " + c.under +
                                ": no such place or reader in this castle (the chip reads nothing)");
        else
            claimed.insert(*spot);
        chips.push_back({c.wire, spot});
    }
    for (const auto& n : bench.noChips) stated.insert(n.name);
    // The configured readers' own chips, where the bench says nothing else.
    for (drivers::ReaderIndex r = 0; r < count; ++r)
        if (!stated.contains(wireOf(r)) && !claimed.contains(r)) chips.push_back({wireOf(r), r});

    std::map<std::string, std::uint8_t> versions;
    for (const auto& v : bench.versions) versions[v.wire] = v.value;
    auto spotsOn = [&](const std::string& wire) {
        std::vector<drivers::ReaderIndex> spots;
        for (const auto& c : chips)
            if (c.wire == wire && c.spot) spots.push_back(*c.spot);
        return spots;
    };

    out.readers.resize(count);
    for (drivers::ReaderIndex r = 0; r < count; ++r) {
        const std::string wire = wireOf(r);
        BenchReader& reader = out.readers[r];
        reader.chips = static_cast<std::size_t>(
            std::count_if(chips.begin(), chips.end(), [&](const BenchChip& c) { return c.wire == wire; }));
        reader.spots = spotsOn(wire);
        for (const auto& couple : bench.couples) {
            const std::string* other = couple.a == wire ? &couple.b : couple.b == wire ? &couple.a : nullptr;
            if (!other) continue;
            for (auto spot : spotsOn(*other)) reader.spots.push_back(spot);
        }
        std::sort(reader.spots.begin(), reader.spots.end());
        reader.spots.erase(std::unique(reader.spots.begin(), reader.spots.end()), reader.spots.end());
        if (auto it = versions.find(wire); it != versions.end()) reader.version = it->second;
    }

    for (const auto& s : bench.stuckKeys) {
        if (auto key = benchKey(benchNameByLine(lineNames, s.name)))
            out.stuckKeys.insert(*key);
        else
            out.notes.push_back(benchWhere(bench, s.line) + ": stuck " + s.name +
                                ": no vote key of this castle is on that line");
    }
    for (const auto& c : bench.crossedKeys) {
        const auto a = benchKey(benchNameByLine(lineNames, c.a));
        const auto b = benchKey(benchNameByLine(lineNames, c.b));
        if (a && b) {
            out.crossedKeys[*a] = *b;
            out.crossedKeys[*b] = *a;
        } else {
            out.notes.push_back(benchWhere(bench, c.line) + ": crossed " + c.a + " " + c.b +
                                ": no vote key of this castle is on " + (a ? c.b : c.a));
        }
    }
    for (const auto& d : bench.deadLeds) {
        if (auto led = benchLed(benchNameByLine(lineNames, d.name)))
            out.deadLeds.insert(*led);
        else
            out.notes.push_back(benchWhere(bench, d.line) + ": dead-led " + d.name +
                                ": no LED of this castle is on that line");
    }
    return out;
}

std::optional<ReaderChip> simulatedChip(const BenchReader& reader, const SimulatedReaderWire& wire) {
    if (reader.chips == 0) return std::nullopt;
    if (wire.kind == "pn532") return ReaderChip{"pn532", "1.6", "PN532 v1.6", false};
    const auto chip = drivers::mfrc522::describeVersion(reader.version);
    if (reader.version == 0x00 || reader.version == 0xFF) return std::nullopt;
    return ReaderChip{wire.kind == "mfrc522" ? "mfrc522" : "sim", chip.version, chip.model, chip.clone};
}

}  // namespace vivaref::castle
