// One MFRC522 reader inventories every tag in its field.
#include <doctest/doctest.h>

#include "tests/drivers/emulated_reader.hpp"

using namespace vivaref::drivers;
using namespace vivaref::drivers::emulation;

namespace {

ScanResult initializeAndCycle(EmulatedReader& r) {
    REQUIRE_FALSE(r.reader.initialize());
    return r.cycle();
}

// The full protocol for every tag: SELECT and HLTA for the last one too.
Mfrc522ReaderConfig haltingEveryTag() {
    Mfrc522ReaderConfig config{"floor-test", {}, 16, 4};
    config.stopAtLoneTag = false;
    return config;
}

}  // namespace

TEST_CASE("Mfrc522Reader: initialize resets, checks the version and the CRC coprocessor") {
    EmulatedReader r;
    const auto failure = r.reader.initialize();
    CHECK_FALSE(failure);
    CHECK(r.reader.version() == 0x92);
    CHECK(r.chip.peekRegister(0x11) == 0x3D);        // CRC preset 0x6363
    CHECK((r.chip.peekRegister(0x2A) & 0x80) != 0);  // TAuto
}

TEST_CASE("Mfrc522Reader: an empty field is an empty set, after one REQA") {
    EmulatedReader r;
    const ScanResult result = initializeAndCycle(r);
    REQUIRE(result.ok());
    CHECK(result.tags().empty());
    CHECK(r.reader.lastScanCost().requests == 1);
    CHECK(r.reader.lastScanCost().noReplies == 1);
}

TEST_CASE("Mfrc522Reader: one tag of each UID size") {
    int levels = 1;
    for (const char* uid : {"DEADBEEF", "04A1B2C3D4E5F6", "04A1B2C3D4E5F6071829"}) {
        CAPTURE(uid);
        SUBCASE("a lone tag: REQA and the cascade up to its last ANTICOLLISION, nothing more") {
            EmulatedReader r;
            r.place(uid);
            const ScanResult result = initializeAndCycle(r);
            REQUIRE_MESSAGE(result.ok(), describe(result));
            CHECK(result.tags() == tagSet({uid}));
            const ScanCost& cost = r.reader.lastScanCost();
            CHECK(cost.stoppedAtLoneTag);
            CHECK(cost.requests == 1);
            CHECK(cost.anticollisions == levels);
            CHECK(cost.selects == levels - 1);
            CHECK(cost.halts == 0);
            CHECK(cost.noReplies == 0);
            CHECK(r.chip.field().tags()[0].state() != TagState::Halt);
        }
        SUBCASE("the full protocol: SELECT, HLTA and a closing REQA") {
            EmulatedReader r({}, haltingEveryTag());
            r.place(uid);
            const ScanResult result = initializeAndCycle(r);
            REQUIRE_MESSAGE(result.ok(), describe(result));
            CHECK(result.tags() == tagSet({uid}));
            CHECK_FALSE(r.reader.lastScanCost().stoppedAtLoneTag);
            CHECK(r.reader.lastScanCost().halts == 1);
            CHECK(r.reader.lastScanCost().requests == 2);
            CHECK(r.chip.field().tags()[0].state() == TagState::Halt);
        }
        ++levels;
    }
}

TEST_CASE("Mfrc522Reader: 2, 3 and 4 tags of mixed UID sizes, all of them") {
    const std::vector<const char*> uids = {"DEADBEEF", "04A1B2C3D4E5F6", "04A1B2C3D4E5F6071829", "1A2B3C4D"};
    for (std::size_t n = 2; n <= uids.size(); ++n) {
        CAPTURE(n);
        EmulatedReader r;
        TagSet expected;
        for (std::size_t i = 0; i < n; ++i) {
            r.place(uids[i]);
            expected.insert(TagUid::fromHex(uids[i]));
        }
        const ScanResult result = initializeAndCycle(r);
        REQUIRE_MESSAGE(result.ok(), describe(result));
        CHECK(result.tags() == expected);
        CHECK(r.reader.lastScanCost().collisions >= 1);
        // Each tag but the last is halted so that the next REQA finds the others;
        // the last one answers alone, so the scan ends with it.
        CHECK(r.reader.lastScanCost().halts == static_cast<int>(n) - 1);
        CHECK(r.reader.lastScanCost().stoppedAtLoneTag);
    }
}

TEST_CASE("Mfrc522Reader: collisions deep in the UID are resolved bit by bit") {
    EmulatedReader r;
    // Differ only in the last bit; in bit 8; two 7-byte tags sharing all of cascade level 1.
    for (const char* uid : {"01020304", "01020305", "01030304", "04A1B2C3D4E5F6", "04A1B2C3D4E5F7"})
        r.place(uid);
    const ScanResult result = initializeAndCycle(r);
    REQUIRE_MESSAGE(result.ok(), describe(result));
    CHECK(result.tags() == tagSet({"01020304", "01020305", "01030304", "04A1B2C3D4E5F6", "04A1B2C3D4E5F7"}));
    CHECK(r.reader.lastScanCost().collisions >= 4);
}

