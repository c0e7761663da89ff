#include "daemon/words/name_text.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

namespace vivaref::words {

namespace {

// Calls `each(character, index from 1)` for each code point of UTF-8 text
// until it returns true; false when the text is not UTF-8 (a name that
// passed record::playerNameIssue always is).
template <class Each>
bool forEachCharacter(std::string_view text, Each each) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
    const auto length = static_cast<std::int32_t>(text.size());
    std::size_t index = 0;
    for (std::int32_t i = 0; i < length;) {
        UChar32 c = 0;
        U8_NEXT(bytes, i, length, c);
        if (c < 0) return false;
        if (each(static_cast<char32_t>(c), ++index)) return true;
    }
    return true;
}

bool isNameSpace(UChar32 c) { return u_isUWhiteSpace(c) != 0; }

}  // namespace

bool isBidiControl(char32_t c) {
    return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_BIDI_CONTROL) != 0;
}

bool showsNothing(char32_t character) {
    const auto c = static_cast<UChar32>(character);
    if (u_isUWhiteSpace(c) || u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT)) return true;
    if (c == 0x2800) return true;  // BRAILLE PATTERN BLANK: a symbol that draws nothing
    // Letters, numbers, punctuation, symbols and spacing marks show; a
    // nonspacing or enclosing mark shows only on something else.
    constexpr auto kShown = U_GC_L_MASK | U_GC_N_MASK | U_GC_P_MASK | U_GC_S_MASK | U_GC_MC_MASK;
    return (U_GET_GC_MASK(c) & kShown) == 0;
}

std::optional<NameCharacter> firstBidiControl(std::string_view name) {
    std::optional<NameCharacter> found;
    forEachCharacter(name, [&](char32_t c, std::size_t at) {
        if (isBidiControl(c)) found = NameCharacter{at, c};
        return found.has_value();
    });
    return found;
}

bool showsSomething(std::string_view name) {
    bool shows = false;
    forEachCharacter(name, [&](char32_t c, std::size_t) {
        shows = !showsNothing(c);
        return shows;
    });
    return shows;
}

std::string nameKey(std::string_view name) {
    UErrorCode status = U_ZERO_ERROR;
    const auto* fold = icu::Normalizer2::getNFKCCasefoldInstance(status);
    const auto text =
        icu::UnicodeString::fromUTF8(icu::StringPiece(name.data(), static_cast<std::int32_t>(name.size())));
    icu::UnicodeString folded = U_SUCCESS(status) ? fold->normalize(text, status) : text;
    if (U_FAILURE(status)) folded = text;
    // Spaces: none at the ends, one for each run inside.
    icu::UnicodeString spaced;
    bool pendingSpace = false;
    for (std::int32_t i = 0; i < folded.length();) {
        const UChar32 c = folded.char32At(i);
        i += U16_LENGTH(c);
        if (isNameSpace(c)) {
            pendingSpace = !spaced.isEmpty();
            continue;
        }
        if (pendingSpace) spaced.append(static_cast<UChar>(u' '));
        pendingSpace = false;
        spaced.append(c);
    }
    std::string out;
    spaced.toUTF8String(out);
    return out;
}

std::string looseNameKey(std::string_view name) {
    UErrorCode status = U_ZERO_ERROR;
    const auto* nfd = icu::Normalizer2::getNFDInstance(status);
    const auto text =
        icu::UnicodeString::fromUTF8(icu::StringPiece(name.data(), static_cast<std::int32_t>(name.size())));
    const icu::UnicodeString decomposed = U_SUCCESS(status) ? nfd->normalize(text, status) : text;
    icu::UnicodeString bare;
    for (std::int32_t i = 0; i < decomposed.length();) {
        const UChar32 c = decomposed.char32At(i);
        i += U16_LENGTH(c);
        if (u_charType(c) != U_NON_SPACING_MARK) bare.append(c);
    }
    std::string out;
    bare.toUTF8String(out);
    return nameKey(out);
}

std::string withoutBidiControls(std::string_view name) {
    std::string out;
    out.reserve(name.size());
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(name.data());
    const auto length = static_cast<std::int32_t>(name.size());
    for (std::int32_t i = 0; i < length;) {
        const std::int32_t start = i;
        UChar32 c = 0;
        U8_NEXT(bytes, i, length, c);
        if (c >= 0 && isBidiControl(static_cast<char32_t>(c))) continue;
        out.append(name.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(i - start)));
    }
    return out;
}

}  // namespace vivaref::words
