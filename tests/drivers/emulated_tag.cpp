#include "tests/drivers/emulated_tag.hpp"

#include <algorithm>
#include <stdexcept>

#include "tests/drivers/crc_a.hpp"

namespace vivaref::drivers::emulation {
namespace {

constexpr std::uint8_t kReqa = 0x26;
constexpr std::uint8_t kWupa = 0x52;
constexpr std::uint8_t kHltaFirst = 0x50;
constexpr std::uint8_t kCascadeTag = 0x88;
constexpr std::uint8_t kSelectCodes[] = {0x93, 0x95, 0x97};

bool crcOk(const Bits& frame, std::size_t bytes) {
    std::vector<std::uint8_t> data;
    for (std::size_t i = 0; i < bytes; ++i) data.push_back(byteAt(frame, i * 8));
    const std::uint16_t crc = crcA(data);
    return byteAt(frame, bytes * 8) == (crc & 0xFF) && byteAt(frame, bytes * 8 + 8) == (crc >> 8);
}

}  // namespace

EmulatedTag::EmulatedTag(std::vector<std::uint8_t> uid, std::uint8_t finalSak)
    : uid_(std::move(uid)), finalSak_(finalSak) {
    if (uid_.size() != 4 && uid_.size() != 7 && uid_.size() != 10)
        throw std::invalid_argument("UID of 4, 7 or 10 bytes");
}

void EmulatedTag::powerOff() {
    state_ = TagState::Idle;
    level_ = 0;
    wokenFromHalt_ = false;
}

void EmulatedTag::leaveOnError() {
    state_ = wokenFromHalt_ ? TagState::Halt : TagState::Idle;
    level_ = 0;
}

std::array<std::uint8_t, 5> EmulatedTag::cascadeLevelBytes(int level) const {
    std::array<std::uint8_t, 5> cl{};
    const bool cascades = level + 1 < cascadeLevels();
    // Levels before the last carry the cascade tag and three UID bytes (§6.5.4).
    const std::size_t first = static_cast<std::size_t>(level) * 3;
    if (cascades) {
        cl[0] = kCascadeTag;
        std::copy_n(uid_.begin() + static_cast<std::ptrdiff_t>(first), 3, cl.begin() + 1);
    } else {
        std::copy_n(uid_.begin() + static_cast<std::ptrdiff_t>(first), 4, cl.begin());
    }
    cl[4] = static_cast<std::uint8_t>(cl[0] ^ cl[1] ^ cl[2] ^ cl[3]);
    return cl;
}

Bits EmulatedTag::atqa() const {
    // §6.5.2.1: bits 8..7 give the UID size, one of bits 5..1 set for bit frame anticollision.
    const std::uint8_t sizeCode = static_cast<std::uint8_t>(cascadeLevels() - 1);
    const std::uint8_t bytes[] = {static_cast<std::uint8_t>((sizeCode << 6) | 0x04), 0x00};
    return bitsOf(bytes);
}

Bits EmulatedTag::sakFrame(std::uint8_t sak) const {
    const std::uint16_t crc = crcA(std::span(&sak, 1));
    const std::uint8_t bytes[] = {sak, static_cast<std::uint8_t>(crc & 0xFF),
                                  static_cast<std::uint8_t>(crc >> 8)};
    return bitsOf(bytes);
}

std::optional<Bits> EmulatedTag::hear(const Bits& frame) {
    if (frame.size() == 7) {  // a short frame: REQA or WUPA (§6.2.3.1)
        const std::uint8_t command = byteAt(frame, 0);
        const bool wakes = (command == kReqa && state_ == TagState::Idle) ||
                           (command == kWupa && (state_ == TagState::Idle || state_ == TagState::Halt));
        if (wakes) {
            wokenFromHalt_ = state_ == TagState::Halt;
            state_ = TagState::Ready;
            level_ = 0;
            return atqa();
        }
        if (state_ == TagState::Ready || state_ == TagState::Active) leaveOnError();
        return std::nullopt;
    }
    if (state_ == TagState::Idle || state_ == TagState::Halt)
        return std::nullopt;  // asleep: only REQA/WUPA wake it

    if (frame.size() == 32 && byteAt(frame, 0) == kHltaFirst && byteAt(frame, 8) == 0x00 && crcOk(frame, 2)) {
        if (state_ == TagState::Active) {
            state_ = TagState::Halt;  // §6.4.3: silent
            level_ = 0;
        } else {
            leaveOnError();
        }
        return std::nullopt;
    }
    if (state_ == TagState::Ready && frame.size() >= 16) return hearSelectCommand(frame);
    leaveOnError();
    return std::nullopt;
}

std::optional<Bits> EmulatedTag::hearSelectCommand(const Bits& frame) {
    if (byteAt(frame, 0) != kSelectCodes[level_]) {
        leaveOnError();
        return std::nullopt;
    }
    const std::uint8_t nvb = byteAt(frame, 8);
    const int byteCount = nvb >> 4;
    const int bitCount = nvb & 0x0F;
    const auto cl = cascadeLevelBytes(level_);
    const Bits clBits = bitsOf(cl);

    if (nvb == 0x70) {  // SELECT: the whole CLn and a CRC_A (§6.5.3.1)
        if (frame.size() != 72 || !crcOk(frame, 7) ||
            !std::equal(clBits.begin(), clBits.end(), frame.begin() + 16)) {
            leaveOnError();
            return std::nullopt;
        }
        if (level_ + 1 < cascadeLevels()) {
            ++level_;
            return sakFrame(0x04);  // cascade bit: the UID is not complete
        }
        state_ = TagState::Active;
        return sakFrame(static_cast<std::uint8_t>(finalSak_ & ~0x04));
    }
    // ANTICOLLISION: NVB counts the bytes and bits sent, SEL and NVB included (§6.5.3.3).
    const int knownBits = (byteCount - 2) * 8 + bitCount;
    if (byteCount < 2 || bitCount > 7 || knownBits < 0 || knownBits >= 40 ||
        frame.size() != static_cast<std::size_t>(16 + knownBits)) {
        leaveOnError();
        return std::nullopt;
    }
    if (!std::equal(frame.begin() + 16, frame.end(), clBits.begin()))
        return std::nullopt;  // not my prefix: silent
    return Bits(clBits.begin() + knownBits, clBits.end());
}

}  // namespace vivaref::drivers::emulation
