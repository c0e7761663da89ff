#include "daemon/castle/simulated_castle.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "daemon/config/castle_config.hpp"
#include "drivers/rfid/mfrc522_chip.hpp"
#include "engine/roster.hpp"

namespace vivaref::castle {

namespace {

drivers::FieldScheduler fieldScheduler(const drivers::BoardLayout& layout,
                                       const SimulatedCastleOptions& options) {
    drivers::FieldSchedulerConfig config;
    config.powerUpTime = options.timing.powerUp;
    config.maxFieldsOn = options.maxFieldsOn;
    config.backoff = options.backoff;
    if (options.coupling) return drivers::FieldScheduler(*options.coupling, config);
    config::CastleConfig castle;
    castle.fieldRule = config::FieldRule::AdjacentLevels;
    return drivers::FieldScheduler(castle.fieldCoupling(layout), config);
}

// The simulated tags of every character of both editions, by UID: to show
// the board by character. A custom roster's tags show as their UID.
const std::map<drivers::TagUid, std::string>& simulatedCharacterTags() {
    static const auto tags = [] {
        std::map<drivers::TagUid, std::string> out;
        for (const auto* roster : {&engine::classicRoster(), &engine::roster2024()})
            for (const auto& c : roster->characters()) out.emplace(drivers::simulatedTagUid(c.id), c.id);
        return out;
    }();
    return tags;
}

}  // namespace

SimulatedCastleOptions simulatedCastleOptions(const config::CastleConfig& castle,
                                              const drivers::BoardLayout& layout) {
    SimulatedCastleOptions options;
    options.coupling = castle.fieldCoupling(layout);
    options.maxFieldsOn = castle.maxFieldsOn;
    options.backoff = castle.backoff;
    options.stabilityWindow = castle.sensing.stabilityWindow;
    // A reader's wire: its chip-select line, else its bus, else its name (a sim reader).
    for (drivers::ReaderIndex r = 0; r < layout.readerCount(); ++r) {
        SimulatedReaderWire wire{layout.reader(r).name, "sim"};
        for (const auto& reader : castle.readers) {
            if (reader.name != layout.reader(r).name) continue;
            wire.kind = std::string(config::readerTypeName(reader.type));
            if (reader.chipSelect)
                wire.wire = reader.chipSelect->text();
            else if (!reader.bus.empty())
                wire.wire = reader.bus;
        }
        options.wires.push_back(std::move(wire));
    }
    for (const auto& s : castle.stations) {
        const std::string station = "station." + std::to_string(s.seat);
        if (s.yes) options.lineNames[s.yes->gpio.text()] = station + ".yes";
        if (s.no) options.lineNames[s.no->gpio.text()] = station + ".no";
        if (s.stomachache) options.lineNames[s.stomachache->gpio.text()] = station + ".stomachache";
        if (s.led) options.lineNames[s.led->gpio.text()] = station;
    }
    for (const auto& [place, pin] : castle.placeLeds) options.lineNames[pin.gpio.text()] = "place." + place;
    for (const auto& [seat, pin] : castle.turnLeds)
        options.lineNames[pin.gpio.text()] = "turn." + std::to_string(seat);
    return options;
}

SimulatedCastle::SimulatedCastle(drivers::BoardLayout layout, const drivers::LoopClock& clock,
                                 SimulatedCastleOptions options)
    : clock_(clock),
      options_(std::move(options)),
      board_(std::move(layout), options_.board),
      bench_(wireBench(options_.bench ? *options_.bench : config::SimBench{}, board_.layout(), options_.wires,
                       options_.lineNames)),
      held_(board_.layout().readerCount()),
      fields_(fieldScheduler(board_.layout(), options_)),
      confirmer_(board_.layout().readerCount(), options_.stabilityWindow),
      speech_(clock) {
    // The bench's readers, as the real driver would find them at reset.
    for (drivers::ReaderIndex r = 0; r < bench_.readers.size(); ++r) {
        const BenchReader& reader = bench_.readers[r];
        const std::string wire =
            r < options_.wires.size() ? options_.wires[r].wire : board_.layout().reader(r).name;
        const auto chip = drivers::mfrc522::describeVersion(reader.version);
        if (reader.chips == 0)
            board_.silence(r, drivers::ScanErrorKind::NoAnswer, "simulated: no chip answers on " + wire);
        else if (reader.version == 0x00 || reader.version == 0xFF)
            board_.silence(r, drivers::ScanErrorKind::NoAnswer,
                           "simulated: VersionReg reads " + chip.version + ": no chip on the bus");
        else if (!chip.known)
            board_.silence(
                r, drivers::ScanErrorKind::WrongVersion,
                "simulated: VersionReg reads " + chip.version + ", not an MFRC522 or a known clone");
        else
            board_.wire(r, reader.spots, reader.chips);
    }
}

void SimulatedCastle::start(CastleSink& sink) {
    sink_ = &sink;
    for (const auto& note : bench_.notes) sink_->problem("simulated bench: " + note);
    for (const auto& p : std::exchange(presses_, {})) press(p.station, p.key);
}

std::optional<ReaderChip> SimulatedCastle::chipOf(drivers::ReaderIndex reader) const {
    if (reader >= bench_.readers.size()) return std::nullopt;
    return simulatedChip(bench_.readers[reader],
                         reader < options_.wires.size() ? options_.wires[reader] : SimulatedReaderWire{});
}

bool SimulatedCastle::put(const drivers::TagUid& tag, const drivers::PlaceName& place) {
    return board_.put(tag, place);
}

bool SimulatedCastle::putOver(const drivers::TagUid& tag, const drivers::ReaderId& reader) {
    return board_.putOver(tag, reader);
}

void SimulatedCastle::lift(const drivers::TagUid& tag) { board_.lift(tag); }

void SimulatedCastle::hold(drivers::ReaderIndex reader, std::optional<drivers::ScanResult> result) {
    held_.at(reader) = std::move(result);
}

void SimulatedCastle::press(drivers::StationId station, drivers::VoteKey key) {
    if (bench_.stuckKeys.contains({station, key})) return;  // held down: a press never completes
    // A crossed wire: the press closes the other key's line.
    if (const auto crossed = bench_.crossedKeys.find({station, key}); crossed != bench_.crossedKeys.end())
        std::tie(station, key) = crossed->second;
    if (!sink_) {
        presses_.push_back({station, key});
        return;
    }
    ++counters_.presses;
    sink_->pressed(station, key);
}

void SimulatedCastle::show(const drivers::LedStates& leds, Timestamp /*now*/) {
    leds_ = leds;
    for (const auto& dead : bench_.deadLeds) leds_.erase(dead);  // its line drives nothing
}

CastleOffer* SimulatedCastle::offer(std::string_view name) {
    if (name == HandOffer::kName) return static_cast<HandOffer*>(this);
    if (name == SpeakerOffer::kName) return static_cast<SpeakerOffer*>(this);
    return nullptr;
}

HandOffer::View SimulatedCastle::view() const {
    View out{leds_, {}};
    const auto& layout = board_.layout();
    const auto& known = simulatedCharacterTags();
    for (drivers::PlaceIndex p = 0; p < layout.placeCount(); ++p) {
        const auto& place = layout.place(p);
        std::vector<std::string> tags;
        for (const auto& uid : board_.tagsOn(place)) {
            auto it = known.find(uid);
            tags.push_back(it != known.end() ? it->second : uid.toHex());
        }
        if (!tags.empty()) out.tags.emplace(place, std::move(tags));
    }
    return out;
}

// What the real driver spends on one reader's scan (the table in
// simulated_castle.hpp): tags it already knew are only checked.
ScanCost SimulatedCastle::cost(drivers::ReaderIndex reader, const drivers::ScanResult& result) const {
    const auto& timing = options_.timing;
    if (!result.ok() || result.tags().empty()) return timing.empty;
    const auto& tags = result.tags();
    const auto& last = confirmer_.last(reader);  // the checks need the tags it already knew
    const auto count = static_cast<std::int64_t>(tags.size());
    if (last && *last == tags) {
        if (count == 1) return timing.knownTag;
        return {timing.empty.lasts + count * timing.knownSetTag.lasts,
                timing.empty.bus + count * timing.knownSetTag.bus};
    }
    return {timing.fullTag.lasts + (count - 1) * timing.collidingTag.lasts,
            timing.fullTag.bus + (count - 1) * timing.collidingTag.bus};
}

Microseconds SimulatedCastle::step() {
    // The speaker is never busy: what the table said is "spoken" now.
    speech_.speakAll();
    auto byEnd = [](const Inventory& a, const Inventory& b) { return a.endsAt < b.endsAt; };
    for (std::size_t budget = 4 * board_.layout().readerCount() + 4; budget > 0; --budget) {
        const Microseconds now = clock_.nowMicros();
        // The scan that ends first, once it has ended.
        const auto first = std::min_element(inventories_.begin(), inventories_.end(), byEnd);
        if (first != inventories_.end() && first->endsAt <= now) {
            const Inventory done = std::move(*first);
            inventories_.erase(first);
            ++counters_.scans;
            fields_.scanned(done.reader, done.result.ok(), done.endsAt);
            confirmer_.scanned(done.reader, done.result, done.endsAt, fields_);
            sink_->scanned(done.reader, done.result);
            continue;
        }
        const Microseconds nextEnd = first != inventories_.end() ? first->endsAt : Microseconds::max();
        if (now < busFreeAt_) return std::min(busFreeAt_, nextEnd);
        const drivers::FieldStep step = fields_.next(now);
        if (step.kind == drivers::FieldStep::Kind::Wait) return std::min(step.until, nextEnd);
        if (step.kind == drivers::FieldStep::Kind::FieldOn) continue;
        // The board's generator moves on at every scan, whatever the reader is held to read.
        drivers::ScanResult result = board_.scan(step.reader);
        if (held_[step.reader]) result = *held_[step.reader];
        const ScanCost c = cost(step.reader, result);
        busFreeAt_ = now + c.bus;
        inventories_.push_back(Inventory{step.reader, now + c.lasts, std::move(result)});
    }
    return clock_.nowMicros();
}

}  // namespace vivaref::castle
