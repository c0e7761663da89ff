// The check for the tag a reader held at its last scan (checkKnownTag): a
// confirmed tag costs REQA, the SELECTs of its first levels, one
// ANTICOLLISION and a silent REQA; a swap, an added tag or a removed tag is
// seen in the same scan; garbage and dead chips end as they do in a full
// inventory, never with a tag that is not there.
#include <random>

#include <doctest/doctest.h>

#include "tests/drivers/dying_chip.hpp"
#include "tests/drivers/emulated_reader.hpp"

using namespace vivaref::drivers;
using namespace vivaref::drivers::emulation;

namespace {

constexpr const char* kSeven = "04A1B2C3D4E5F6";
constexpr const char* kTen = "04A1B2C3D4E5F6071829";
// Same first cascade level as kSeven (0x88 04 A1 B2), another second level.
constexpr const char* kSevenSameFirstLevel = "04A1B2CAFEF00D";
constexpr const char* kSevenOther = "04C3D4E5F60718";
constexpr const char* kFour = "DEADBEEF";

// The reader knows `uid` from a first scan.
void knowing(EmulatedReader& r, const char* uid) {
    r.place(uid);
    REQUIRE_FALSE(r.reader.initialize());
    const ScanResult first = r.cycle();
    REQUIRE_MESSAGE(first.ok(), describe(first));
    REQUIRE(first.tags() == tagSet({uid}));
    REQUIRE(r.reader.knownTag() == TagUid::fromHex(uid));
}

void takeTag(EmulatedReader& r, const char* uid) { REQUIRE(r.chip.field().remove(uidBytes(uid))); }

}  // namespace

TEST_CASE("Known tag: a 7-byte tag still alone is confirmed by REQA, one SELECT, one ANTICOLLISION, REQA") {
    EmulatedReader r;
    knowing(r, kSeven);
    CHECK_FALSE(r.reader.lastScanCost().checkedKnownTag);  // the first scan inventories
    for (int cycle = 0; cycle < 3; ++cycle) {
        const ScanResult result = r.cycle();
        REQUIRE_MESSAGE(result.ok(), describe(result));
        CHECK(result.tags() == tagSet({kSeven}));
        const ScanCost& cost = r.reader.lastScanCost();
        CHECK(cost.checkedKnownTag);
        CHECK(cost.knownTagConfirmed);
        CHECK(cost.requests == 2);
        CHECK(cost.selects == 1);
        CHECK(cost.anticollisions == 1);
        CHECK(cost.halts == 0);
        CHECK(cost.noReplies == 1);  // the closing REQA
    }
}

TEST_CASE("Known tag: a 10-byte tag, two SELECTs and one ANTICOLLISION") {
    EmulatedReader r;
    knowing(r, kTen);
    const ScanResult result = r.cycle();
    REQUIRE(result.ok());
    CHECK(result.tags() == tagSet({kTen}));
    CHECK(r.reader.lastScanCost().knownTagConfirmed);
    CHECK(r.reader.lastScanCost().selects == 2);
    CHECK(r.reader.lastScanCost().anticollisions == 1);
}

TEST_CASE("Known tag: a 4-byte tag is read whole by the lone-tag inventory, no check") {
    EmulatedReader r;
    r.place(kFour);
    REQUIRE_FALSE(r.reader.initialize());
    REQUIRE(r.cycle().ok());
    CHECK_FALSE(r.reader.knownTag());
    const ScanResult result = r.cycle();
    CHECK(result.tags() == tagSet({kFour}));
    CHECK_FALSE(r.reader.lastScanCost().checkedKnownTag);
    CHECK(r.reader.lastScanCost().stoppedAtLoneTag);
}

