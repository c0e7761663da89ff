// A message in words: engine::Message rendered from a language's catalog
// (catalog.hpp) with ICU's MessageFormat, so plurals, numbers and lists
// follow that language's rules. What each kind of parameter becomes:
//   a number            itself (plural and select may choose on it)
//   a seat              its number from 1
//   a character         its name (characters keep their names; the Jester,
//                       a part, is the catalog's "character.jester"); beside
//                       it NAME_kind (woman, man, dog, jester; man when
//                       unknown) for a language's agreement
//   a place             the catalog's "place.floor" {floor}, "place.throne",
//                       "place.wc" {floor}, "place.dungeon" {number}, ...;
//                       and beside it NAME_to, NAME_from and NAME_on: the
//                       place with its preposition ("place.to.throne": "au
//                       trône", "place.on.floor": "à l’étage {floor}"),
//                       which each language writes once for all messages;
//                       and NAME_kind (floor, throne, wc, dungeon, box,
//                       reserve, throne-side) and NAME_number (the floor,
//                       the WC's floor, the dungeon's number) for a select
//   a player            the name between Unicode isolates (FSI ... PDI), so
//                       a name in a right-to-left script, or one holding
//                       bidi controls, cannot reorder the sentence around it
//   a vote card         "vote.yes", "vote.no", "vote.stomachache"
//   an Ambition card    "ambition.SLUG"
//   a list              its items joined by the language's "and" list
//   a message           that message, rendered in the same language
//   text                as written
// The browser renders the same catalogs the same way (web-ui/js/words.js,
// with Intl); a test renders every example in both and compares.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "daemon/words/catalog.hpp"
#include "engine/message.hpp"

namespace vivaref::words {

// How a player's name is set off from the sentence around it. Isolated
// (FSI ... PDI) wherever a renderer may reorder text: pages, the voice, the
// API. Plain for a terminal: terminals reorder nothing, a pager shows the
// isolates as <U+2068>, and a name's own controls are escaped on the way
// out (daemon/commands/terminal_text.hpp).
enum class NameMarks : std::uint8_t { Isolated, Plain };

class Words {
public:
    // A shipped language ("fr"); anything else is English.
    explicit Words(std::string_view language = kFallbackLanguage, NameMarks marks = NameMarks::Isolated);
    // A catalog of one's own (a test's), falling back to the shipped English;
    // it must outlive the Words.
    explicit Words(const Catalog& catalog) : catalog_(&catalog) {}

    const std::string& language() const { return catalog_->language(); }

    // In this language; a code the catalog lacks in English; a code no
    // catalog has (a bug, caught by tests) as "[code]".
    std::string say(const engine::Message& message) const;
    std::string say(std::string_view code) const { return say(engine::Message(std::string(code))); }

    // Like say, but an empty string where the pattern is missing or does not
    // render (a test's way to find holes, without the fallback).
    std::string sayStrictly(const engine::Message& message) const;

private:
    std::string render(const Catalog& catalog, const engine::Message& message, bool strict) const;

    const Catalog* catalog_;
    NameMarks marks_ = NameMarks::Isolated;
};

// English words: the text that travels beside a message for old clients,
// and what logs and the command line print.
const Words& english();
// The same as a function: an engine::MessageText for the record's results.
std::string inEnglish(const engine::Message& message);

}  // namespace vivaref::words
