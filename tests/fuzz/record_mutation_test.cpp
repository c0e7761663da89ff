// The fuzz target's checks in the ordinary test run (ASan/UBSan, g++): every
// bundled record, a few edge-case texts and a few hundred deterministic
// mutations of each record go through replayRecord, which must answer each
// with a result object (tests/fuzz/record_invariants.hpp).
//
// Usage: record_mutation_test RECORDS_DIR [MUTATIONS_PER_RECORD [SEED]]
// A failing input is written to the current folder for `vivaref replay`.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/record_invariants.hpp"
#include "tests/fuzz/record_mutator.hpp"

namespace {

constexpr std::uint64_t kDefaultSeed = 20241121;
constexpr int kDefaultMutations = 300;
constexpr int kShownFailures = 10;  // the rest are only counted

struct Seed {
    std::string name;
    std::string text;
};

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Texts no record is, but that replayRecord must answer all the same.
std::vector<Seed> edgeCases() {
    using namespace std::string_literals;
    return {
        {"empty", ""},
        {"blank-lines", "\n\n\n"},
        {"not-json", "king me!\n"},
        {"json-array", "[]\n"},
        {"json-null", "null\n"},
        {"empty-object", "{}\n"},
        {"cut-setup", "{\"setup\": {\"edition\": \"classic\", \"seats\"\n"},
        {"setup-only", "{\"setup\": {\"edition\": \"classic\", \"seats\": 4}}\n"},
        {"nul-byte", "{\"setup\": {\"edition\": \"classic\"\0, \"seats\": 4}}\n"s},
        {"invalid-utf8", "{\"setup\": {\"edition\": \"\xff\xfe\", \"seats\": 4}}\n"},
        {"deep-nesting", std::string(5000, '[') + std::string(5000, ']') + "\n"},
        {"long-line", "{\"setup\": {\"edition\": \"" + std::string(100000, 'x') + "\"}}\n"},
    };
}

// FNV-1a, so that each case's seed depends on the record's name, not on
// how many records come before it.
std::uint64_t hashName(const std::string& name) {
    std::uint64_t h = 1469598103934665603ull;
    for (const unsigned char c : name) h = (h ^ c) * 1099511628211ull;
    return h;
}

// Shows a failure and writes its input next to the test, for `vivaref replay`.
void report(const std::string& what, std::uint64_t caseSeed, const std::string& problem,
            const std::string& input) {
    const std::string file = "record_mutation_failure_" + std::to_string(caseSeed) + ".jsonl";
    std::ofstream(file, std::ios::binary) << input;
    std::cerr << "FAILED: " << what << " (case seed " << caseSeed << "): " << problem << "\n"
              << "  input written to " << std::filesystem::absolute(file).string() << "\n";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 4) {
        std::cerr << "usage: record_mutation_test RECORDS_DIR [MUTATIONS_PER_RECORD [SEED]]\n";
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    const int mutations = argc > 2 ? std::atoi(argv[2]) : kDefaultMutations;
    const std::uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : kDefaultSeed;

    // A missing or empty folder is only a warning: the edge cases still run.
    std::error_code error;
    std::vector<Seed> records;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
        if (entry.path().extension() == ".jsonl") {
            records.push_back({entry.path().filename().string(), readFile(entry.path())});
        }
    }
    if (error) std::cout << "warning: cannot read " << dir.string() << ": " << error.message() << "\n";
    if (records.empty()) std::cout << "warning: no .jsonl record in " << dir.string() << "\n";
    std::sort(records.begin(), records.end(), [](const Seed& a, const Seed& b) { return a.name < b.name; });
    std::cout << "record_mutation_test: " << records.size() << " records in " << dir.string() << ", "
              << mutations << " mutations each, seed " << seed << "\n";

    int runs = 0;
    int failures = 0;
    auto check = [&](const std::string& what, std::uint64_t caseSeed, const std::string& text) {
        ++runs;
        const std::string problem = vivaref::fuzz::replayProblem(text);
        if (problem.empty()) return;
        if (++failures <= kShownFailures) report(what, caseSeed, problem, text);
    };

    for (const auto& edge : edgeCases()) check("edge case " + edge.name, seed, edge.text);
    for (const auto& record : records) {
        check("record " + record.name, seed, record.text);
        for (int i = 0; i < mutations; ++i) {
            const std::uint64_t caseSeed =
                seed ^ hashName(record.name) ^ (static_cast<std::uint64_t>(i) << 40);
            vivaref::fuzz::RecordMutator mutator(caseSeed);
            std::string description;
            const std::string mutant = mutator.mutate(record.text, &description);
            std::ostringstream what;
            what << "record " << record.name << ", mutation " << i << " [" << description << "]";
            check(what.str(), caseSeed, mutant);
        }
    }

    std::cout << "record_mutation_test: " << runs - failures << " passed, " << failures << " failed"
              << " (seed " << seed << "; rerun: record_mutation_test " << dir.string() << " " << mutations
              << " " << seed << ")\n";
    return failures == 0 ? 0 : 1;
}
