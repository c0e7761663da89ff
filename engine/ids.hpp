// The strong types every layer above the engine names things with: seats,
// players, characters, places, vote cards and Ambition cards, with their
// record spellings (GAME-RECORD identifiers).
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string_view>

namespace vivaref::engine {

inline constexpr int kMaxSeats = 8;        // RULES §2: 2024 edition, 8 seats
inline constexpr int kMaxPlayers = 16;     // single-pawn teams: 8 teams of 2
inline constexpr int kMaxCharacters = 14;  // 13 and the 2024 Jester
inline constexpr int kFavouritesPerCard = 6;
inline constexpr int kFloors = 6;  // floors 0..5; the throne is "6"

// A value outside the valid range of a strong id is kept (not rejected at
// parse time) so that the engine reports it with its own code, in the order
// GAME-RECORD prescribes.
inline constexpr std::uint8_t kInvalidIndex = 0xFF;

struct Seat {
    std::uint8_t index = kInvalidIndex;
    friend bool operator==(Seat, Seat) = default;
    friend auto operator<=>(Seat, Seat) = default;  // a key of the referee's maps
};

struct PlayerId {
    std::uint8_t index = kInvalidIndex;
    friend bool operator==(PlayerId, PlayerId) = default;
};

struct CharacterId {
    std::uint8_t index = kInvalidIndex;
    friend bool operator==(CharacterId, CharacterId) = default;
};

enum class Place : std::uint8_t {
    Floor0,
    Floor1,
    Floor2,
    Floor3,
    Floor4,
    Floor5,
    Throne,
    Wc3,
    Wc4,
    Dungeon1,
    Dungeon2,
    Dungeon3,
    Box,
    Reserve,       // beside the board: not yet placed this round
    BesideThrone,  // royal couple: the first King, waiting for the second
    Unknown,
};

inline constexpr int kPlaceCount = static_cast<int>(Place::Unknown);

constexpr Place floorPlace(int floor) { return static_cast<Place>(floor); }
constexpr bool isFloor(Place p) { return p <= Place::Floor5; }
constexpr int floorOf(Place p) { return static_cast<int>(p); }  // floors and throne only
constexpr bool isWc(Place p) { return p == Place::Wc3 || p == Place::Wc4; }
constexpr bool isDungeon(Place p) { return p >= Place::Dungeon1 && p <= Place::Dungeon3; }
// Floors 0-5, the throne and the royal couple's first King: "in the castle"
// for tie-breaks (RULES §4).
constexpr bool isOnFloorsOrThrone(Place p) { return p <= Place::Throne || p == Place::BesideThrone; }

// The GAME-RECORD spelling ("0".."6", "wc3", "dungeon1", "box"); "reserve"
// and "throne-side" name the two places a record never moves a character to.
std::string_view placeName(Place p);
Place parsePlace(std::string_view name);  // Place::Unknown if not a place

enum class VoteCard : std::uint8_t { Yes, No, Stomachache, Unknown };
std::string_view voteCardName(VoteCard c);
VoteCard parseVoteCard(std::string_view name);

enum class AmbitionCard : std::uint8_t {
    JesterKing,
    ItsAQueen,
    ItsAKing,
    Wc0,
    Wc1,
    Wc2,
    NoFloors01,
    NoFloors23,
    NoFloors45,
    Dungeons1,
    Dungeons2,
    Dungeons3,
    NoWcNoDungeon,
    OnlyYes,
    FriendOfTheKing,
    Under11,
    Unknown,
};
inline constexpr int kAmbitionCardCount = static_cast<int>(AmbitionCard::Unknown);
std::string_view ambitionCardName(AmbitionCard c);
AmbitionCard parseAmbitionCard(std::string_view name);
int ambitionCardPoints(AmbitionCard c);  // RULES §5 table

}  // namespace vivaref::engine
