// The tag registries on disk: which tag belongs to which character, one
// registry per edition's set of pieces (a classic set and a 2024 set each
// have their own tags, and both have a "leonardo"). One JSON file in the
// daemon's state directory (tags.json), written by `vivaref enrol` and
// readable by hand:
//
//   {"format": "vivaref-tags", "version": 1,
//    "editions": {"classic": {"04A1B2C3D4E5F6": "odessa", ...}, "2024": {...}}}
//
// Edition names are opaque here: the daemon says which one it wants.
#pragma once

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

#include "drivers/sensing/tag_registry.hpp"

namespace vivaref::drivers {

using TagRegistries = std::map<std::string, TagRegistry>;  // by edition name

// A registry file that cannot be used: the message names the file, the line
// when there is one, and what is wrong.
class TagRegistryFileError : public std::runtime_error {
public:
    TagRegistryFileError(const std::filesystem::path& file, int line, const std::string& what);
    int line() const { return line_; }

private:
    int line_;
};

// Throws TagRegistryFileError for a file that is missing, unreadable, not
// JSON, from a newer vivaref, or that enrols a tag or a character twice.
TagRegistries loadTagRegistries(const std::filesystem::path& file);
// The same, but a missing file is an empty set (nothing enrolled yet).
TagRegistries loadTagRegistriesIfPresent(const std::filesystem::path& file);
// The file's text already read (`file` only names it in errors): what
// loadTagRegistries does after reading. The fuzz target (tests/fuzz) calls it.
TagRegistries parseTagRegistries(const std::string& text, const std::filesystem::path& file);
// The text saveTagRegistries writes; parseTagRegistries reads it back the same.
std::string tagRegistriesText(const TagRegistries& registries);

// Replaces the file atomically: a temporary file beside it, written and
// synced, renamed over it, and the directory synced; a crash leaves the old
// file or the new one, never half of one. Creates the directory if needed.
// Throws std::system_error naming the file.
void saveTagRegistries(const std::filesystem::path& file, const TagRegistries& registries);

}  // namespace vivaref::drivers
