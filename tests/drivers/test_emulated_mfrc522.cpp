// The emulated chip checked on its own, register by register, from the data
// sheet, so that the driver tests stand on a model we trust.
#include <vector>

#include <doctest/doctest.h>

#include "drivers/rfid/mfrc522_chip.hpp"
#include "tests/drivers/crc_a.hpp"
#include "tests/drivers/emulated_reader.hpp"

using namespace vivaref::drivers;
using namespace vivaref::drivers::emulation;

namespace {

void writeReg(EmulatedMfrc522& chip, std::uint8_t address, std::vector<std::uint8_t> values) {
    std::vector<std::uint8_t> tx{static_cast<std::uint8_t>(address << 1)};
    tx.insert(tx.end(), values.begin(), values.end());
    std::vector<std::uint8_t> rx(tx.size());
    REQUIRE_FALSE(chip.transfer(tx, rx));
}

std::uint8_t readReg(EmulatedMfrc522& chip, std::uint8_t address) {
    const std::uint8_t tx[] = {static_cast<std::uint8_t>(0x80 | (address << 1)), 0x00};
    std::uint8_t rx[2] = {};
    REQUIRE_FALSE(chip.transfer(tx, rx));
    return rx[1];
}

}  // namespace

TEST_CASE("CRC_A: the known vectors of ISO/IEC 14443-3") {
    const std::uint8_t zeros[] = {0x00, 0x00};
    CHECK(crcA(zeros) == 0x1EA0);  // Annex B: sent A0 1E
    const std::uint8_t hlta[] = {0x50, 0x00};
    CHECK(crcA(hlta) == 0xCD57);  // the HLTA frame every reader sends: 50 00 57 CD
}

TEST_CASE("Emulated MFRC522: CalcCRC computes CRC_A with the ModeReg preset") {
    EmulatedMfrc522 chip;
    writeReg(chip, 0x11, {0x3D});              // ModeReg: CRCPreset 01 = 0x6363
    writeReg(chip, 0x09, {0x50, 0x00});        // two bytes into the FIFO in one write
    CHECK(readReg(chip, 0x0A) == 2);           // FIFOLevelReg
    writeReg(chip, 0x01, {0x03});              // CalcCRC
    CHECK((readReg(chip, 0x05) & 0x04) != 0);  // DivIrqReg CRCIRq
    CHECK(readReg(chip, 0x22) == 0x57);        // CRCResultReg LSB
    CHECK(readReg(chip, 0x21) == 0xCD);        // and MSB

    SUBCASE("the driver's coprocessor call agrees with the standard's vectors") {
        mfrc522::Mfrc522Chip driverChip(chip, "crc", {});
        std::array<std::uint8_t, 2> crc{};
        const std::uint8_t zeros[] = {0x00, 0x00};
        REQUIRE_FALSE(driverChip.calculateCrc(zeros, crc));
        CHECK(crc == std::array<std::uint8_t, 2>{0xA0, 0x1E});
    }
}

TEST_CASE("Emulated MFRC522: the SPI address byte, several reads in one transfer, FIFO flush") {
    EmulatedMfrc522 chip;
    chip.setVersion(0x91);
    const std::uint8_t tx[] = {0x80 | (0x37 << 1), 0x80 | (0x14 << 1), 0x80 | (0x11 << 1), 0x00};
    std::uint8_t rx[4] = {};
    REQUIRE_FALSE(chip.transfer(tx, rx));
    CHECK(rx[1] == 0x91);  // VersionReg
    CHECK(rx[2] == 0x80);  // TxControlReg reset value
    CHECK(rx[3] == 0x3F);  // ModeReg reset value

    writeReg(chip, 0x09, {1, 2, 3});
    CHECK(readReg(chip, 0x09) == 1);  // the FIFO pops in order
    CHECK(readReg(chip, 0x0A) == 2);
    writeReg(chip, 0x0A, {0x80});  // FlushBuffer
    CHECK(readReg(chip, 0x0A) == 0);

    std::vector<std::uint8_t> many(70, 0xAA);
    writeReg(chip, 0x09, many);
    CHECK(readReg(chip, 0x0A) == 64);
    CHECK((readReg(chip, 0x06) & 0x10) != 0);  // ErrorReg BufferOvfl
}

TEST_CASE("Emulated MFRC522: ComIrqReg bits are set and cleared through Set1") {
    EmulatedMfrc522 chip;
    writeReg(chip, 0x04, {0x7F});  // clear all
    CHECK(readReg(chip, 0x04) == 0x00);
    writeReg(chip, 0x04, {0x81});  // set TimerIRq
    CHECK(readReg(chip, 0x04) == 0x01);
}

