#include "drivers/sim/simulated_board.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "drivers/sim/standing_spot.hpp"

namespace vivaref::drivers {

SimulatedBoard::SimulatedBoard(BoardLayout layout, SimulatedBoardConfig config)
    : layout_(std::move(layout)),
      config_(config),
      readerFaults_(layout_.readerCount()),
      wiring_(layout_.readerCount()),
      random_(config.seed) {
    if (layout_.readerCount() == 0) throw std::invalid_argument("simulated board: the layout has no reader");
    if (config_.scanInterval.count() <= 0)
        throw std::invalid_argument("simulated board: scanInterval must be positive");
    readers_.reserve(layout_.readerCount());
    for (ReaderIndex r = 0; r < layout_.readerCount(); ++r) readers_.emplace_back(layout_.reader(r).name);
}

bool SimulatedBoard::put(const TagUid& tag, const PlaceName& place) {
    const auto index = layout_.findPlace(place);
    if (!index) return false;
    std::vector<std::size_t> tagsOver(layout_.readerCount());
    for (const auto& [other, reader] : tagOver_)
        if (other != tag) ++tagsOver[reader];
    tagOver_[tag] = standingSpot(layout_, *index, tagsOver);
    return true;
}

bool SimulatedBoard::putOver(const TagUid& tag, const ReaderId& reader) {
    const auto index = layout_.findReader(reader);
    if (!index) return false;
    tagOver_[tag] = *index;
    return true;
}

void SimulatedBoard::lift(const TagUid& tag) { tagOver_.erase(tag); }

void SimulatedBoard::clear() { tagOver_.clear(); }

std::optional<PlaceName> SimulatedBoard::placeOf(const TagUid& tag) const {
    if (auto it = tagOver_.find(tag); it != tagOver_.end()) return layout_.place(layout_.placeOf(it->second));
    return std::nullopt;
}

std::vector<TagUid> SimulatedBoard::tagsOn(const PlaceName& place) const {
    std::vector<TagUid> tags;
    for (const auto& [tag, reader] : tagOver_) {
        if (layout_.place(layout_.placeOf(reader)) == place) tags.push_back(tag);
    }
    return tags;
}

void SimulatedBoard::silence(ReaderIndex reader, ScanErrorKind kind) {
    readers_[reader].injectFault(
        {kind, "reader " + layout_.reader(reader).name + ": simulated " + errorKindName(kind)});
}

void SimulatedBoard::silence(ReaderIndex reader, ScanErrorKind kind, const std::string& why) {
    readers_[reader].injectFault({kind, "reader " + layout_.reader(reader).name + ": " + why});
}

void SimulatedBoard::wire(ReaderIndex reader, std::vector<ReaderIndex> spots, std::size_t chips) {
    wiring_[reader] = {std::move(spots), chips};
}

void SimulatedBoard::restore(ReaderIndex reader) {
    readers_[reader].clearFault();
    readerFaults_[reader] = {};
}

void SimulatedBoard::setFailureRate(ReaderIndex reader, double probability) {
    readerFaults_[reader].failureRate = probability;
}

void SimulatedBoard::setGarbageRate(ReaderIndex reader, double probability) {
    readerFaults_[reader].garbageRate = probability;
}

void SimulatedBoard::setMissRate(const TagUid& tag, double probability) {
    tagFaults_[tag].missRate = probability;
}

void SimulatedBoard::setCrosstalk(const TagUid& tag, ReaderIndex alsoSeenBy, double probability) {
    tagFaults_[tag].crosstalkReader = alsoSeenBy;
    tagFaults_[tag].crosstalkRate = probability;
}

void SimulatedBoard::clearTagFaults(const TagUid& tag) { tagFaults_.erase(tag); }

bool SimulatedBoard::chance(double probability) {
    if (probability <= 0) return false;
    return std::uniform_real_distribution<double>(0.0, 1.0)(random_) < probability;
}

TagUid SimulatedBoard::mangled(const TagSet& field) {
    // What a collision the chip missed looks like: a real UID with a bit
    // flipped, or, with nothing in the field, four bytes of noise.
    std::uint8_t bytes[TagUid::kMaxSize];
    std::size_t size = 4;
    if (!field.empty()) {
        auto it = field.begin();
        std::advance(it, random_() % field.size());
        size = it->size();
        std::copy(it->bytes().begin(), it->bytes().end(), bytes);
        bytes[random_() % size] ^= static_cast<std::uint8_t>(1u << (random_() % 8));
    } else {
        for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::uint8_t>(random_());
    }
    return TagUid(std::span<const std::uint8_t>(bytes, size));
}

ScanResult SimulatedBoard::scan(ReaderIndex reader) {
    const ReaderWiring& wiring = wiring_[reader];
    auto covers = [&](ReaderIndex spot) {
        if (!wiring.spots) return spot == reader;
        return std::find(wiring.spots->begin(), wiring.spots->end(), spot) != wiring.spots->end();
    };
    TagSet field;
    for (const auto& [tag, over] : tagOver_) {
        if (!covers(over)) continue;
        auto faults = tagFaults_.find(tag);
        if (faults != tagFaults_.end() && chance(faults->second.missRate)) continue;
        field.insert(tag);
    }
    for (const auto& [tag, faults] : tagFaults_) {
        if (faults.crosstalkReader == reader && tagOver_.contains(tag) && chance(faults.crosstalkRate)) {
            field.insert(tag);
        }
    }
    if (neighbourCrosstalk_ > 0) {
        for (const auto& [tag, over] : tagOver_) {
            const bool neighbour = over + 1 == reader || reader + 1 == over;
            if (neighbour && chance(neighbourCrosstalk_)) field.insert(tag);
        }
    }
    if (wiring.chips > 1 && !field.empty()) {
        // Two chips drive the bus at once: their answers mix. One scan in four
        // fails outright (more would back the reader off for good).
        if (chance(0.25)) {
            return ScanError{ScanErrorKind::Protocol, "reader " + layout_.reader(reader).name +
                                                          ": simulated: two chips answer on its line"};
        }
        field.insert(mangled(field));
    }
    const ReaderFaults& faults = readerFaults_[reader];
    if (chance(faults.garbageRate)) field.insert(mangled(field));
    if (chance(faults.failureRate)) {
        return ScanError{ScanErrorKind::Protocol,
                         "reader " + layout_.reader(reader).name + ": simulated intermittent failure"};
    }
    SimulatedTagReader& device = readers_[reader];
    device.setField(std::move(field));
    // The real contract: field on, one inventory, field off.
    device.antennaOn();
    ScanResult result = device.scan();
    device.antennaOff();
    return result;
}

std::vector<SimulatedScan> SimulatedBoard::advanceTo(Timestamp now) {
    std::vector<SimulatedScan> scans;
    while (nextScanAt_ <= now) {
        scans.push_back({nextReader_, scan(nextReader_), nextScanAt_});
        nextReader_ = (nextReader_ + 1) % readers_.size();
        nextScanAt_ += config_.scanInterval;
    }
    return scans;
}

}  // namespace vivaref::drivers
