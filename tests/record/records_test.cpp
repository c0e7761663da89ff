// The example records of tests/records replay to their expected results
// (compared as JSON here; the ctest tests compare vivaref's printed text).
#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "daemon/words/words.hpp"
#include "engine/record/replay.hpp"

namespace vivaref::record_test {

namespace {

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("record: every example record replays to its expected result") {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(VIVAREF_TEST_RECORDS)) {
        if (entry.path().extension() != ".jsonl") continue;
        auto expectedPath = entry.path();
        expectedPath.replace_extension(".expected.json");
        CAPTURE(entry.path().filename().string());
        REQUIRE(std::filesystem::exists(expectedPath));
        CHECK(record::replayRecord(slurp(entry.path()), words::inEnglish) ==
              nlohmann::json::parse(slurp(expectedPath)));
        ++count;
    }
    CHECK(count >= 10);
}

}  // namespace vivaref::record_test