TEST_CASE("Emulated MFRC522: with no tag, TimerIRq comes after the programmed time") {
    EmulatedMfrc522 chip;
    writeReg(chip, 0x14, {0x83});  // antenna on
    writeReg(chip, 0x2A, {0x80});  // TAuto, prescaler 0x0A9 -> 25 us ticks
    writeReg(chip, 0x2B, {0xA9});
    writeReg(chip, 0x2C, {0x00});
    writeReg(chip, 0x2D, {39});  // 40 ticks: 1 ms
    writeReg(chip, 0x04, {0x7F});
    writeReg(chip, 0x09, {0x26});  // REQA
    writeReg(chip, 0x0D, {0x07});  // 7 bits
    writeReg(chip, 0x01, {0x0C});  // Transceive
    writeReg(chip, 0x0D, {0x87});  // StartSend
    const std::int64_t sent = chip.nowNs();
    std::int64_t fired = 0;
    for (int poll = 0; poll < 10'000 && !fired; ++poll) {
        if (readReg(chip, 0x04) & 0x01) fired = chip.nowNs();
    }
    REQUIRE(fired > 0);
    CHECK((readReg(chip, 0x04) & 0x20) == 0);  // nothing received
    // REQA takes about 85 us on air, then the 1 ms timer; polls are 4 us apart at 4 MHz.
    CHECK(fired - sent >= 1'000'000);
    CHECK(fired - sent <= 1'100'000);
}

TEST_CASE("Emulated tag: REQA, anticollision, SELECT, HLTA through its states") {
    EmulatedTag tag(uidBytes("04A1B2C3D4E5F6"));
    CHECK(tag.hear(bitsOf(std::vector<std::uint8_t>{0x26}, 7)) ==
          bitsOf(std::vector<std::uint8_t>{0x44, 0x00}));
    CHECK(tag.state() == TagState::Ready);
    const auto cl1 = tag.cascadeLevelBytes(0);
    CHECK(cl1 == std::array<std::uint8_t, 5>{0x88, 0x04, 0xA1, 0xB2, 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2});
    auto answer = tag.hear(bitsOf(std::vector<std::uint8_t>{0x93, 0x20}));
    CHECK(answer == bitsOf(cl1));
    std::vector<std::uint8_t> select{0x93, 0x70, cl1[0], cl1[1], cl1[2], cl1[3], cl1[4]};
    const std::uint16_t crc = crcA(select);
    select.push_back(crc & 0xFF);
    select.push_back(crc >> 8);
    answer = tag.hear(bitsOf(select));
    REQUIRE(answer);
    CHECK(byteAt(*answer, 0) == 0x04);  // SAK: cascade, the UID goes on
    CHECK(tag.state() == TagState::Ready);

    SUBCASE("a REQA in READY sends it back to IDLE, silently") {
        CHECK_FALSE(tag.hear(bitsOf(std::vector<std::uint8_t>{0x26}, 7)));
        CHECK(tag.state() == TagState::Idle);
    }
    SUBCASE("HLTA in ACTIVE: HALT, deaf to REQA, woken by WUPA") {
        const auto cl2 = tag.cascadeLevelBytes(1);
        std::vector<std::uint8_t> select2{0x95, 0x70, cl2[0], cl2[1], cl2[2], cl2[3], cl2[4]};
        const std::uint16_t crc2 = crcA(select2);
        select2.push_back(crc2 & 0xFF);
        select2.push_back(crc2 >> 8);
        answer = tag.hear(bitsOf(select2));
        REQUIRE(answer);
        CHECK(byteAt(*answer, 0) == 0x00);
        CHECK(tag.state() == TagState::Active);
        CHECK_FALSE(tag.hear(bitsOf(std::vector<std::uint8_t>{0x50, 0x00, 0x57, 0xCD})));
        CHECK(tag.state() == TagState::Halt);
        CHECK_FALSE(tag.hear(bitsOf(std::vector<std::uint8_t>{0x26}, 7)));
        CHECK(tag.hear(bitsOf(std::vector<std::uint8_t>{0x52}, 7)));
        CHECK(tag.state() == TagState::Ready);
    }
}

TEST_CASE("Emulated field: two tags' answers collide at the first differing bit") {
    EmulatedField field;
    field.setPowered(true);
    field.add(EmulatedTag(uidBytes("01020304")));
    field.add(EmulatedTag(uidBytes("01020305")));
    field.carry(bitsOf(std::vector<std::uint8_t>{0x26}, 7));
    auto answer = field.carry(bitsOf(std::vector<std::uint8_t>{0x93, 0x20}));
    REQUIRE(answer);
    REQUIRE(answer->firstCollision);
    CHECK(*answer->firstCollision == 24);  // byte 3, bit 0: 0x04 against 0x05
}
