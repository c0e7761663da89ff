// Bad input never crashes: the full example mutated at random (bytes
// flipped, lines dropped, duplicated or swapped, text cut short) is always
// either valid or a list of problems, each with a line inside the file and a
// reason. Fixed seed, printed on failure; VIVAREF_CONFIG_SEED picks another.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <doctest/doctest.h>

#include "daemon/config/config_check.hpp"
#include "daemon/config/config_summary.hpp"

namespace vivaref::config {
namespace {

std::string readExample() {
    std::ifstream in(std::filesystem::path(VIVAREF_CONFIG_EXAMPLES) / "castle-2024.ini", std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return std::move(text).str();
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::string mutate(const std::string& original, std::mt19937_64& random) {
    auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
    std::vector<std::string> lines = splitLines(original);
    const int edits = 1 + static_cast<int>(pick(4));
    for (int e = 0; e < edits && !lines.empty(); ++e) {
        std::string& line = lines[pick(lines.size())];
        switch (pick(6)) {
            case 0:  // a byte anywhere, printable or not
                if (!line.empty()) line[pick(line.size())] = static_cast<char>(pick(256));
                break;
            case 1:
                lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(pick(lines.size())));
                break;
            case 2:
                lines.push_back(lines[pick(lines.size())]);
                break;
            case 3:
                std::swap(line, lines[pick(lines.size())]);
                break;
            case 4:  // a value replaced by one from another line
                if (auto eq = line.find('='); eq != std::string::npos) {
                    const std::string& other = lines[pick(lines.size())];
                    if (auto oe = other.find('='); oe != std::string::npos)
                        line = line.substr(0, eq) + other.substr(oe);
                }
                break;
            default:
                line = line.substr(0, pick(line.size() + 1));
                break;
        }
    }
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    return text;
}

TEST_CASE("the full example, mutated at random, gives problems with lines and reasons, never a crash") {
    std::uint64_t seed = 20261121;
    if (const char* s = std::getenv("VIVAREF_CONFIG_SEED")) seed = std::strtoull(s, nullptr, 10);
    CAPTURE(seed);
    std::mt19937_64 random(seed);
    const std::string original = readExample();
    int valid = 0;
    for (int round = 0; round < 1000; ++round) {
        const std::string text = mutate(original, random);
        CAPTURE(round);
        const auto check = checkCastleConfigText(text, "mutant.ini");
        const int lineCount = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
        for (const auto& p : check.problems) {
            REQUIRE(p.line >= 0);
            REQUIRE(p.line <= lineCount);
            REQUIRE_FALSE(p.reason.empty());
        }
        if (check.status == ConfigCheck::Status::Valid) {
            ++valid;
            REQUIRE_FALSE(summaryText(check.config).empty());
        }
    }
    MESSAGE(valid << " of 1000 mutants still valid (seed " << seed << ")");
}

}  // namespace
}  // namespace vivaref::config