TEST_CASE("Known tag: removed, swapped or joined, the change is seen in the next scan") {
    struct Change {
        const char* what;
        std::vector<const char*> taken;
        std::vector<const char*> placed;
    };
    const Change changes[] = {
        {"removed", {kSeven}, {}},
        {"swapped for another 7-byte tag", {kSeven}, {kSevenOther}},
        {"swapped for one with the same first level", {kSeven}, {kSevenSameFirstLevel}},
        {"swapped for a 4-byte tag", {kSeven}, {kFour}},
        {"swapped for a 10-byte tag", {kSeven}, {kTen}},
        {"joined by another 7-byte tag", {}, {kSevenOther}},
        {"joined by one with the same first level", {}, {kSevenSameFirstLevel}},
        {"joined by a 4-byte tag (ATQAs collide)", {}, {kFour}},
        {"joined by a 10-byte tag", {}, {kTen}},
        {"joined by two", {}, {kSevenOther, kSevenSameFirstLevel}},
        {"swapped for two", {kSeven}, {kSevenOther, kFour}},
    };
    for (const Change& change : changes) {
        CAPTURE(change.what);
        EmulatedReader r;
        knowing(r, kSeven);
        for (const char* uid : change.taken) takeTag(r, uid);
        for (const char* uid : change.placed) r.place(uid);
        const ScanResult result = r.cycle();
        REQUIRE_MESSAGE(result.ok(), describe(result));
        CHECK(result.tags() == inField(r));
        CHECK(r.reader.lastScanCost().checkedKnownTag);
        CHECK_FALSE(r.reader.lastScanCost().knownTagConfirmed);
        // And the scan after that is right too (checking the new tag, or inventorying).
        const ScanResult again = r.cycle();
        REQUIRE_MESSAGE(again.ok(), describe(again));
        CHECK(again.tags() == inField(r));
    }
}

TEST_CASE("Known tag: garbled answers during the check end in the right tags or a protocol error") {
    for (bool parityVisible : {true, false}) {
        for (int answers = 1; answers <= 6; ++answers) {
            CAPTURE(parityVisible);
            CAPTURE(answers);
            for (const char* other : {static_cast<const char*>(nullptr), kSevenSameFirstLevel, kFour}) {
                EmulatedReader r;
                knowing(r, kSeven);
                if (other) r.place(other);
                r.chip.garbleAnswers(answers, parityVisible);
                const ScanResult result = r.cycle();
                INFO(describe(result));
                if (result.ok())
                    CHECK(result.tags() == inField(r));
                else
                    CHECK(result.error().kind == ScanErrorKind::Protocol);
            }
        }
    }
}

TEST_CASE("Known tag: a chip dying during the check is no answer or garbage, never a tag") {
    std::uint64_t checkTransfers = 0;
    {
        EmulatedReader r;
        knowing(r, kSeven);
        REQUIRE(r.cycle().ok());
        checkTransfers = r.reader.lastScanCost().spiTransfers;
        REQUIRE(checkTransfers > 5);
    }
    checkDyingChip(
        checkTransfers, [](EmulatedReader& r) { knowing(r, kSeven); },
        [](EmulatedReader& r) { return !r.reader.knownTag(); });
}

TEST_CASE("Known tag: noise on MISO never invents a tag") {
    for (std::uint32_t seed = 1; seed <= 60; ++seed) {
        CAPTURE(seed);
        EmulatedReader r;
        knowing(r, kSeven);
        if (seed % 3 == 1) r.place(kSevenSameFirstLevel);
        if (seed % 3 == 2) takeTag(r, kSeven);
        r.chip.garbleMiso(seed, 40);
        const ScanResult result = r.cycle();
        INFO(describe(result));
        if (!result.ok()) continue;  // typed garbage: fine
        for (const TagUid& uid : result.tags()) CHECK(inField(r).contains(uid));
    }
}

TEST_CASE("Known tag: many cycles of random moves, every scan exactly the field") {
    const char* pool[] = {kSeven, kSevenOther,      kSevenSameFirstLevel, kTen,
                          kFour,  "04112233445566", "04112233778899"};
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CAPTURE(seed);
        std::mt19937_64 rng(seed);
        EmulatedReader r;
        REQUIRE_FALSE(r.reader.initialize());
        int confirmed = 0;
        for (int cycle = 0; cycle < 60; ++cycle) {
            // Mostly nothing happens; now and then a tag comes, goes, or is swapped.
            const auto roll = rng() % 10;
            const char* uid = pool[rng() % std::size(pool)];
            const bool there = inField(r).contains(TagUid::fromHex(uid));
            if (roll == 0 && !there) r.place(uid);
            if (roll == 1 && !r.chip.field().tags().empty())
                r.chip.field().remove(r.chip.field().tags()[rng() % r.chip.field().tags().size()].uid());
            if (roll == 2 && !there && !r.chip.field().tags().empty()) {
                r.chip.field().remove(r.chip.field().tags()[0].uid());
                r.place(uid);
            }
            const ScanResult result = r.cycle();
            REQUIRE_MESSAGE(result.ok(), describe(result));
            CHECK(result.tags() == inField(r));
            confirmed += r.reader.lastScanCost().knownTagConfirmed ? 1 : 0;
        }
        CHECK(confirmed > 0);
    }
}
