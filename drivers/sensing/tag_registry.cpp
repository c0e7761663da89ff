#include "drivers/sensing/tag_registry.hpp"

#include <stdexcept>

namespace vivaref::drivers {

TagUid simulatedTagUid(std::string_view slug) {
    std::uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits
    for (char c : slug) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 1099511628211ull;
    }
    std::uint8_t bytes[7] = {0x04};
    for (int i = 1; i < 7; ++i) bytes[i] = static_cast<std::uint8_t>(hash >> (8 * (i - 1)));
    return TagUid(bytes);
}

void TagRegistry::enrol(const TagUid& uid, CharacterSlug character) {
    if (indexByUid_.contains(uid)) {
        throw std::invalid_argument("tag registry: tag " + uid.toHex() + " is enrolled twice");
    }
    if (indexByCharacter_.contains(character)) {
        throw std::invalid_argument("tag registry: character \"" + character.name + "\" has two tags");
    }
    const TagIndex index = uids_.size();
    indexByUid_.emplace(uid, index);
    indexByCharacter_.emplace(character, index);
    uids_.push_back(uid);
    characters_.push_back(std::move(character));
}

std::optional<TagIndex> TagRegistry::find(const TagUid& uid) const {
    if (auto it = indexByUid_.find(uid); it != indexByUid_.end()) return it->second;
    return std::nullopt;
}

std::optional<TagIndex> TagRegistry::findCharacter(const CharacterSlug& character) const {
    if (auto it = indexByCharacter_.find(character); it != indexByCharacter_.end()) return it->second;
    return std::nullopt;
}

}  // namespace vivaref::drivers
