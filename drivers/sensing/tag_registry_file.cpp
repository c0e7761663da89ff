#include "drivers/sensing/tag_registry_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>
#include <sys/stat.h>

namespace vivaref::drivers {
namespace {

constexpr const char* kFormat = "vivaref-tags";
constexpr int kVersion = 1;

int lineOfOffset(const std::string& text, std::size_t offset) {
    int line = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i)
        if (text[i] == '\n') ++line;
    return line;
}

// Where the `occurrence`-th (from 1) "key" is in the text, from `from` on:
// JSON keeps no positions once parsed, and our keys (UIDs, edition names)
// are distinctive.
std::size_t offsetOfKey(const std::string& text, const std::string& key, int occurrence = 1,
                        std::size_t from = 0) {
    const std::string quoted = "\"" + key + "\"";
    for (int seen = 0;; ++from) {
        from = text.find(quoted, from);
        if (from == std::string::npos || ++seen == occurrence) return from;
    }
}

int lineOfKey(const std::string& text, const std::string& key, int occurrence = 1, std::size_t from = 0) {
    const std::size_t at = offsetOfKey(text, key, occurrence, from);
    return at == std::string::npos ? 0 : lineOfOffset(text, at);
}

bool isSlug(const std::string& s) {
    if (s.empty() || s.size() > 64) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
    return true;
}

struct DuplicateKey {
    std::string key;
    int occurrence;
};

nlohmann::ordered_json parseStrictly(const std::filesystem::path& file, const std::string& text) {
    // nlohmann keeps the last of two equal keys without a word: catch them here.
    std::vector<std::map<std::string, int>> open;
    std::map<std::string, int> seenAnywhere;
    auto callback = [&](int, nlohmann::ordered_json::parse_event_t event, nlohmann::ordered_json& parsed) {
        using E = nlohmann::ordered_json::parse_event_t;
        if (event == E::object_start) open.emplace_back();
        if (event == E::object_end && !open.empty()) open.pop_back();
        if (event == E::key && !open.empty()) {
            const auto key = parsed.get<std::string>();
            const int occurrence = ++seenAnywhere[key];
            if (++open.back()[key] > 1) throw DuplicateKey{key, occurrence};
        }
        return true;
    };
    try {
        return nlohmann::ordered_json::parse(text, callback);
    } catch (const DuplicateKey& d) {
        throw TagRegistryFileError(file, lineOfKey(text, d.key, d.occurrence),
                                   "\"" + d.key + "\" is given twice");
    } catch (const nlohmann::ordered_json::parse_error& e) {
        const int line = lineOfOffset(text, e.byte > 0 ? e.byte - 1 : 0);
        throw TagRegistryFileError(file, line, "not valid JSON (is it the tag registry?)");
    } catch (const nlohmann::ordered_json::out_of_range&) {
        // The parser's other refusal: a number too large for a double (1e400).
        throw TagRegistryFileError(file, 0, "holds a number too large to read (is it the tag registry?)");
    }
}

TagRegistries fromJson(const std::filesystem::path& file, const std::string& text) {
    const nlohmann::ordered_json root = parseStrictly(file, text);
    auto fail = [&](int line, const std::string& what) { throw TagRegistryFileError(file, line, what); };
    if (!root.is_object() || !root.contains("format") || root["format"] != kFormat)
        fail(1, "not a vivaref tag registry (it needs \"format\": \"vivaref-tags\")");
    if (!root.contains("version") || !root["version"].is_number_integer())
        fail(lineOfKey(text, "format"), "it has no \"version\" number");
    if (root["version"].get<long long>() < 1)
        fail(lineOfKey(text, "version"), "version " + root["version"].dump() + " is not a version");
    if (root["version"].get<long long>() > kVersion)
        fail(lineOfKey(text, "version"), "written by a newer vivaref (version " + root["version"].dump() +
                                             "); this one reads version " + std::to_string(kVersion));
    for (const auto& [key, value] : root.items()) {
        if (key != "format" && key != "version" && key != "editions")
            fail(lineOfKey(text, key), "unknown key \"" + key + "\"");
    }
    TagRegistries registries;
    if (!root.contains("editions")) return registries;
    if (!root["editions"].is_object()) fail(lineOfKey(text, "editions"), "\"editions\" is not an object");
    for (const auto& [edition, tags] : root["editions"].items()) {
        const std::size_t editionAt = offsetOfKey(text, edition, 1, offsetOfKey(text, "editions"));
        if (!tags.is_object())
            fail(lineOfKey(text, edition), "edition \"" + edition + "\" is not an object of UID: character");
        TagRegistry& registry = registries[edition];
        for (const auto& [uidText, slug] : tags.items()) {
            const int line = lineOfKey(text, uidText, 1, editionAt == std::string::npos ? 0 : editionAt);
            std::string why;
            const auto uid = TagUid::tryFromHex(uidText, why);
            if (!uid) fail(line, why);
            if (uid->toHex() != uidText) fail(line, "tag UID \"" + uidText + "\" is not in uppercase hex");
            if (!slug.is_string() || !isSlug(slug.get<std::string>()))
                fail(line,
                     "tag " + uidText + ": " + slug.dump() + " is not a character slug (e.g. \"odessa\")");
            const CharacterSlug character{slug.get<std::string>()};
            if (auto other = registry.findCharacter(character)) {
                fail(line, "character \"" + character.name + "\" has two tags in edition \"" + edition +
                               "\": " + registry.uid(*other).toHex() + " and " + uidText);
            }
            registry.enrol(*uid, character);
        }
    }
    return registries;
}

std::string toJson(const TagRegistries& registries) {
    nlohmann::ordered_json editions = nlohmann::ordered_json::object();
    for (const auto& [edition, registry] : registries) {
        nlohmann::ordered_json tags = nlohmann::ordered_json::object();
        for (TagIndex i = 0; i < registry.size(); ++i)
            tags[registry.uid(i).toHex()] = registry.character(i).name;
        editions[edition] = std::move(tags);
    }
    nlohmann::ordered_json root = {
        {"format", kFormat}, {"version", kVersion}, {"editions", std::move(editions)}};
    return root.dump(2) + "\n";
}

[[noreturn]] void throwErrno(const std::filesystem::path& file, const std::string& doing) {
    throw std::system_error(errno, std::generic_category(), "tag registry " + file.string() + ": " + doing);
}

// Writes all of `data` to `fd`.
bool writeAll(int fd, const std::string& data) {
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace

TagRegistryFileError::TagRegistryFileError(const std::filesystem::path& file, int line,
                                           const std::string& what)
    : std::runtime_error("tag registry " + file.string() + (line > 0 ? ":" + std::to_string(line) : "") +
                         ": " + what),
      line_(line) {}

TagRegistries loadTagRegistries(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) throw TagRegistryFileError(file, 0, "no such file");
    if (std::filesystem::is_directory(file, ec)) throw TagRegistryFileError(file, 0, "this is a directory");
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw TagRegistryFileError(
            file, 0, "cannot open it: " + std::error_code(errno, std::generic_category()).message());
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw TagRegistryFileError(file, 0, "cannot read it");
    return fromJson(file, std::move(text).str());
}

TagRegistries parseTagRegistries(const std::string& text, const std::filesystem::path& file) {
    return fromJson(file, text);
}

std::string tagRegistriesText(const TagRegistries& registries) { return toJson(registries); }

TagRegistries loadTagRegistriesIfPresent(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return {};
    return loadTagRegistries(file);
}

void saveTagRegistries(const std::filesystem::path& file, const TagRegistries& registries) {
    const std::filesystem::path directory = file.has_parent_path() ? file.parent_path() : ".";
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec) throw std::system_error(ec, "tag registry " + file.string() + ": cannot create its directory");

    std::string temporary = (directory / ("." + file.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(temporary.data());
    if (fd < 0) throwErrno(file, "cannot create a temporary file beside it");
    const std::string data = toJson(registries);
    const bool written = writeAll(fd, data) && ::fchmod(fd, 0644) == 0 && ::fsync(fd) == 0;
    const int savedErrno = errno;
    ::close(fd);
    if (!written) {
        ::unlink(temporary.c_str());
        errno = savedErrno;
        throwErrno(file, "cannot write it");
    }
    if (::rename(temporary.c_str(), file.c_str()) != 0) {
        const int renameErrno = errno;
        ::unlink(temporary.c_str());
        errno = renameErrno;
        throwErrno(file, "cannot replace it");
    }
    // The rename itself is durable only once the directory is.
    const int dir = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
}

}  // namespace vivaref::drivers
