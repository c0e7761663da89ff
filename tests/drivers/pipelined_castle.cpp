#include "tests/drivers/pipelined_castle.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>

#include "drivers/sensing/interleaved_scans.hpp"
#include "tests/drivers/random_uid.hpp"

namespace vivaref::drivers::emulation {
namespace {

struct CastleReader {
    const char* name;
    int level;  // dungeons under floor 0, the WCs beside floors 3 and 4, the throne over floor 5
};

// The readers of daemon/config/examples/castle-2024.ini, in its order.
constexpr CastleReader kCastle[] = {
    {"floor0-a", 0}, {"floor0-b", 0},  {"floor0-c", 0},  {"floor1-a", 1},  {"floor1-b", 1}, {"floor1-c", 1},
    {"floor1-d", 1}, {"floor2-a", 2},  {"floor2-b", 2},  {"floor2-c", 2},  {"floor2-d", 2}, {"floor3-a", 3},
    {"floor3-b", 3}, {"floor3-c", 3},  {"floor3-d", 3},  {"floor4-a", 4},  {"floor4-b", 4}, {"floor4-c", 4},
    {"floor4-d", 4}, {"floor5-a", 5},  {"floor5-b", 5},  {"floor5-c", 5},  {"throne", 6},   {"wc3", 3},
    {"wc4", 4},      {"dungeon1", -1}, {"dungeon2", -1}, {"dungeon3", -1},
};
constexpr std::size_t kReaders = std::size(kCastle);

FieldCoupling castleCoupling(CastleFields fields) {
    if (fields == CastleFields::OneAtATime) return FieldCoupling::oneAtATime(kReaders);
    std::vector<std::optional<int>> levels;
    for (const auto& r : kCastle) levels.emplace_back(r.level);
    return couplingByLevel(levels, fields == CastleFields::AdjacentLevels
                                       ? LevelCoupling::AdjacentLevels
                                       : LevelCoupling::SameOrAdjacentLevels);
}

}  // namespace

const char* castleFieldsName(CastleFields fields) {
    switch (fields) {
        case CastleFields::OneAtATime:
            return "one-at-a-time";
        case CastleFields::AdjacentLevels:
            return "adjacent-levels";
        case CastleFields::SameOrAdjacentLevels:
            return "same-or-adjacent-levels";
    }
    return "?";
}

PipelinedCastleFigures runPipelinedCastle(const PipelinedCastleOptions& o) {
    PipelinedCastleFigures f;
    std::mt19937_64 rng(o.seed);
    std::vector<std::unique_ptr<EmulatedReader>> readers;
    std::int64_t now = 0;
    for (const auto& r : kCastle) {
        Mfrc522ReaderConfig config = o.reader;
        config.name = r.name;
        readers.push_back(std::make_unique<EmulatedReader>(o.bus, config));
        readers.back()->chip.idleUntil(now);
        if (readers.back()->reader.initialize()) return f;
        now = readers.back()->chip.nowNs();
    }
    std::vector<std::size_t> spots(kReaders);
    std::iota(spots.begin(), spots.end(), 0);
    std::shuffle(spots.begin(), spots.end(), rng);
    for (int t = 0; t < o.tags; ++t) {
        const std::size_t at = o.onePerReader ? spots[static_cast<std::size_t>(t)] : rng() % kReaders;
        readers[at]->chip.field().add(
            EmulatedTag(makersUid(rng, o.uidSizes[static_cast<std::size_t>(t) % o.uidSizes.size()])));
    }

    // Scans under way (interleaved), each stopped at a radio wait.
    InterleavedScans underWay;
    // A hand moves a tag from one reader to another (an empty one when each
    // holds one at most); not in the middle of a scan, whose result could
    // then be either field.
    auto moveOne = [&] {
        std::vector<std::size_t> holding, empty;
        for (std::size_t r = 0; r < kReaders; ++r)
            if (!underWay.underWay(r))
                (readers[r]->chip.field().tags().empty() ? empty : holding).push_back(r);
        if (holding.empty()) return;
        const std::size_t from = holding[rng() % holding.size()];
        std::size_t to = from;
        if (o.onePerReader && !empty.empty()) to = empty[rng() % empty.size()];
        while (to == from || underWay.underWay(to)) to = rng() % kReaders;
        auto& source = readers[from]->chip.field();
        const auto uid = source.tags()[rng() % source.tags().size()].uid();
        source.remove(uid);
        readers[to]->chip.field().add(EmulatedTag(uid));
        ++f.moves;
    };
    auto swapTwo = [&] {
        std::vector<std::size_t> holding;
        for (std::size_t r = 0; r < kReaders; ++r)
            if (!underWay.underWay(r) && !readers[r]->chip.field().tags().empty()) holding.push_back(r);
        if (holding.size() < 2) return;
        const std::size_t a = holding[rng() % holding.size()];
        std::size_t b = a;
        while (b == a) b = holding[rng() % holding.size()];
        const auto ua = readers[a]->chip.field().tags().front().uid();
        const auto ub = readers[b]->chip.field().tags().front().uid();
        readers[a]->chip.field().remove(ua);
        readers[b]->chip.field().remove(ub);
        readers[a]->chip.field().add(EmulatedTag(ub));
        readers[b]->chip.field().add(EmulatedTag(ua));
        f.moves += 2;
    };

    const FieldCoupling coupling = castleCoupling(o.fields);
    f.coupledPairs = coupling.pairCount();
    FieldScheduler scheduler(
        coupling, {.powerUpTime = o.reader.powerUpTime, .maxFieldsOn = o.maxFieldsOn, .backoff = {}});
    f.groups = scheduler.groups().size();
    // The scheduler's clock in whole microseconds: `now` rounded down, field-on
    // rounded up, so that its power-up is never shorter than the real one.
    auto floorUs = [](std::int64_t ns) { return Microseconds(ns / 1000); };
    auto ceilUs = [](std::int64_t ns) { return Microseconds((ns + 999) / 1000); };
    std::vector<std::int64_t> onAt(kReaders, 0);
    std::int64_t minPowerUp = INT64_MAX;
    const std::int64_t start = now;
    std::int64_t lastEnd = start;
    const auto cycles = static_cast<std::uint64_t>(o.cycles) + 1;
    // A scan is over: its field off, checked against the field, reported.
    auto conclude = [&](std::size_t reader, const ScanResult& result) {
        EmulatedReader& r = *readers[reader];
        const ScanCost& cost = r.reader.lastScanCost();
        (void)r.reader.antennaOff();
        now = r.chip.nowNs();
        ++f.scans;
        if (!result.ok()) {
            ++f.failedScans;
        } else {
            if (result.tags() != inField(r)) ++f.wrongScans;
            if (cost.knownTagConfirmed)
                ++f.confirmed;
            else if (!result.tags().empty())
                ++f.inventories;
        }
        const std::uint64_t before = scheduler.completedCycles();
        scheduler.scanned(reader, result.ok(), floorUs(now));
        if (scheduler.completedCycles() == before) return;
        const double ms = static_cast<double>(now - lastEnd) / 1e6;
        lastEnd = now;
        if (before == 0)
            f.firstCycleMs = ms;
        else
            f.cycleMs.push_back(ms);
        for (int m = 0; m < o.movesPerCycle; ++m) moveOne();
        if (o.swapEvery > 0 && scheduler.completedCycles() % static_cast<std::uint64_t>(o.swapEvery) == 0)
            swapTwo();
    };
    for (std::uint64_t steps = 0; scheduler.completedCycles() < cycles && steps < 10'000'000; ++steps) {
        const FieldStep step = scheduler.next(floorUs(now));
        if (step.kind == FieldStep::Kind::Wait) {
            if (auto due = underWay.due(floorUs(now))) {
                EmulatedReader& r = *readers[*due];
                r.chip.idleUntil(now);
                const auto wait = r.reader.continueScan();
                now = r.chip.nowNs();
                f.maxScansUnderWay = std::max(f.maxScansUnderWay, underWay.count());
                if (wait) {
                    // Counted from the end of the transfer that started the radio's work.
                    underWay.waitUntil(*due, ceilUs(now) + *wait);
                    continue;
                }
                underWay.ended(*due);
                conclude(*due, r.reader.takeScanResult());
                continue;
            }
            auto until = step.until;
            if (auto next = underWay.nextDue()) until = std::min(until, *next);
            now = std::max(now, until.count() * 1000);
            continue;
        }
        EmulatedReader& r = *readers[step.reader];
        r.chip.idleUntil(now);
        if (step.kind == FieldStep::Kind::FieldOn) {
            const bool ok = !r.reader.antennaOn();
            now = r.chip.nowNs();
            onAt[step.reader] = now;
            if (!ok) {
                scheduler.scanned(step.reader, false, floorUs(now));
                continue;
            }
            scheduler.fieldCameOn(step.reader, ceilUs(now));
            f.maxFieldsOn = std::max(f.maxFieldsOn, scheduler.fieldsOn());
            continue;
        }
        minPowerUp = std::min(minPowerUp, now - onAt[step.reader]);
        if (o.interleave) {
            r.reader.beginScan();
            underWay.waitUntil(step.reader, floorUs(now));
            continue;
        }
        conclude(step.reader, r.reader.scan());
    }
    f.minPowerUpUs = static_cast<double>(minPowerUp) / 1e3;
    if (!f.cycleMs.empty()) {
        std::vector<double> sorted = f.cycleMs;
        std::sort(sorted.begin(), sorted.end());
        f.medianMs = sorted[sorted.size() / 2];
        f.worstMs = sorted.back();
        f.meanMs = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
    }
    return f;
}

}  // namespace vivaref::drivers::emulation
