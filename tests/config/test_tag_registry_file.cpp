// The tag registry on disk: a round trip, an atomic replace, and files that
// cannot be used, each named with its line and what is wrong.
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "drivers/sensing/tag_registry_file.hpp"

namespace vivaref::drivers {
namespace {

namespace fs = std::filesystem;

struct TempDir {
    fs::path path;
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "vivaref-tags-XXXXXX").string();
        path = ::mkdtemp(pattern.data());
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    fs::path write(const std::string& text) const {
        std::ofstream(path / "tags.json", std::ios::binary) << text;
        return path / "tags.json";
    }
};

// The message of the TagRegistryFileError that loading `text` throws.
std::string loadError(const TempDir& dir, const std::string& text) {
    const auto file = dir.write(text);
    try {
        (void)loadTagRegistries(file);
    } catch (const TagRegistryFileError& e) {
        const std::string what = e.what();
        const std::string prefix = "tag registry " + file.string();
        REQUIRE(what.starts_with(prefix));
        return what.substr(prefix.size());
    }
    return "no error";
}

const std::string kHeader = "{\n  \"format\": \"vivaref-tags\",\n  \"version\": 1,\n  \"editions\": {\n";

TEST_CASE("registries saved and loaded again are the same, in the same order") {
    TempDir dir;
    TagRegistries saved;
    saved["classic"].enrol(TagUid::fromHex("04A1B2C3D4E5F6"), {"odessa"});
    saved["classic"].enrol(TagUid::fromHex("0459AC12"), {"piero"});
    saved["2024"].enrol(TagUid::fromHex("04A1B2C3D4E5F6"), {"eloise"});  // one piece, two sets: allowed
    saved["2024"].enrol(TagUid::fromHex("04112233445566778899"), {"jester"});
    saved["empty"];
    const fs::path file = dir.path / "state" / "tags.json";  // the directory is made
    saveTagRegistries(file, saved);
    const TagRegistries loaded = loadTagRegistries(file);
    REQUIRE(loaded.size() == 3);
    for (const auto& entry : saved) {
        const std::string& edition = entry.first;  // no structured binding in CAPTURE (clang 14)
        const TagRegistry& registry = entry.second;
        CAPTURE(edition);
        const TagRegistry& again = loaded.at(edition);
        REQUIRE(again.size() == registry.size());
        for (TagIndex i = 0; i < registry.size(); ++i) {
            CHECK(again.uid(i) == registry.uid(i));
            CHECK(again.character(i) == registry.character(i));
        }
    }
    CHECK(loaded.at("2024").findCharacter({"jester"}).has_value());

    // Saving again replaces the file and leaves no temporary file behind.
    saved["classic"].enrol(TagUid::fromHex("04000000000001"), {"irina"});
    saveTagRegistries(file, saved);
    CHECK(loadTagRegistries(file).at("classic").size() == 3);
    int files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(file.parent_path())) ++files;
    CHECK(files == 1);
}

TEST_CASE("a missing registry is an error to load, or nothing enrolled yet") {
    TempDir dir;
    CHECK_THROWS_WITH_AS((void)loadTagRegistries(dir.path / "tags.json"),
                         ("tag registry " + (dir.path / "tags.json").string() + ": no such file").c_str(),
                         TagRegistryFileError);
    CHECK(loadTagRegistriesIfPresent(dir.path / "tags.json").empty());
    CHECK_THROWS_AS((void)loadTagRegistries(dir.path), TagRegistryFileError);
}

