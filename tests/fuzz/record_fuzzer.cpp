// libFuzzer target: any byte string is a record's text, and replayRecord must
// answer it with a result object (tests/fuzz/record_invariants.hpp).
// Run by `.ci/dev test`; by hand: build/fuzz/tests/fuzz/record_fuzzer CORPUS_DIR.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tests/fuzz/record_invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::string problem = vivaref::fuzz::replayProblem(text);
    if (!problem.empty()) {
        std::fprintf(stderr, "vivaref fuzz invariant broken: %s\n", problem.c_str());
        std::abort();
    }
    return 0;
}
