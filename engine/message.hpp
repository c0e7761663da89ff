// What vivaref says to people, as data: a stable code and named, typed
// parameters, never a finished sentence. The words live in one catalog per
// language (daemon/words/catalogs/LANG.json), keyed by the code; pages, the
// voice and `vivaref show` render a message at the edge, in the language of
// whoever reads or hears it (STYLE 14). The engine only says which message
// and with what; it never holds words.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "engine/ids.hpp"

namespace vivaref::engine {

struct Character;
struct Message;

// One parameter's value. A character, a place, a seat, a player, a card, a
// number, a list of those, or a message inside the message. Text is shown as
// written, in no language: what a record or a file says (a format error's
// detail, for the programs and people who write records by hand).
struct MessageValue {
    enum class Kind : std::uint8_t {
        Number,
        Character,
        Place,
        Seat,
        Player,
        Vote,
        Ambition,
        List,
        Message,
        Text
    };

    Kind kind = Kind::Number;
    std::int64_t number = 0;    // Number; Seat: the seat's index (shown from 1)
    std::string text;           // Character: slug; Place, Vote, Ambition: record spelling; Player: name;
                                // Text: as written
    std::string name;           // Character: its name (characters keep their names in every language)
    std::string characterKind;  // Character: "woman", "man", "dog", "jester" (for a language's agreement)
    std::vector<MessageValue> items;  // List
    std::vector<Message> inner;       // Message: exactly one

    friend bool operator==(const MessageValue&, const MessageValue&);
};

struct MessageArg {
    std::string name;
    MessageValue value;
    friend bool operator==(const MessageArg&, const MessageArg&);
};

struct Message {
    std::string code;  // "refusal.floor-full": a catalog key
    std::vector<MessageArg> args;

    Message() = default;
    explicit Message(std::string c, std::initializer_list<MessageArg> a = {}) : code(std::move(c)), args(a) {}

    // The parameter of that name, or null.
    const MessageValue* arg(std::string_view argName) const;
    friend bool operator==(const Message&, const Message&);
};

// The parameters' makers: Message("refusal.floor-full", {{"floor", say::number(3)}}).
namespace say {
MessageValue number(std::int64_t n);
MessageValue character(const Character& c);
MessageValue character(std::string slug, std::string name, std::string kind = {});
MessageValue place(Place p);
MessageValue seat(Seat s);
MessageValue player(std::string name);
MessageValue vote(VoteCard c);
MessageValue ambition(AmbitionCard c);
MessageValue list(std::vector<MessageValue> items);
MessageValue message(Message m);
MessageValue text(std::string words);
}  // namespace say

// How a layer that must write a sentence (a GAME-RECORD result's "message")
// gets one without knowing any language: the caller renders.
using MessageText = std::function<std::string(const Message&)>;

// "refusal.floor-full{floor=3, limit=4}": for programmers (exceptions, test
// failures), never for a player.
std::string describe(const Message& m);

}  // namespace vivaref::engine
