// Players' names as text that people read (issue 33, item 5): a name may be
// written in any script, but it must show something, it must not be taken
// for another player's, and it must not reorder the sentence or the
// terminal line it is shown in. Unicode's character data from ICU.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace vivaref::words {

// Unicode's Bidi_Control characters: U+061C, U+200E, U+200F, U+202A to
// U+202E, U+2066 to U+2069 (marks, embeddings, overrides, isolates).
bool isBidiControl(char32_t c);

// A character that shows nothing by itself: white space, a control, format
// or unassigned character, a default-ignorable one (zero-width space and
// joiners, Hangul fillers, variation selectors, tags), a combining mark with
// nothing to combine with, the blank Braille pattern, a private-use one.
bool showsNothing(char32_t c);

// The first Bidi_Control character of a UTF-8 name and where (characters
// counted from 1); nullopt when there is none (or the text is not UTF-8).
struct NameCharacter {
    std::size_t at = 0;
    char32_t c = 0;
};
std::optional<NameCharacter> firstBidiControl(std::string_view name);

// Whether any character of a UTF-8 name shows something.
bool showsSomething(std::string_view name);

// What two names are compared by to find the same name twice: Unicode's
// NFKC_Casefold (compatibility forms and case folded, default-ignorable
// characters removed: "ANN", "ann", "Ａｎｎ" and "An<U+200B>n" are one), then
// white space trimmed at both ends and each run of it inside made one space.
std::string nameKey(std::string_view name);

// nameKey without the accents too (every nonspacing mark of the canonical
// decomposition dropped): "Eloïse" and "ELOISE" are one. For telling a
// player's name that reads as a character's (issue 34), not for two players.
std::string looseNameKey(std::string_view name);

// The name without its Bidi_Control characters: how a name is rendered
// between the isolates that keep it from reordering the sentence (a PDI
// inside would end the isolate early; an override inside has nothing left
// to do but reverse the name itself).
std::string withoutBidiControls(std::string_view name);

}  // namespace vivaref::words
