// What every fuzz target does with a broken invariant: says which and
// aborts, so that libFuzzer saves the input and the corpus replay fails.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace vivaref::fuzz {

[[noreturn]] inline void broken(const std::string& what) {
    std::fprintf(stderr, "vivaref fuzz invariant broken: %s\n", what.c_str());
    std::abort();
}

}  // namespace vivaref::fuzz
