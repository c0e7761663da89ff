// A refusal: what the engine answers to an action that breaks a rule, with a
// stable code (GAME-RECORD's list) and the message that explains it to a
// player (engine/message.hpp: a catalog key and its parameters).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "engine/message.hpp"

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
    Message message;
    friend bool operator==(const Refusal&, const Refusal&) = default;
};

// How the rules' checks (state.cpp, ascent.cpp, election.cpp) answer.
inline Refusal refuse(RefusalCode code, Message message) { return Refusal{code, std::move(message)}; }

// A record's format problem ("\"seat\" must be a number"): words for the
// programs and people who write records by hand, kept as written
// ("record.format" shows them in every language).
inline Message formatProblem(std::string detail) {
    return Message("record.format", {{"detail", say::text(std::move(detail))}});
}

}  // namespace vivaref::engine
