// CRC_A of ISO/IEC 14443-3 §6.2.4 and Annex B, written independently of the
// driver (which asks the chip's coprocessor): polynomial x^16 + x^12 + x^5 + 1,
// processed LSB first, preset 0x6363, no final inversion; sent low byte first.
#pragma once

#include <cstdint>
#include <span>

namespace vivaref::drivers::emulation {

inline std::uint16_t crcA(std::span<const std::uint8_t> data, std::uint16_t preset = 0x6363) {
    std::uint16_t crc = preset;
    for (std::uint8_t byte : data) {
        crc ^= byte;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 1) ? static_cast<std::uint16_t>((crc >> 1) ^ 0x8408) : crc >> 1;
    }
    return crc;
}

}  // namespace vivaref::drivers::emulation