TEST_CASE("a registry that cannot be used says where and why") {
    TempDir dir;
    CHECK(loadError(dir, "") == ":1: not valid JSON (is it the tag registry?)");
    CHECK(loadError(dir,
                    kHeader + "    \"classic\": {\n      \"04A1B2C3D4E5F6\": \"odessa\",\n    }\n  }\n}\n") ==
          ":7: not valid JSON (is it the tag registry?)");
    CHECK(loadError(dir,
                    "\x7F"
                    "ELF\x02\x01") == ":1: not valid JSON (is it the tag registry?)");
    CHECK(loadError(dir, "[1, 2]") ==
          ":1: not a vivaref tag registry (it needs \"format\": \"vivaref-tags\")");
    CHECK(loadError(dir, "{\"format\": 7}") ==
          ":1: not a vivaref tag registry (it needs \"format\": \"vivaref-tags\")");
    CHECK(loadError(dir, "{\"format\": \"vivaref-tags\",\n\"version\": 2}") ==
          ":2: written by a newer vivaref (version 2); this one reads version 1");
    CHECK(loadError(dir, "{\"format\": \"vivaref-tags\", \"version\": 1,\n\"colour\": 1}") ==
          ":2: unknown key \"colour\"");
    CHECK(loadError(dir, kHeader + "    \"classic\": {\n      \"04A1B2\": \"odessa\"\n    }\n  }\n}\n") ==
          ":6: tag UID \"04A1B2\" has 6 hex digits; a UID has 8, 14 or 20");
    CHECK(loadError(dir, kHeader + "    \"classic\": {\n      \"04a1b2c3\": \"odessa\"\n    }\n  }\n}\n") ==
          ":6: tag UID \"04a1b2c3\" is not in uppercase hex");
    CHECK(loadError(dir, kHeader + "    \"classic\": {\n      \"04A1B2C3\": 12\n    }\n  }\n}\n") ==
          ":6: tag 04A1B2C3: 12 is not a character slug (e.g. \"odessa\")");
    CHECK(loadError(dir, kHeader + "    \"classic\": [1]\n  }\n}\n") ==
          ":5: edition \"classic\" is not an object of UID: character");
    // JSON would quietly keep the last of two equal keys: not here.
    CHECK(loadError(dir,
                    kHeader +
                        "    \"classic\": {\n      \"04A1B2C3\": \"odessa\",\n      \"04A1B2C3\": \"piero\"\n"
                        "    }\n  }\n}\n") == ":7: \"04A1B2C3\" is given twice");
    CHECK(loadError(
              dir, kHeader +
                       "    \"classic\": {\n      \"04A1B2C3\": \"odessa\",\n      \"04A1B2C4\": \"odessa\"\n"
                       "    }\n  }\n}\n") ==
          ":7: character \"odessa\" has two tags in edition \"classic\": 04A1B2C3 and 04A1B2C4");
    // The same UID in two editions is allowed; the line found is the one in the edition at fault.
    CHECK(loadError(dir, kHeader +
                             "    \"2024\": {\n      \"04A1B2C3\": \"eloise\"\n    },\n    \"classic\": {\n"
                             "      \"04A1B2C3\": \"Odessa!\"\n    }\n  }\n}\n") ==
          ":9: tag 04A1B2C3: \"Odessa!\" is not a character slug (e.g. \"odessa\")");
}

TEST_CASE("a registry that cannot be written says so and leaves the old file") {
    TempDir dir;
    const fs::path blocker = dir.path / "not-a-directory";
    std::ofstream(blocker) << "x";
    TagRegistries registries;
    registries["classic"].enrol(TagUid::fromHex("04A1B2C3"), {"odessa"});
    CHECK_THROWS_AS(saveTagRegistries(blocker / "tags.json", registries), std::system_error);

    const fs::path file = dir.path / "tags.json";
    saveTagRegistries(file, registries);
    fs::create_directory(dir.path / "tags.json.d");
    // A directory where the file should be: the rename fails, the temporary file goes.
    CHECK_THROWS_AS(saveTagRegistries(dir.path / "tags.json.d", registries), std::system_error);
    CHECK(loadTagRegistries(file).at("classic").size() == 1);
    int files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path)) ++files;
    CHECK(files == 3);  // not-a-directory, tags.json, tags.json.d
}

}  // namespace
}  // namespace vivaref::drivers
