#include "daemon/words/words.hpp"

#include <memory>
#include <vector>

#include <unicode/fmtable.h>
#include <unicode/listformatter.h>
#include <unicode/locid.h>
#include <unicode/msgfmt.h>
#include <unicode/unistr.h>

#include "daemon/words/name_text.hpp"

namespace vivaref::words {
namespace {

using engine::Message;
using engine::MessageValue;

icu::UnicodeString unicode(std::string_view text) {
    return icu::UnicodeString::fromUTF8(
        icu::StringPiece(text.data(), static_cast<std::int32_t>(text.size())));
}

std::string utf8(const icu::UnicodeString& text) {
    std::string out;
    text.toUTF8String(out);
    return out;
}

// "3" -> floor, "6" -> throne, "wc3" -> wc, ... and the number a pattern
// shows with it (a floor, a WC's floor, a dungeon's number).
struct PlaceWords {
    std::string kind;
    std::string code;
    std::string numberName;
    std::int64_t number = 0;
};

PlaceWords placeWords(std::string_view name) {
    if (name.size() == 1 && name[0] >= '0' && name[0] <= '5')
        return {"floor", "place.floor", "floor", name[0] - '0'};
    if (name == "6") return {"throne", "place.throne", "", 0};
    if (name.starts_with("wc") && name.size() == 3) return {"wc", "place.wc", "floor", name[2] - '0'};
    if (name.starts_with("dungeon") && name.size() == 8)
        return {"dungeon", "place.dungeon", "number", name[7] - '0'};
    return {std::string(name), "place." + std::string(name), "", 0};
}

constexpr std::string_view kIsolateStart = "\u2068";  // FIRST STRONG ISOLATE
constexpr std::string_view kIsolateEnd = "\u2069";    // POP DIRECTIONAL ISOLATE

}  // namespace

struct Rendering {
    const Catalog& catalog;
    bool strict;
    NameMarks marks;
    bool ok = true;

    std::string message(const Message& m);
    std::string value(const MessageValue& v);
    std::string list(const std::vector<MessageValue>& items);
};

std::string Rendering::value(const MessageValue& v) {
    using Kind = MessageValue::Kind;
    switch (v.kind) {
        case Kind::Number:
            return std::to_string(v.number);
        case Kind::Seat:
            return std::to_string(v.number + 1);
        case Kind::Character:
            // Characters keep their names in every language; the Jester's is
            // a title, said in the language ("character.jester").
            if (v.characterKind == "jester") return message(Message("character.jester"));
            return v.name.empty() ? v.text : v.name;
        case Kind::Text:
            return v.text;
        case Kind::Player:
            // On a terminal a name is as written: the commands escape its
            // controls on the way out (daemon/commands/terminal_text.hpp).
            if (marks == NameMarks::Plain) return v.text;
            return std::string(kIsolateStart) + withoutBidiControls(v.text) + std::string(kIsolateEnd);
        case Kind::Place: {
            const auto place = placeWords(v.text);
            Message m(place.code);
            if (!place.numberName.empty())
                m.args.push_back({place.numberName, engine::say::number(place.number)});
            return message(m);
        }
        case Kind::Vote:
            return message(Message("vote." + v.text));
        case Kind::Ambition:
            return message(Message("ambition." + v.text));
        case Kind::List:
            return list(v.items);
        case Kind::Message:
            return v.inner.empty() ? std::string() : message(v.inner.front());
    }
    return {};
}

std::string Rendering::list(const std::vector<MessageValue>& items) {
    std::vector<icu::UnicodeString> words;
    for (const auto& item : items) words.push_back(unicode(value(item)));
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::ListFormatter> format(icu::ListFormatter::createInstance(
        icu::Locale(catalog.language().c_str()), ULISTFMT_TYPE_AND, ULISTFMT_WIDTH_WIDE, status));
    icu::UnicodeString out;
    if (U_SUCCESS(status)) format->format(words.data(), static_cast<std::int32_t>(words.size()), out, status);
    if (U_FAILURE(status)) {
        ok = false;
        return {};
    }
    return utf8(out);
}

std::string Rendering::message(const Message& m) {
    const std::string* pattern = catalog.pattern(m.code);
    if (!pattern && !strict && catalog.language() != kFallbackLanguage)
        if (const auto* english = findCatalog(kFallbackLanguage)) pattern = english->pattern(m.code);
    if (!pattern) {
        ok = false;
        return "[" + m.code + "]";
    }
    std::vector<icu::UnicodeString> names;
    std::vector<icu::Formattable> values;
    for (const auto& arg : m.args) {
        names.push_back(unicode(arg.name));
        const auto& v = arg.value;
        if (v.kind == MessageValue::Kind::Number || v.kind == MessageValue::Kind::Seat)
            values.emplace_back(
                static_cast<std::int64_t>(v.kind == MessageValue::Kind::Seat ? v.number + 1 : v.number));
        else
            values.emplace_back(unicode(value(v)));
        if (v.kind == MessageValue::Kind::Character) {
            // For a language's agreement: "couronnée", "incoronata".
            names.push_back(unicode(arg.name + "_kind"));
            values.emplace_back(unicode(v.characterKind.empty() ? "man" : v.characterKind));
        }
        if (v.kind == MessageValue::Kind::Place) {
            const auto place = placeWords(v.text);
            names.push_back(unicode(arg.name + "_kind"));
            values.emplace_back(unicode(place.kind));
            names.push_back(unicode(arg.name + "_number"));
            values.emplace_back(place.number);
            // The place with its preposition, as the catalog writes each form
            // once ("place.to.throne": "au trône"): NAME_to, NAME_from, NAME_on.
            for (const std::string form : {"to", "from", "on"}) {
                Message withPreposition("place." + form + "." + place.kind);
                if (!place.numberName.empty())
                    withPreposition.args.push_back({place.numberName, engine::say::number(place.number)});
                names.push_back(unicode(arg.name + "_" + form));
                values.emplace_back(unicode(message(withPreposition)));
            }
        }
    }
    UErrorCode status = U_ZERO_ERROR;
    icu::MessageFormat format(unicode(*pattern), icu::Locale(catalog.language().c_str()), status);
    icu::UnicodeString out;
    if (U_SUCCESS(status))
        format.format(names.data(), values.data(), static_cast<std::int32_t>(names.size()), out, status);
    if (U_FAILURE(status)) {
        ok = false;
        return "[" + m.code + "]";
    }
    return utf8(out);
}

Words::Words(std::string_view language, NameMarks marks) : marks_(marks) {
    catalog_ = findCatalog(language);
    if (!catalog_) catalog_ = findCatalog(kFallbackLanguage);
    if (!catalog_) catalog_ = &shippedCatalogs().front();
}

std::string Words::say(const engine::Message& message) const { return render(*catalog_, message, false); }

std::string Words::sayStrictly(const engine::Message& message) const {
    return render(*catalog_, message, true);
}

std::string Words::render(const Catalog& catalog, const engine::Message& message, bool strict) const {
    Rendering rendering{catalog, strict, marks_};
    auto text = rendering.message(message);
    return strict && !rendering.ok ? std::string() : text;
}

const Words& english() {
    static const Words words(kFallbackLanguage);
    return words;
}

std::string inEnglish(const engine::Message& message) { return english().say(message); }

}  // namespace vivaref::words
