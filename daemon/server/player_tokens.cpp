#include "daemon/server/player_tokens.hpp"

#include "daemon/server/secret_token.hpp"

namespace vivaref::server {

void PlayerTokens::issue(const std::vector<bool>& person) {
    tokens_.clear();
    for (const bool gets : person) tokens_.push_back(gets ? randomToken() : std::string());
}

bool PlayerTokens::renew(int player) {
    if (player < 0 || player >= static_cast<int>(tokens_.size())) return false;
    auto& token = tokens_[static_cast<std::size_t>(player)];
    if (token.empty()) return false;
    token = randomToken();
    return true;
}

std::optional<int> PlayerTokens::find(std::string_view token) const {
    std::optional<int> found;
    // No early exit: every token is compared whatever matched before. A
    // player without a link has no token to match (an empty one would match
    // an empty request).
    for (std::size_t p = 0; p < tokens_.size(); ++p)
        if (tokensEqual(token, tokens_[p]) && !tokens_[p].empty()) found = static_cast<int>(p);
    return found;
}

}  // namespace vivaref::server
