#include "drivers/buttons/button_source.hpp"

namespace vivaref::drivers {

const char* voteKeyName(VoteKey key) {
    switch (key) {
        case VoteKey::Yes:
            return "yes";
        case VoteKey::No:
            return "no";
        case VoteKey::Stomachache:
            return "stomachache";
    }
    return "?";
}

std::optional<VoteKey> voteKeyFromName(std::string_view name) {
    for (VoteKey key : {VoteKey::Yes, VoteKey::No, VoteKey::Stomachache}) {
        if (name == voteKeyName(key)) return key;
    }
    return std::nullopt;
}

}  // namespace vivaref::drivers
