// Players' names as text people read (daemon/words/name_text.hpp): what
// shows nothing, what is a direction control, when two names are the same.
#include <doctest/doctest.h>

#include "daemon/words/name_text.hpp"

namespace vivaref::words {

TEST_CASE("names: a name shows something when one character of it can be seen") {
    for (const char* seen : {"Ann", "Zoë", "\u05E2\u05D3\u05D9", "\u0644\u064A\u0644\u0649", "\u674E", "7",
                             "?", "\U0001F451", "  a  ", "\u200Ba"})
        CHECK_MESSAGE(showsSomething(seen), seen);
    // Spaces of every kind, zero-width and joining characters, direction
    // controls, Hangul fillers, the blank Braille pattern, a lone combining
    // mark, a variation selector, a tag, a private-use character.
    for (const char* nothing :
         {"   ", "\u00A0\u2003\u3000", "\u200B\u200C\u200D\u2060\uFEFF", "\u202E\u2066\u2069",
          "\u3164\u115F\uFFA0", "\u2800\u2800", "\u0301", "\uFE0F", "\U000E0041", "\uE000", "\u00AD"})
        CHECK_MESSAGE(!showsSomething(nothing), nothing);
}

TEST_CASE("names: the Bidi_Control characters, and where the first one is") {
    for (char32_t c : {U'\u061C', U'\u200E', U'\u200F', U'\u202A', U'\u202B', U'\u202C', U'\u202D', U'\u202E',
                       U'\u2066', U'\u2067', U'\u2068', U'\u2069'})
        CHECK(isBidiControl(c));
    for (char32_t c : {U'a', U'\u05D0', U'\u200B', U'\u200D', U'\u2060'}) CHECK_FALSE(isBidiControl(c));
    const auto found = firstBidiControl("Zoë\u202Eevil\u2066");
    REQUIRE(found);
    CHECK(found->at == 4);
    CHECK(found->c == U'\u202E');
    CHECK_FALSE(firstBidiControl("\u05E2\u05D3\u05D9 Cohen"));
    CHECK(withoutBidiControls("Eve\u2069\u202Eevil\u200F") == "Eveevil");
    CHECK(withoutBidiControls("\u05E2\u05D3\u05D9") == "\u05E2\u05D3\u05D9");
}

TEST_CASE("names: two names are the same after case, compatibility forms, invisible characters and spaces") {
    CHECK(nameKey("Ann") == nameKey("ANN"));
    CHECK(nameKey("Ann") == nameKey("  ann "));
    CHECK(nameKey("Ann") == nameKey("\uFF21\uFF4E\uFF4E"));  // fullwidth
    CHECK(nameKey("Ann") == nameKey("A\u200Bnn"));
    CHECK(nameKey("Ann Lee") == nameKey("Ann \u00A0 Lee"));
    CHECK(nameKey("Straße") == nameKey("STRASSE"));
    CHECK(nameKey("Zoë") == nameKey("Zoe\u0308"));  // composed or not
    CHECK(nameKey("Ann") != nameKey("Anna"));
    CHECK(nameKey("Zoë") != nameKey("Zoe"));
    CHECK(nameKey("\u05E2\u05D3\u05D9") != nameKey("\u05E2\u05D3"));
}

}  // namespace vivaref::words
