// Scans interleaved on one SPI bus: several emulated MFRC522s on one clock,
// the FieldScheduler switching fields on as their coupling allows and
// InterleavedScans serving whichever stopped scan's radio wait is over, the
// real Mfrc522Reader code throughout. At every step: no two coupled fields
// on, no scan before its reader's power-up, every scan exactly its field (or,
// with noise, never a tag that is not there).
#include <algorithm>
#include <memory>
#include <random>

#include <doctest/doctest.h>

#include "drivers/sensing/interleaved_scans.hpp"
#include "tests/drivers/emulated_reader.hpp"
#include "tests/drivers/random_uid.hpp"

using namespace vivaref::drivers;
using namespace vivaref::drivers::emulation;

namespace {

constexpr Microseconds kPowerUp{5100};

// Readers on one bus and one clock, scanned as RealCastle and the benchmark do.
struct InterleavedBus {
    explicit InterleavedBus(const FieldCoupling& c, bool interleaveScans = true)
        : coupling(c),
          scheduler(c, {.powerUpTime = kPowerUp, .maxFieldsOn = 0, .backoff = {}}),
          interleave(interleaveScans) {
        for (std::size_t i = 0; i < c.readerCount(); ++i) {
            Mfrc522ReaderConfig config{"reader-" + std::to_string(i), {}, 16, 4};
            readers.push_back(std::make_unique<EmulatedReader>(EmulatedBusTiming{}, config));
            readers.back()->chip.idleUntil(now);
            REQUIRE_FALSE(readers.back()->reader.initialize());
            now = readers.back()->chip.nowNs();
        }
        onAt.assign(readers.size(), 0);
    }

    static Microseconds floorUs(std::int64_t ns) { return Microseconds(ns / 1000); }
    static Microseconds ceilUs(std::int64_t ns) { return Microseconds((ns + 999) / 1000); }

    // One step: a field on, a scan begun or continued, or time passing.
    // `scanned` gets each scan that ended; the invariants are checked here.
    template <class OnScan>
    void step(OnScan&& scanned) {
        const FieldStep next = scheduler.next(floorUs(now));
        if (next.kind == FieldStep::Kind::Wait) {
            if (auto due = underWay.due(floorUs(now))) {
                maxUnderWay = std::max(maxUnderWay, underWay.count());
                EmulatedReader& r = *readers[*due];
                r.chip.idleUntil(now);
                // Its field stays on for the whole scan, interleaved or not.
                CHECK(r.chip.field().powered());
                const auto wait = r.reader.continueScan();
                now = r.chip.nowNs();
                if (wait) {
                    ++radioWaits;
                    underWay.waitUntil(*due, ceilUs(now) + *wait);
                    return;
                }
                underWay.ended(*due);
                const ScanResult result = r.reader.takeScanResult();
                scanned(*due, result);
                (void)r.reader.antennaOff();
                now = r.chip.nowNs();
                scheduler.scanned(*due, result.ok(), floorUs(now));
                return;
            }
            auto until = next.until;
            if (auto first = underWay.nextDue()) until = std::min(until, *first);
            now = std::max(now, until.count() * 1000);
            return;
        }
        EmulatedReader& r = *readers[next.reader];
        r.chip.idleUntil(now);
        if (next.kind == FieldStep::Kind::FieldOn) {
            // The chips' own fields, not the scheduler's word: no coupled neighbour's is on.
            for (ReaderIndex n : coupling.neighboursOf(next.reader)) {
                CAPTURE(next.reader);
                CAPTURE(n);
                REQUIRE_FALSE(readers[n]->chip.field().powered());
            }
            REQUIRE_FALSE(r.reader.antennaOn());
            now = r.chip.nowNs();
            onAt[next.reader] = now;
            scheduler.fieldCameOn(next.reader, ceilUs(now));
            return;
        }
        // ISO/IEC 14443-3 §5.2.4: the first frame comes after the power-up.
        CHECK(now - onAt[next.reader] >= kPowerUp.count() * 1000);
        if (!interleave) {
            const ScanResult result = r.reader.scan();
            scanned(next.reader, result);
            (void)r.reader.antennaOff();
            now = r.chip.nowNs();
            scheduler.scanned(next.reader, result.ok(), floorUs(now));
            return;
        }
        r.reader.beginScan();
        underWay.waitUntil(next.reader, floorUs(now));
    }

