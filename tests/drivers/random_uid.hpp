// UIDs for emulated tags drawn from a seeded generator, as a real tag could
// carry them: the cascade tag value (0x88) never where a cascade level's UID
// bytes begin (ISO/IEC 14443-3 §6.5.4), since a reader would take it for the
// sign that more levels follow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace vivaref::drivers::emulation {

// `uid` with the first byte of each level's UID bytes (the 1st, 4th and 7th)
// moved off the cascade tag value.
inline std::vector<std::uint8_t> withoutCascadeTags(std::vector<std::uint8_t> uid) {
    for (std::size_t start = 0; start + 4 <= uid.size(); start += 3) {
        if (uid[start] == 0x88) uid[start] = 0x08;
    }
    return uid;
}

// Any bytes, 4, 7 or 10 of them at random.
inline std::vector<std::uint8_t> randomUid(std::mt19937_64& rng) {
    static constexpr std::size_t kSizes[] = {4, 7, 10};
    std::vector<std::uint8_t> uid(kSizes[rng() % 3]);
    for (auto& b : uid) b = static_cast<std::uint8_t>(rng());
    return withoutCascadeTags(std::move(uid));
}

// `size` bytes as tags from one maker carry them: the first byte fixed (NXP's
// 0x04 for 7 and 10 bytes; a 4-byte NUID's 0x1A), so a box of them often
// collides in its first bits, the rest at random.
inline std::vector<std::uint8_t> makersUid(std::mt19937_64& rng, std::size_t size) {
    std::vector<std::uint8_t> uid(size);
    for (auto& b : uid) b = static_cast<std::uint8_t>(rng());
    uid[0] = size == 4 ? 0x1A : 0x04;
    return withoutCascadeTags(std::move(uid));
}

}  // namespace vivaref::drivers::emulation
