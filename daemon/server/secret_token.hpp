// Secrets handed to people: the per-player links and, when the
// configuration names none, nothing else; and the seed of each game's own
// deals, which no one is handed. A token is 32 random bytes from the
// kernel (getrandom), written as 64 lowercase hex digits so it fits a URL
// path and a QR code without escaping. Tokens are compared in constant time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace vivaref::server {

inline constexpr std::size_t kTokenBytes = 32;

// A fresh token. Throws std::system_error when the kernel gives no randomness.
std::string randomToken();

// A fresh seed for one game's own deals and piles, from the same kernel
// generator: no game's seed follows from another's. Throws as randomToken.
std::uint64_t randomSeed();

// True when `given` equals `expected`, taking the same time whatever the
// first differing character: see the definition.
bool tokensEqual(std::string_view given, std::string_view expected);

}  // namespace vivaref::server