    std::vector<std::unique_ptr<EmulatedReader>> readers;
    FieldCoupling coupling;
    FieldScheduler scheduler;
    bool interleave;  // else each scan holds the bus to its end, as before interleaving
    InterleavedScans underWay;
    std::vector<std::int64_t> onAt;
    std::int64_t now = 0;
    std::size_t maxUnderWay = 0;
    std::uint64_t radioWaits = 0;
};

// Readers in levels, those one level apart coupled (the example castle's rule).
FieldCoupling levels(std::size_t readers, int levelCount) {
    std::vector<std::optional<int>> level;
    for (std::size_t i = 0; i < readers; ++i) level.emplace_back(static_cast<int>(i) % levelCount);
    return couplingByLevel(level, LevelCoupling::AdjacentLevels);
}

}  // namespace

TEST_CASE("An interleaved scan gives what scan() gives, at the same bus cost") {
    for (int tags = 0; tags <= 3; ++tags) {
        CAPTURE(tags);
        std::mt19937_64 rng(static_cast<std::uint64_t>(tags) + 1);
        EmulatedReader sync, steps;
        for (int t = 0; t < tags; ++t) {
            const auto uid = randomUid(rng);
            sync.chip.field().add(EmulatedTag(uid));
            steps.chip.field().add(EmulatedTag(uid));
        }
        REQUIRE_FALSE(sync.reader.initialize());
        REQUIRE_FALSE(steps.reader.initialize());
        // Twice: the first scan inventories, the second checks the known tags.
        for (int scan = 0; scan < 2; ++scan) {
            CAPTURE(scan);
            const ScanResult expected = sync.cycle();
            (void)steps.reader.antennaOff();
            (void)steps.reader.antennaOn();
            steps.reader.beginScan();
            int stops = 0;
            while (auto wait = steps.reader.continueScan()) {
                CHECK(wait->count() > 0);
                steps.chip.idleUntil(steps.chip.nowNs() + wait->count() * 1000);
                ++stops;
            }
            const ScanResult result = steps.reader.takeScanResult();
            REQUIRE_MESSAGE(result.ok(), describe(result));
            CHECK(result.tags() == expected.tags());
            CHECK(result.tags() == inField(steps));
            CHECK(steps.reader.lastScanCost().spiTransfers == sync.reader.lastScanCost().spiTransfers);
            CHECK(steps.reader.lastScanCost().requests == sync.reader.lastScanCost().requests);
            CHECK(steps.reader.knownTags() == sync.reader.knownTags());
            CHECK(steps.reader.knownTag() == sync.reader.knownTag());
            CHECK(stops >= 1);  // at least the first REQA's wait gave the bus back
            CHECK_FALSE(steps.reader.scanUnderWay());
        }
    }
}

TEST_CASE("Interleaved scans on one bus: every scan exactly its field, over random moves") {
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        INFO("seed " << seed);
        std::mt19937_64 rng(seed);
        const std::size_t readerCount = 6 + rng() % 10;
        InterleavedBus bus(levels(readerCount, 2 + static_cast<int>(rng() % 4)));
        for (auto& r : bus.readers)
            for (std::uint64_t t = rng() % 4; t > 0; --t) r->chip.field().add(EmulatedTag(randomUid(rng)));

        std::uint64_t scans = 0;
        auto check = [&](ReaderIndex reader, const ScanResult& result) {
            CAPTURE(reader);
            REQUIRE_MESSAGE(result.ok(), describe(result));
            CHECK(result.tags() == inField(*bus.readers[reader]));
            ++scans;
            // A hand moves a tag between two readers whose scans are not under way.
            if (rng() % 3 != 0) return;
            const auto from = static_cast<ReaderIndex>(rng() % readerCount);
            const auto to = static_cast<ReaderIndex>(rng() % readerCount);
            auto& source = bus.readers[from]->chip.field();
            if (from == to || source.tags().empty() || bus.underWay.underWay(from) ||
                bus.underWay.underWay(to))
                return;
            const auto uid = source.tags()[rng() % source.tags().size()].uid();
            source.remove(uid);
            bus.readers[to]->chip.field().add(EmulatedTag(uid));
        };
        for (int steps = 0; bus.scheduler.completedCycles() < 60 && steps < 1'000'000; ++steps)
            bus.step(check);
        CHECK(bus.scheduler.completedCycles() == 60);
        CHECK(scans >= 60 * readerCount);
        // The scans really were interleaved.
        CHECK(bus.maxUnderWay >= 2);
        CHECK(bus.radioWaits > scans);
    }
}

