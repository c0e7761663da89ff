#include "daemon/server/player_tokens.hpp"

#include "daemon/server/secret_token.hpp"

namespace vivaref::server {

void PlayerTokens::issue(int players) {
    tokens_.clear();
    for (int p = 0; p < players; ++p) tokens_.push_back(randomToken());
}

bool PlayerTokens::renew(int player) {
    if (player < 0 || player >= static_cast<int>(tokens_.size())) return false;
    tokens_[static_cast<std::size_t>(player)] = randomToken();
    return true;
}

std::optional<int> PlayerTokens::find(std::string_view token) const {
    std::optional<int> found;
    // No early exit: every token is compared whatever matched before.
    for (std::size_t p = 0; p < tokens_.size(); ++p)
        if (tokensEqual(token, tokens_[p])) found = static_cast<int>(p);
    return found;
}

}  // namespace vivaref::server
