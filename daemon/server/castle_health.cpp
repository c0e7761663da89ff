#include "daemon/server/castle_health.hpp"

#include <algorithm>
#include <variant>

namespace vivaref::server {

CastleHealth::CastleHealth(const table::Table& table, CastleHealthSettings settings)
    : table_(table), settings_(settings), readers_(table.layout().readerCount()) {
    settings_.rateOver = std::clamp(settings_.rateOver, kSlot, kSlot * static_cast<int>(kSlots - 1));
}

std::optional<drivers::CharacterSlug> CastleHealth::characterOf(const drivers::TagUid& tag) const {
    const auto& registry = table_.pipeline().registry();
    if (const auto index = registry.find(tag)) return registry.character(*index);
    return std::nullopt;
}

void CastleHealth::moveToSlot(ReaderCounts& counts, Timestamp at) {
    const std::int64_t slot = at / kSlot;
    if (slot <= counts.slot) return;
    // The slots between the newest and this one had nothing.
    const std::int64_t fresh = std::min<std::int64_t>(slot - counts.slot, kSlots);
    for (std::int64_t s = slot - fresh + 1; s <= slot; ++s) {
        const auto i = static_cast<std::size_t>(s % static_cast<std::int64_t>(kSlots));
        counts.readSlots[i] = 0;
        counts.failSlots[i] = 0;
    }
    counts.slot = slot;
}

void CastleHealth::rawScan(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at) {
    if (reader >= readers_.size()) return;
    ReaderCounts& counts = readers_[reader];
    moveToSlot(counts, at);
    const auto slot = static_cast<std::size_t>(counts.slot % static_cast<std::int64_t>(kSlots));
    ++counts.scans;
    counts.lastScanAt = at;
    if (!result.ok()) {
        ++counts.failed;
        if (counts.failSlots[slot] < UINT16_MAX) ++counts.failSlots[slot];
        counts.lastError = result.error();
        counts.lastErrorAt = at;
        if (result.error().kind == drivers::ScanErrorKind::Protocol) {
            ++counts.garbled;
            counts.lastGarbledAt = at;
        }
        // What it sees now is unknown: it holds no tag for a cross-read.
        if (!counts.tags.empty()) newTags(reader, {});
        return;
    }
    ++counts.reads;
    if (counts.readSlots[slot] < UINT16_MAX) ++counts.readSlots[slot];
    counts.lastReadAt = at;
    const drivers::TagSet& tags = result.tags();
    if (tags != counts.tags) newTags(reader, tags);
    counts.unknownReads += static_cast<std::int64_t>(counts.unknownNow);
    // A tag another reader's last scan also holds: read by both in one sweep.
    for (const auto& tag : counts.tags) {
        const auto holders = holders_.find(tag);
        if (holders == holders_.end() || holders->second.size() < 2) continue;
        for (const auto other : holders->second)
            if (other != reader) crossRead(reader, other, tag, at);
    }
}

// The reader's tags are now `tags`: who holds what, and which are unknown.
void CastleHealth::newTags(drivers::ReaderIndex reader, const drivers::TagSet& tags) {
    ReaderCounts& counts = readers_[reader];
    for (const auto& gone : counts.tags) {
        if (tags.contains(gone)) continue;
        const auto holders = holders_.find(gone);
        if (holders == holders_.end()) continue;
        std::erase(holders->second, reader);
        if (holders->second.empty()) holders_.erase(holders);
    }
    counts.unknownNow = 0;
    for (const auto& tag : tags) {
        if (!characterOf(tag)) {
            ++counts.unknownNow;
            noteUnknown(counts, tag);
        }
        if (counts.tags.contains(tag)) continue;
        auto& holders = holders_[tag];
        if (std::find(holders.begin(), holders.end(), reader) == holders.end()) holders.push_back(reader);
    }
    counts.tags = tags;
}

void CastleHealth::noteUnknown(ReaderCounts& counts, const drivers::TagUid& tag) {
    std::erase(counts.unknown, tag);
    counts.unknown.insert(counts.unknown.begin(), tag);
    if (counts.unknown.size() > settings_.unknownKept)
        counts.unknown.erase(counts.unknown.begin() + static_cast<std::ptrdiff_t>(settings_.unknownKept),
                             counts.unknown.end());
}

void CastleHealth::crossRead(drivers::ReaderIndex a, drivers::ReaderIndex b, const drivers::TagUid& tag,
                             Timestamp at) {
    const auto first = std::min(a, b), second = std::max(a, b);
    auto found = std::find_if(crossReads_.begin(), crossReads_.end(), [&](const CrossRead& pair) {
        return pair.first == first && pair.second == second && pair.tag == tag;
    });
    if (found == crossReads_.end()) {
        // Full: the pair read together longest ago gives way.
        if (crossReads_.size() >= settings_.crossPairsKept && !crossReads_.empty())
            crossReads_.erase(
                std::min_element(crossReads_.begin(), crossReads_.end(),
                                 [](const CrossRead& x, const CrossRead& y) { return x.lastAt < y.lastAt; }));
        crossReads_.push_back(CrossRead{first, second, tag, 0, at, at});
        found = std::prev(crossReads_.end());
    }
    ++found->count;
    found->lastAt = at;
}

void CastleHealth::inputTaken(const trace::TraceLine& line, std::optional<store::GameId> /*game*/) {
    const auto* button = std::get_if<trace::ButtonLine>(&line.input);
    if (!button) return;
    KeyPress& press = presses_[{button->station.number, button->key}];
    ++press.count;
    press.lastAt = Timestamp(line.t);
}

bool CastleHealth::answers(drivers::ReaderIndex reader, Timestamp now) const {
    const auto& at = readers_[reader].lastReadAt;
    return at && now - *at <= settings_.answersWithin;
}

std::int64_t CastleHealth::slotSum(const ReaderCounts& counts, const std::array<std::uint16_t, kSlots>& slots,
                                   Timestamp now) const {
    const std::int64_t newest = now / kSlot;
    const std::int64_t span = settings_.rateOver / kSlot;
    std::int64_t sum = 0;
    for (std::int64_t s = std::max<std::int64_t>(newest - span + 1, 0); s <= newest; ++s)
        if (s <= counts.slot && counts.slot - s < static_cast<std::int64_t>(kSlots))
            sum += slots[static_cast<std::size_t>(s % static_cast<std::int64_t>(kSlots))];
    return sum;
}

double CastleHealth::readsPerSecond(drivers::ReaderIndex reader, Timestamp now) const {
    const ReaderCounts& counts = readers_[reader];
    // The window: from its oldest slot's start to now (not before time 0).
    const Timestamp from = std::max(Timestamp(0), (now / kSlot - settings_.rateOver / kSlot + 1) * kSlot);
    const double seconds = std::max<double>(static_cast<double>((now - from).count()), 250.0) / 1000.0;
    return static_cast<double>(slotSum(counts, counts.readSlots, now)) / seconds;
}

std::int64_t CastleHealth::recentFailures(drivers::ReaderIndex reader, Timestamp now) const {
    const ReaderCounts& counts = readers_[reader];
    return slotSum(counts, counts.failSlots, now);
}

bool CastleHealth::crossReading(const CrossRead& pair, Timestamp now) const {
    return pair.count >= settings_.crossReadsShown && now - pair.lastAt <= settings_.crossReadHeld;
}

}  // namespace vivaref::server
