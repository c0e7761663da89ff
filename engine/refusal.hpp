// A refusal: what the engine answers to an action that breaks a rule, with a
// stable code (GAME-RECORD's list) and a sentence a player understands.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace vivaref::engine {

enum class RefusalCode : std::uint8_t {
    BadRecord,
    BadSetup,
    BadDeal,
    BadPile,
    WrongPhase,
    NotYourTurn,
    UnknownSeat,
    UnknownPlayer,
    UnknownCharacter,
    UnknownPlace,
    UnknownCard,
    AlreadyPlaced,
    FloorNotAllowed,
    FloorFull,
    FloorNotFull,
    WcOccupied,
    NotAdjacent,
    CharacterNotInCastle,
    CannotMove,
    CardNotHeld,
    AlreadyVoted,
    AlreadyKept,
    MustMove,
};

std::string_view refusalCodeName(RefusalCode code);  // "floor-full", ...

struct Refusal {
    RefusalCode code;
    std::string message;
    friend bool operator==(const Refusal&, const Refusal&) = default;
};

// How the rules' checks (state.cpp, ascent.cpp, election.cpp) answer.
inline Refusal refuse(RefusalCode code, std::string message) { return Refusal{code, std::move(message)}; }

}  // namespace vivaref::engine
