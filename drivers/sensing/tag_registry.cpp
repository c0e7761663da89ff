#include "drivers/sensing/tag_registry.hpp"

#include <stdexcept>

namespace vivaref::drivers {

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