TEST_CASE("Interleaving shortens the cycle: several radio waits at once") {
    // Eight readers that do not couple, a 7-byte tag on each: the same
    // schedule, each scan holding the bus or interleaved.
    std::mt19937_64 rng(7);
    auto cycleTime = [&](bool interleave) {
        InterleavedBus bus(FieldCoupling(8), interleave);
        for (auto& r : bus.readers) {
            auto uid = randomUid(rng);
            uid.resize(7);
            r->chip.field().add(EmulatedTag(uid));
        }
        const std::int64_t start = bus.now;
        auto check = [&](ReaderIndex reader, const ScanResult& result) {
            REQUIRE(result.ok());
            CHECK(result.tags() == inField(*bus.readers[reader]));
        };
        while (bus.scheduler.completedCycles() < 1) bus.step(check);
        return bus.now - start;
    };
    const std::int64_t oneAtATime = cycleTime(false);
    const std::int64_t interleaved = cycleTime(true);
    CAPTURE(oneAtATime);
    CAPTURE(interleaved);
    // One power-up for all and the radio waits overlapping: well under half.
    CHECK(interleaved * 2 < oneAtATime);
}

TEST_CASE("A chip dying mid-interleave fails its own reader only") {
    // Six readers that do not couple, one tag each; reader 2's chip dies after
    // each number of transfers into its scan in turn, reading 0x00 or 0xFF.
    for (std::uint8_t deadValue : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
        for (std::uint64_t after = 0; after < 40; ++after) {
            CAPTURE(int(deadValue));
            CAPTURE(after);
            std::mt19937_64 rng(after + 100);
            InterleavedBus bus(FieldCoupling(6));
            for (auto& r : bus.readers) r->chip.field().add(EmulatedTag(randomUid(rng)));
            bool armed = false;
            int failed = 0;
            auto check = [&](ReaderIndex reader, const ScanResult& result) {
                if (reader == 2 && !result.ok()) {
                    ++failed;
                    return;
                }
                // Its own field exactly, the dying chip's included when it died too late to matter.
                REQUIRE_MESSAGE(result.ok(), describe(result));
                CHECK(result.tags() == inField(*bus.readers[reader]));
            };
            for (int steps = 0; bus.scheduler.completedCycles() < 3 && steps < 100'000; ++steps) {
                if (!armed && bus.underWay.underWay(2)) {
                    bus.readers[2]->chip.dieAfterTransfers(after, deadValue);
                    armed = true;
                }
                bus.step(check);
            }
            CHECK(bus.scheduler.completedCycles() == 3);
            // Dead for good: a later scan fails, whatever the one it died in did.
            CHECK(failed >= 1);
            // Dead before its scan's version check: that very scan fails.
            if (after == 0) CHECK(bus.scheduler.failuresInARow(2) >= 2);
            CHECK(bus.scheduler.failuresInARow(2) >= 1);
            for (ReaderIndex r = 0; r < 6; ++r)
                if (r != 2) CHECK(bus.scheduler.failuresInARow(r) == 0);
        }
    }
}

TEST_CASE("MISO noise in interleaved scans never invents a tag") {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        INFO("seed " << seed);
        std::mt19937_64 rng(seed);
        InterleavedBus bus(levels(10, 3));
        for (auto& r : bus.readers)
            for (std::uint64_t t = rng() % 3; t > 0; --t) r->chip.field().add(EmulatedTag(randomUid(rng)));
        for (std::size_t i = 0; i < bus.readers.size(); ++i)
            bus.readers[i]->chip.garbleMiso(static_cast<std::uint32_t>(seed * 100 + i), 40);
        int ok = 0, failed = 0;
        auto check = [&](ReaderIndex reader, const ScanResult& result) {
            CAPTURE(reader);
            if (!result.ok()) {
                ++failed;
                // A failed reader is reset for its next turn, as RealCastle does.
                (void)bus.readers[reader]->reader.initialize();
                return;
            }
            ++ok;
            const TagSet there = inField(*bus.readers[reader]);
            for (const TagUid& uid : result.tags()) {
                CAPTURE(uid.toHex());
                CHECK(there.count(uid) == 1);
            }
        };
        for (int steps = 0; bus.scheduler.completedCycles() < 40 && steps < 1'000'000; ++steps)
            bus.step(check);
        CHECK(bus.scheduler.completedCycles() == 40);
        CHECK(ok > 0);
        CHECK(failed > 0);  // the noise did bite
    }
}
