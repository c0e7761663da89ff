// Frames on the 13.56 MHz link as the bits that travel, least significant bit
// of each byte first (ISO/IEC 14443-2/-3), so that tags can answer with a
// fraction of a byte and answers can collide bit by bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace vivaref::drivers::emulation {

using Bits = std::vector<std::uint8_t>;  // one 0 or 1 per element

inline Bits bitsOf(std::span<const std::uint8_t> bytes, std::size_t bitCount) {
    Bits bits;
    bits.reserve(bitCount);
    for (std::size_t i = 0; i < bitCount; ++i) bits.push_back((bytes[i / 8] >> (i % 8)) & 1);
    return bits;
}

inline Bits bitsOf(std::span<const std::uint8_t> bytes) { return bitsOf(bytes, bytes.size() * 8); }

// The value of bits [first, first + 8) as a byte (missing bits read 0).
inline std::uint8_t byteAt(const Bits& bits, std::size_t first) {
    std::uint8_t value = 0;
    for (std::size_t i = 0; i < 8 && first + i < bits.size(); ++i)
        value |= static_cast<std::uint8_t>(bits[first + i] << i);
    return value;
}

}  // namespace vivaref::drivers::emulation
