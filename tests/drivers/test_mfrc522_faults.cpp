// What goes wrong on a real board: tags leave, chips die or are not what we
// expect, frames arrive garbled. The scan always ends, with a typed error or
// with tags that are really there.
#include <doctest/doctest.h>

#include "tests/drivers/emulated_reader.hpp"

using namespace vivaref::drivers;
using namespace vivaref::drivers::emulation;

TEST_CASE("Faults: a tag leaving mid-inventory is missed, the others are found") {
    // Frames: REQA, ANTICOLLISION... the departure lands at every point of the sequence in turn.
    for (int frames = 0; frames < 40; ++frames) {
        CAPTURE(frames);
        EmulatedReader r;
        r.place("DEADBEEF");
        r.place("04A1B2C3D4E5F6");
        r.place("04A1B2C3D4E5F6071829");
        REQUIRE_FALSE(r.reader.initialize());
        r.chip.field().removeAfterFrames(uidBytes("04A1B2C3D4E5F6"), frames);
        const ScanResult result = r.cycle();
        INFO(describe(result));
        REQUIRE(result.ok());
        CHECK(result.tags().count(TagUid::fromHex("DEADBEEF")) == 1);
        CHECK(result.tags().count(TagUid::fromHex("04A1B2C3D4E5F6071829")) == 1);
        CHECK(result.tags().size() <= 3);
    }
}

TEST_CASE("Faults: a dead chip (all 0x00 or all 0xFF) is no-answer, fast") {
    for (std::uint8_t value : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
        CAPTURE(int(value));
        EmulatedReader r;
        r.place("DEADBEEF");
        REQUIRE_FALSE(r.reader.initialize());
        r.reader.antennaOn();
        r.chip.dieAfterTransfers(0, value);
        const ScanResult result = r.reader.scan();
        REQUIRE_FALSE(result.ok());
        CHECK(result.error().kind == ScanErrorKind::NoAnswer);
        CHECK(result.error().message.find("floor-test") != std::string::npos);
        CHECK(r.reader.lastScanCost().spiTransfers == 1);  // the version check tells at once
    }
}

TEST_CASE("Faults: a chip dying mid-scan ends the scan, bounded") {
    // The death lands at every transfer of a clean scan of this field in turn.
    std::uint64_t cleanTransfers = 0;
    {
        EmulatedReader r;
        r.place("DEADBEEF");
        r.place("04A1B2C3D4E5F6");
        REQUIRE_FALSE(r.reader.initialize());
        REQUIRE(r.cycle().ok());
        cleanTransfers = r.reader.lastScanCost().spiTransfers;
        REQUIRE(cleanTransfers > 10);
    }
    for (std::uint8_t value : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
        for (std::uint64_t after = 0; after + 1 < cleanTransfers; ++after) {
            CAPTURE(int(value));
            CAPTURE(after);
            EmulatedReader r;
            r.place("DEADBEEF");
            r.place("04A1B2C3D4E5F6");
            REQUIRE_FALSE(r.reader.initialize());
            r.reader.antennaOn();
            r.chip.dieAfterTransfers(after, value);
            const ScanResult result = r.reader.scan();
            INFO(describe(result));
            REQUIRE_FALSE(result.ok());
            const bool noAnswerOrGarbage = result.error().kind == ScanErrorKind::NoAnswer ||
                                           result.error().kind == ScanErrorKind::Protocol;
            CHECK(noAnswerOrGarbage);
            CHECK(r.reader.lastScanCost().spiTransfers < 6000);
        }
    }
}

TEST_CASE("Faults: a wrong version is refused; the clones are accepted") {
    for (std::uint8_t version : {std::uint8_t{0x88}, std::uint8_t{0x12}, std::uint8_t{0x91}}) {
        EmulatedReader r;
        r.chip.setVersion(version);
        CHECK_FALSE(r.reader.initialize());
    }
    EmulatedReader r;
    r.chip.setVersion(0x37);
    const auto failure = r.reader.initialize();
    REQUIRE(failure);
    CHECK(failure->kind == ScanErrorKind::WrongVersion);
    CHECK(failure->message.find("0x37") != std::string::npos);

    EmulatedReader swapped;
    REQUIRE_FALSE(swapped.reader.initialize());
    swapped.chip.setVersion(0xB2);  // another chip answers on this CS from now on
    const ScanResult result = swapped.cycle();
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == ScanErrorKind::WrongVersion);
}

TEST_CASE("Faults: a garbled answer is retried; garbage that persists is a protocol error") {
    SUBCASE("one parity error") {
        // Two tags of one UID size: their ATQAs agree, so the garbled one is not hidden by a collision.
        EmulatedReader r;
        r.place("DEADBEEF");
        r.place("CAFEF00D");
        REQUIRE_FALSE(r.reader.initialize());
        r.chip.garbleAnswers(1, true);
        const ScanResult result = r.cycle();
        INFO(describe(result));
        REQUIRE(result.ok());
        CHECK(result.tags() == tagSet({"DEADBEEF", "CAFEF00D"}));
        CHECK(r.reader.lastScanCost().failedRounds == 1);
    }
    SUBCASE("bits flipped where parity cannot see: BCC or CRC_A catches them") {
        for (int answers = 1; answers <= 4; ++answers) {
            CAPTURE(answers);
            EmulatedReader r;
            r.place("04A1B2C3D4E5F6");
            REQUIRE_FALSE(r.reader.initialize());
            r.chip.garbleAnswers(answers, false);
            const ScanResult result = r.cycle();
            INFO(describe(result));
            REQUIRE(result.ok());
            CHECK(result.tags() == tagSet({"04A1B2C3D4E5F6"}));
        }
    }
    SUBCASE("every answer garbled") {
        EmulatedReader r;
        r.place("DEADBEEF");
        REQUIRE_FALSE(r.reader.initialize());
        r.chip.garbleAnswers(1000, true);
        const ScanResult result = r.cycle();
        REQUIRE_FALSE(result.ok());
        CHECK(result.error().kind == ScanErrorKind::Protocol);
    }
}

TEST_CASE("Faults: a failing SPI transfer is a bus error carrying the system's message") {
    EmulatedReader r;
    REQUIRE_FALSE(r.reader.initialize());
    r.reader.antennaOn();
    r.chip.failTransfers(std::make_error_code(std::errc::io_error));
    const ScanResult result = r.reader.scan();
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == ScanErrorKind::Bus);
    CHECK(result.error().message.find(std::make_error_code(std::errc::io_error).message()) !=
          std::string::npos);
}
