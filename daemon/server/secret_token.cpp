#include "daemon/server/secret_token.hpp"

#include <array>
#include <cerrno>
#include <cstdint>
#include <system_error>

#include <sys/random.h>

namespace vivaref::server {

namespace {

// `size` bytes from the kernel's generator into `into`.
void fillRandom(unsigned char* into, std::size_t size, const char* what) {
    std::size_t filled = 0;
    while (filled < size) {
        // getrandom blocks only until the kernel's pool is first seeded, and
        // may return fewer bytes or EINTR: loop.
        const ssize_t got = ::getrandom(into + filled, size - filled, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw std::system_error(errno, std::generic_category(), what);
        }
        filled += static_cast<std::size_t>(got);
    }
}

}  // namespace

std::uint64_t randomSeed() {
    std::array<unsigned char, sizeof(std::uint64_t)> bytes{};
    fillRandom(bytes.data(), bytes.size(), "getrandom for a game's seed");
    std::uint64_t seed = 0;
    for (unsigned char b : bytes) seed = (seed << 8) | b;
    return seed;
}

std::string randomToken() {
    std::array<unsigned char, kTokenBytes> bytes{};
    fillRandom(bytes.data(), bytes.size(), "getrandom for a token");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string token;
    token.reserve(bytes.size() * 2);
    for (unsigned char b : bytes) {
        token += kHex[b >> 4];
        token += kHex[b & 0xf];
    }
    return token;
}

// A plain == stops at the first differing byte, so the time it takes tells
// a guesser how many leading characters were right; guessing a token one
// character at a time would then take 16 x 64 tries instead of 16^64. Here
// every byte of `expected` is looked at, and differences are OR-ed together
// without a branch. The length is not secret (all tokens have the same one).
// volatile keeps the compiler from turning the loop back into an early exit.
bool tokensEqual(std::string_view given, std::string_view expected) {
    volatile std::uint8_t difference = given.size() == expected.size() ? 0 : 1;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const auto g = static_cast<std::uint8_t>(i < given.size() ? given[i] : 0);
        difference = difference | static_cast<std::uint8_t>(g ^ static_cast<std::uint8_t>(expected[i]));
    }
    return difference == 0;
}

}  // namespace vivaref::server
