#include "engine/ids.hpp"

#include <array>

namespace vivaref::engine {
namespace {

constexpr std::array<std::string_view, kPlaceCount> kPlaceNames = {
    "0",   "1",        "2",        "3",        "4",   "5",       "6",          "wc3",
    "wc4", "dungeon1", "dungeon2", "dungeon3", "box", "reserve", "throne-side"};

constexpr std::array<std::string_view, 3> kVoteCardNames = {"yes", "no", "stomachache"};

struct AmbitionInfo {
    std::string_view slug;
    int points;
};
// RULES §5: the sixteen Ambition cards and their points.
constexpr std::array<AmbitionInfo, kAmbitionCardCount> kAmbition = {{
    {"jester-king", 5},
    {"its-a-queen", 3},
    {"its-a-king", 3},
    {"wc-0", 5},
    {"wc-1", 3},
    {"wc-2", 5},
    {"no-floors-0-1", 5},
    {"no-floors-2-3", 3},
    {"no-floors-4-5", 5},
    {"dungeons-1", 3},
    {"dungeons-2", 5},
    {"dungeons-3", 8},
    {"no-wc-no-dungeon", 8},
    {"only-yes", 3},
    {"friend-of-the-king", 3},
    {"under-11", 3},
}};

}  // namespace

std::string_view placeName(Place p) {
    auto i = static_cast<std::size_t>(p);
    return i < kPlaceNames.size() ? kPlaceNames[i] : std::string_view{"unknown"};
}

Place parsePlace(std::string_view name) {
    // "reserve" and "throne-side" are never destinations a record may name.
    for (std::size_t i = 0; i <= static_cast<std::size_t>(Place::Box); ++i)
        if (kPlaceNames[i] == name) return static_cast<Place>(i);
    return Place::Unknown;
}

std::string_view voteCardName(VoteCard c) {
    auto i = static_cast<std::size_t>(c);
    return i < kVoteCardNames.size() ? kVoteCardNames[i] : std::string_view{"unknown"};
}

VoteCard parseVoteCard(std::string_view name) {
    for (std::size_t i = 0; i < kVoteCardNames.size(); ++i)
        if (kVoteCardNames[i] == name) return static_cast<VoteCard>(i);
    return VoteCard::Unknown;
}

std::string_view ambitionCardName(AmbitionCard c) {
    auto i = static_cast<std::size_t>(c);
    return i < kAmbition.size() ? kAmbition[i].slug : std::string_view{"unknown"};
}

AmbitionCard parseAmbitionCard(std::string_view name) {
    for (std::size_t i = 0; i < kAmbition.size(); ++i)
        if (kAmbition[i].slug == name) return static_cast<AmbitionCard>(i);
    return AmbitionCard::Unknown;
}

int ambitionCardPoints(AmbitionCard c) {
    auto i = static_cast<std::size_t>(c);
    return i < kAmbition.size() ? kAmbition[i].points : 0;
}

}  // namespace vivaref::engine