TEST_CASE("Mfrc522Reader: halting every tag, once per field power-up; the next cycle finds them again") {
    EmulatedReader r({}, haltingEveryTag());
    r.place("DEADBEEF");
    r.place("04A1B2C3D4E5F6");
    REQUIRE(initializeAndCycle(r).tags().size() == 2);
    CHECK(r.reader.scan().tags().empty());  // still powered: all halted
    r.place("CAFEF00D");                    // a tag put down since is still IDLE
    CHECK(r.reader.scan().tags() == tagSet({"CAFEF00D"}));
    CHECK(r.cycle().tags().size() == 3);
}

TEST_CASE("Mfrc522Reader: stopping at the lone tag leaves it unhalted, so scan once per field cycle") {
    EmulatedReader r;
    r.place("DEADBEEF");
    r.place("04A1B2C3D4E5F6");
    REQUIRE(initializeAndCycle(r).tags().size() == 2);
    // One was halted; the other, read alone in the last round, was left READY:
    // the next REQA sends it back to IDLE without an answer (§6.3), the one after finds it.
    CHECK(r.reader.scan().tags().empty());
    CHECK(r.reader.scan().tags().size() == 1);
    CHECK(r.cycle().tags().size() == 2);
}

TEST_CASE("Mfrc522Reader: after a failed round the scan does not stop at a lone tag") {
    // A garbled answer fails round one; in round two a tag left in READY may sit out a REQA (§6.3.3).
    EmulatedReader r;
    r.place("DEADBEEF");
    r.place("CAFEF00D");
    REQUIRE_FALSE(r.reader.initialize());
    r.chip.garbleAnswers(1, true);
    const ScanResult result = r.cycle();
    REQUIRE_MESSAGE(result.ok(), describe(result));
    CHECK(result.tags() == tagSet({"DEADBEEF", "CAFEF00D"}));
    CHECK(r.reader.lastScanCost().failedRounds == 1);
    CHECK_FALSE(r.reader.lastScanCost().stoppedAtLoneTag);
    CHECK(r.reader.lastScanCost().halts == 2);
}

TEST_CASE("Mfrc522Reader: scan with the antenna off is an error, not an empty floor") {
    EmulatedReader r;
    r.place("DEADBEEF");
    REQUIRE_FALSE(r.reader.initialize());
    const ScanResult result = r.reader.scan();
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == ScanErrorKind::AntennaOff);
}

TEST_CASE("Mfrc522Reader: counts its bus transfers and bytes per scan") {
    EmulatedReader r;
    r.place("DEADBEEF");
    const ScanResult result = initializeAndCycle(r);
    REQUIRE(result.ok());
    const ScanCost& cost = r.reader.lastScanCost();
    CHECK(cost.spiTransfers > 0);
    CHECK(cost.spiBytes >= 2 * cost.spiTransfers);
    CHECK(cost.requests == 1);
    CHECK(cost.selects == 0);
}

TEST_CASE("Mfrc522Reader: the answer timeout must cover the frame delay and the timer's five bits") {
    // ISO/IEC 14443-3 §6.2.1.1: 91 us to the answer; the timer stops after its 5th bit, 47 us later.
    const std::pair<int, bool> timeouts[] = {{80, false}, {120, false}, {150, true}, {200, true}};
    for (const auto& [microseconds, finds] : timeouts) {
        CAPTURE(microseconds);
        Mfrc522ReaderConfig config{"floor-test", {std::chrono::microseconds(microseconds), 5000}, 16, 4};
        EmulatedReader r({}, config);
        r.place("04A1B2C3D4E5F6");
        const ScanResult result = initializeAndCycle(r);
        REQUIRE_MESSAGE(result.ok(), describe(result));
        CHECK(result.tags().size() == (finds ? 1u : 0u));
    }
}

TEST_CASE("Mfrc522Reader: the driver waits for the radio instead of polling the bus") {
    EmulatedReader r;
    r.place("04A1B2C3D4E5F6");
    REQUIRE(initializeAndCycle(r).ok());
    const ScanCost& cost = r.reader.lastScanCost();
    // Version check, Transceive started once (3), then for each of the 4 frames: clear
    // IRQs, FIFO, StartSend with the wait, a status read when the timer would have run
    // out and one when the answer should be over, the FIFO read; the closing version check.
    CHECK(cost.spiTransfers <= 30);
    EmulatedReader empty;
    REQUIRE(initializeAndCycle(empty).ok());
    CHECK(empty.reader.lastScanCost().spiTransfers <= 10);
}
