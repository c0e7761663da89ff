#include "drivers/rfid/tag_uid.hpp"

#include <algorithm>
#include <stdexcept>

namespace vivaref::drivers {
namespace {

int hexDigitValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

}  // namespace

TagUid::TagUid(std::span<const std::uint8_t> bytes) {
    if (!isValidSize(bytes.size())) {
        throw std::invalid_argument("a tag UID has 4, 7 or 10 bytes, not " + std::to_string(bytes.size()));
    }
    std::copy(bytes.begin(), bytes.end(), bytes_.begin());
    size_ = static_cast<std::uint8_t>(bytes.size());
}

std::optional<TagUid> TagUid::tryFromHex(std::string_view text, std::string& why) {
    if (text.size() % 2 != 0 || !isValidSize(text.size() / 2)) {
        why = "tag UID \"" + std::string(text) + "\" has " + std::to_string(text.size()) +
              " hex digits; a UID has 8, 14 or 20";
        return std::nullopt;
    }
    std::array<std::uint8_t, kMaxSize> bytes{};
    for (std::size_t i = 0; i < text.size(); ++i) {
        const int value = hexDigitValue(text[i]);
        if (value < 0) {
            why = "tag UID \"" + std::string(text) +
                  "\" has a character that is not a hex digit at position " + std::to_string(i + 1);
            return std::nullopt;
        }
        bytes[i / 2] = static_cast<std::uint8_t>((bytes[i / 2] << 4) | value);
    }
    return TagUid(std::span<const std::uint8_t>(bytes.data(), text.size() / 2));
}

TagUid TagUid::fromHex(std::string_view text) {
    std::string why;
    if (auto uid = tryFromHex(text, why)) return *uid;
    throw std::invalid_argument(why);
}

std::string TagUid::toHex() const {
    static constexpr char kDigits[] = "0123456789ABCDEF";
    std::string text;
    text.reserve(size_ * 2);
    for (std::uint8_t b : bytes()) {
        text.push_back(kDigits[b >> 4]);
        text.push_back(kDigits[b & 0x0F]);
    }
    return text;
}

std::strong_ordering operator<=>(const TagUid& a, const TagUid& b) {
    if (auto bySize = a.size_ <=> b.size_; bySize != 0) return bySize;
    return std::lexicographical_compare_three_way(a.bytes().begin(), a.bytes().end(), b.bytes().begin(),
                                                  b.bytes().end());
}

}  // namespace vivaref::drivers
