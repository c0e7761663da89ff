// Deterministic mutations of a game record's text, for the mutation test:
// byte noise, JSON token swaps and whole-line edits (dropped, repeated or
// reordered moves), so that mutants reach the rules as well as the parser.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <string_view>

namespace vivaref::fuzz {

class RecordMutator {
public:
    // The same seed and text give the same mutants on every platform.
    explicit RecordMutator(std::uint64_t seed) : rng_(seed) {}

    // One to three mutations of `text`, and a short description of them.
    std::string mutate(std::string_view text, std::string* description = nullptr);

private:
    std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : rng_() % n; }
    std::string mutateOnce(std::string text, std::string* description);

    std::mt19937_64 rng_;
};

}  // namespace vivaref::fuzz
