// The unique identifier of an ISO/IEC 14443-A tag: 4, 7 or 10 bytes
// (single, double or triple size, ISO/IEC 14443-3 §6.5.4). Written as
// uppercase hex without separators ("04A1B2C3D4E5F6"), the way the castle's
// configuration and logs name a character's tag.
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace vivaref::drivers {

class TagUid {
public:
    static constexpr std::size_t kMaxSize = 10;

    static bool isValidSize(std::size_t size) { return size == 4 || size == 7 || size == 10; }

    // Throws std::invalid_argument naming the bytes' count when it is not 4, 7 or 10.
    explicit TagUid(std::span<const std::uint8_t> bytes);

    // For configuration files at start-up: throws std::invalid_argument with
    // the text and the reason.
    static TagUid fromHex(std::string_view text);
    // Inside the loop: nullopt and `why` says what is wrong with the text.
    static std::optional<TagUid> tryFromHex(std::string_view text, std::string& why);

    std::span<const std::uint8_t> bytes() const { return {bytes_.data(), size_}; }
    std::size_t size() const { return size_; }
    std::string toHex() const;

    // Shorter UIDs first, then bytewise: a stable order for sets and logs.
    friend std::strong_ordering operator<=>(const TagUid& a, const TagUid& b);
    friend bool operator==(const TagUid& a, const TagUid& b) { return (a <=> b) == 0; }

private:
    std::array<std::uint8_t, kMaxSize> bytes_{};
    std::uint8_t size_ = 0;
};

}  // namespace vivaref::drivers
