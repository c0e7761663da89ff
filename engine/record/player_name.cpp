#include "engine/record/player_name.hpp"

#include <cstdio>

namespace vivaref::record {

namespace {

// C0 (tabs and newlines too: a name is one line), DEL and C1, whose 8-bit
// forms some terminals still obey.
bool isControl(std::uint32_t c) { return c < 0x20 || (c >= 0x7f && c <= 0x9f); }

PlayerNameIssue notUtf8(std::size_t byte) { return {PlayerNameIssue::Kind::NotUtf8, byte, 0, 0}; }

}  // namespace

std::string codePointText(std::uint32_t c) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "U+%04X", static_cast<unsigned>(c));
    return buffer;
}

std::optional<PlayerNameIssue> playerNameIssue(std::string_view name) {
    if (name.empty()) return PlayerNameIssue{};
    std::size_t characters = 0;
    for (std::size_t i = 0; i < name.size();) {
        const auto lead = static_cast<unsigned char>(name[i]);
        // The sequence's length and the smallest code point it may hold
        // (longer forms of smaller ones are not UTF-8).
        std::size_t length = 1;
        std::uint32_t c = lead, least = 0;
        if (lead >= 0xf0 && lead <= 0xf4) {
            length = 4, c = lead & 0x07u, least = 0x10000;
        } else if (lead >= 0xe0 && lead <= 0xef) {
            length = 3, c = lead & 0x0fu, least = 0x800;
        } else if (lead >= 0xc2 && lead <= 0xdf) {
            length = 2, c = lead & 0x1fu, least = 0x80;
        } else if (lead >= 0x80) {
            return notUtf8(i + 1);
        }
        // 0: it ends inside a character.
        if (i + length > name.size()) return notUtf8(0);
        for (std::size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(name[i + k]);
            if ((next & 0xc0u) != 0x80u) return notUtf8(i + k + 1);
            c = (c << 6) | (next & 0x3fu);
        }
        if (c < least || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return notUtf8(i + 1);
        ++characters;
        if (isControl(c)) return PlayerNameIssue{PlayerNameIssue::Kind::Control, characters, c, 0};
        i += length;
    }
    if (characters > kMaxPlayerNameLength)
        return PlayerNameIssue{PlayerNameIssue::Kind::TooLong, 0, 0, characters};
    return std::nullopt;
}

std::optional<std::string> playerNameProblem(std::string_view name) {
    const auto issue = playerNameIssue(name);
    if (!issue) return std::nullopt;
    switch (issue->kind) {
        case PlayerNameIssue::Kind::Empty:
            return "is empty";
        case PlayerNameIssue::Kind::NotUtf8:
            if (issue->at == 0) return "is not valid UTF-8 (it ends inside a character)";
            return "is not valid UTF-8 (byte " + std::to_string(issue->at) + ")";
        case PlayerNameIssue::Kind::Control:
            return "holds a control character (" + codePointText(issue->codePoint) + ") at character " +
                   std::to_string(issue->at);
        case PlayerNameIssue::Kind::TooLong:
            return "is " + std::to_string(issue->length) + " characters long; at most " +
                   std::to_string(kMaxPlayerNameLength);
    }
    return "is not a name";
}

}  // namespace vivaref::record
