#include "daemon/server/player_tokens.hpp"

#include "daemon/server/secret_token.hpp"

namespace vivaref::server {

void PlayerTokens::issue(const std::vector<bool>& person) {
    tokens_.clear();
    for (const bool gets : person) tokens_.push_back(gets ? randomToken() : std::string());
    opened_.assign(tokens_.size(), std::nullopt);
}

bool PlayerTokens::renew(int player) {
    if (player < 0 || player >= static_cast<int>(tokens_.size())) return false;
    auto& token = tokens_[static_cast<std::size_t>(player)];
    if (token.empty()) return false;
    token = randomToken();
    opened_[static_cast<std::size_t>(player)].reset();
    return true;
}

bool PlayerTokens::adopt(const std::vector<std::string>& tokens,
                         const std::vector<std::optional<std::int64_t>>& opened,
                         const std::vector<bool>& person) {
    if (tokens.size() != person.size() || opened.size() != person.size()) return false;
    tokens_.clear();
    opened_.clear();
    for (std::size_t p = 0; p < person.size(); ++p) {
        if (!person[p]) {
            tokens_.emplace_back();
            opened_.emplace_back();
        } else if (tokens[p].empty()) {
            tokens_.push_back(randomToken());
            opened_.emplace_back();
        } else {
            tokens_.push_back(tokens[p]);
            opened_.push_back(opened[p]);
        }
    }
    return true;
}

bool PlayerTokens::markOpened(int player, std::int64_t atMs) {
    if (player < 0 || player >= static_cast<int>(opened_.size())) return false;
    auto& opened = opened_[static_cast<std::size_t>(player)];
    if (opened) return false;
    opened = atMs;
    return true;
}

std::optional<std::int64_t> PlayerTokens::openedAt(int player) const {
    if (player < 0 || player >= static_cast<int>(opened_.size())) return std::nullopt;
    return opened_[static_cast<std::size_t>(player)];
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
