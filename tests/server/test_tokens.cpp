// Secret tokens: long, random, and compared without an early exit.
#include <set>

#include <doctest/doctest.h>

#include "daemon/server/player_tokens.hpp"
#include "daemon/server/secret_token.hpp"

using namespace vivaref::server;

TEST_CASE("a token is 64 lowercase hex digits from the kernel, never twice the same") {
    std::set<std::string> seen;
    for (int i = 0; i < 100; ++i) {
        const auto token = randomToken();
        CHECK(token.size() == 64);
        CHECK(token.find_first_not_of("0123456789abcdef") == std::string::npos);
        CHECK(seen.insert(token).second);
    }
}

TEST_CASE("tokensEqual: equal only for the same bytes and length") {
    const std::string token = randomToken();
    CHECK(tokensEqual(token, token));
    CHECK(tokensEqual("", ""));
    std::string firstWrong = token, lastWrong = token;
    firstWrong.front() = firstWrong.front() == 'a' ? 'b' : 'a';
    lastWrong.back() = lastWrong.back() == 'a' ? 'b' : 'a';
    CHECK_FALSE(tokensEqual(firstWrong, token));
    CHECK_FALSE(tokensEqual(lastWrong, token));
    CHECK_FALSE(tokensEqual(token.substr(0, 63), token));  // a prefix
    CHECK_FALSE(tokensEqual(token + "0", token));          // longer
    CHECK_FALSE(tokensEqual("", token));
    CHECK_FALSE(tokensEqual(token, ""));
    // A difference only in a byte's high bit is still a difference.
    std::string highBit = token;
    highBit[10] = static_cast<char>(highBit[10] ^ 0x80);
    CHECK_FALSE(tokensEqual(highBit, token));
    // A NUL inside is compared like any byte.
    CHECK_FALSE(tokensEqual(std::string("ab\0d", 4), std::string("ab\0c", 4)));
    CHECK(tokensEqual(std::string("ab\0c", 4), std::string("ab\0c", 4)));
}

TEST_CASE("player tokens: each player finds their own; a new game forgets the old links") {
    PlayerTokens tokens;
    tokens.issue(std::vector<bool>(5, true));
    REQUIRE(tokens.tokens().size() == 5);
    for (int p = 0; p < 5; ++p) CHECK(tokens.find(tokens.tokens()[static_cast<std::size_t>(p)]) == p);
    CHECK_FALSE(tokens.find("").has_value());
    CHECK_FALSE(tokens.find(std::string(64, '0')).has_value());
    const auto old = tokens.tokens();
    tokens.issue(std::vector<bool>(3, true));
    CHECK(tokens.tokens().size() == 3);
    for (const auto& t : old) CHECK_FALSE(tokens.find(t).has_value());
    tokens.clear();
    CHECK_FALSE(tokens.find(old[0]).has_value());
}

TEST_CASE("player tokens: a player the referee plays (a bot) gets none, and no link finds it") {
    PlayerTokens tokens;
    tokens.issue({true, false, true});
    REQUIRE(tokens.tokens().size() == 3);
    CHECK(tokens.tokens()[0].size() == 64);
    CHECK(tokens.tokens()[1].empty());
    CHECK(tokens.find(tokens.tokens()[2]) == 2);
    CHECK_FALSE(tokens.find("").has_value());
    CHECK_FALSE(tokens.renew(1));
    CHECK(tokens.tokens()[1].empty());
    CHECK(tokens.renew(0));
}
