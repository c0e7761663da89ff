// The enrolment: which tag UID belongs to which character. Only enrolled UIDs
// count; anything else a reader reports (a stray card, a UID mangled by a
// collision the chip did not catch) is an unknown tag, reported and never used.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "drivers/rfid/tag_uid.hpp"
#include "drivers/sensing/sensing_types.hpp"

namespace vivaref::drivers {

using TagIndex = std::size_t;

class TagRegistry {
public:
    // Throws std::invalid_argument when the UID or the character is already enrolled.
    void enrol(const TagUid& uid, CharacterSlug character);

    std::size_t size() const { return uids_.size(); }
    std::optional<TagIndex> find(const TagUid& uid) const;
    std::optional<TagIndex> findCharacter(const CharacterSlug& character) const;
    const TagUid& uid(TagIndex index) const { return uids_[index]; }
    const CharacterSlug& character(TagIndex index) const { return characters_[index]; }

private:
    std::vector<TagUid> uids_;
    std::vector<CharacterSlug> characters_;
    std::map<TagUid, TagIndex> indexByUid_;
    std::map<CharacterSlug, TagIndex> indexByCharacter_;
};

// A character's tag when the enrolment names no UID (the simulated castle's,
// a table given no registry, a custom roster's new slug): a 7-byte UID
// derived from the slug (NXP's manufacturer byte 0x04, then a hash), the
// same on every run.
TagUid simulatedTagUid(std::string_view slug);

}  // namespace vivaref::drivers
