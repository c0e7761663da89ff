// Random floors: random tags (4-, 7- and 10-byte UIDs), some leaving mid-scan,
// some with noise on MISO. Whatever happens, the scan ends; when it reports
// tags, they are tags that were on the floor, and every tag that stayed and
// answered cleanly is among them.
#include <algorithm>
#include <cstdlib>
#include <random>

#include <doctest/doctest.h>

#include "tests/drivers/emulated_reader.hpp"
#include "tests/drivers/random_uid.hpp"

using namespace vivaref::drivers;
using namespace vivaref::drivers::emulation;

namespace {

std::uint64_t seedFromEnvironment() {
    const char* text = std::getenv("VIVAREF_SEED");
    return text ? std::strtoull(text, nullptr, 10) : 20240611;
}

}  // namespace

TEST_CASE("Random fields: every tag found, nothing invented (VIVAREF_SEED to vary)") {
    const std::uint64_t seed = seedFromEnvironment();
    INFO("seed " << seed << " (rerun with VIVAREF_SEED=" << seed << ")");
    std::mt19937_64 rng(seed);
    for (int trial = 0; trial < 300; ++trial) {
        CAPTURE(trial);
        EmulatedReader r;
        TagSet placed;
        const int count = static_cast<int>(rng() % 6);
        std::vector<std::uint8_t> previous;
        while (static_cast<int>(placed.size()) < count) {
            auto uid = randomUid(rng);
            if (!previous.empty() && rng() % 2 && previous.size() == uid.size()) {
                std::copy_n(previous.begin(), uid.size() - 1, uid.begin());  // differ only at the end
            }
            if (placed.insert(TagUid(uid)).second) {
                r.chip.field().add(EmulatedTag(uid));
                previous = uid;
            }
        }
        REQUIRE_FALSE(r.reader.initialize());
        const ScanResult result = r.cycle();
        REQUIRE_MESSAGE(result.ok(), describe(result));
        CHECK(result.tags() == placed);
    }
}

TEST_CASE("Random fields with departures and MISO noise: the scan ends and invents no tag") {
    const std::uint64_t seed = seedFromEnvironment();
    INFO("seed " << seed << " (rerun with VIVAREF_SEED=" << seed << ")");
    std::mt19937_64 rng(seed + 1);
    int errors = 0;
    for (int trial = 0; trial < 300; ++trial) {
        CAPTURE(trial);
        EmulatedReader r;
        TagSet placed;
        std::vector<std::vector<std::uint8_t>> uids;
        const int count = 1 + static_cast<int>(rng() % 4);
        while (static_cast<int>(placed.size()) < count) {
            auto uid = randomUid(rng);
            if (placed.insert(TagUid(uid)).second) {
                r.chip.field().add(EmulatedTag(uid));
                uids.push_back(uid);
            }
        }
        REQUIRE_FALSE(r.reader.initialize());
        TagSet mustFind = placed;
        if (rng() % 2) {
            const auto& leaving = uids[rng() % uids.size()];
            r.chip.field().removeAfterFrames(leaving, static_cast<int>(rng() % 30));
            mustFind.erase(TagUid(leaving));
        }
        const bool noisy = rng() % 3 == 0;
        if (noisy) r.chip.garbleMiso(static_cast<std::uint32_t>(rng()), 200);
        const ScanResult result = r.cycle();
        if (!result.ok()) {
            CHECK_MESSAGE(noisy, result.error().message);  // only noise may make a scan fail
            ++errors;
            continue;
        }
        for (const TagUid& uid : result.tags())
            CHECK_MESSAGE(placed.count(uid) == 1, "invented " << uid.toHex());
        if (!noisy) {
            for (const TagUid& uid : mustFind)
                CHECK_MESSAGE(result.tags().count(uid) == 1, "missed " << uid.toHex());
        }
    }
    MESSAGE(errors << " of 300 noisy or departing scans ended in an error");
}
