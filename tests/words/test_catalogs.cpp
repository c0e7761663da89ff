// The shipped catalogs against English, the examples and the sources: a
// language file that lacks a code, has one too many, uses other parameters,
// or cannot render an example fails here, naming the language and the code.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <unicode/messagepattern.h>

#include "daemon/words/catalog.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"
#include "engine/ids.hpp"

namespace vivaref::words {
namespace {

using nlohmann::json;

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const Catalog& englishCatalog() {
    const auto* english = findCatalog(kFallbackLanguage);
    REQUIRE(english);
    return *english;
}

// A pattern's parameters, with NAME_kind and NAME_number counted as NAME
// (words.hpp: what a place brings beside it). Empty and `ok` false when the
// pattern does not parse.
std::set<std::string> parametersOf(const std::string& pattern, bool& ok) {
    UErrorCode status = U_ZERO_ERROR;
    UParseError where;
    icu::MessagePattern parsed(icu::UnicodeString::fromUTF8(pattern), &where, status);
    ok = U_SUCCESS(status);
    std::set<std::string> names;
    if (!ok) return names;
    for (int i = 0; i < parsed.countParts(); ++i) {
        const auto& part = parsed.getPart(i);
        if (part.getType() != UMSGPAT_PART_TYPE_ARG_NAME) continue;
        std::string name;
        parsed.getSubstring(part).toUTF8String(name);
        for (const std::string suffix : {"_kind", "_number", "_to", "_from", "_on"})
            if (name.size() > suffix.size() && name.ends_with(suffix))
                name.resize(name.size() - suffix.size());
        names.insert(name);
    }
    return names;
}

json examples() { return json::parse(slurp(VIVAREF_WORDS_EXAMPLES)); }

}  // namespace

TEST_CASE("catalogs: four languages ship, and each has exactly English's codes") {
    const auto languages = shippedLanguages();
    CHECK(languages == std::vector<std::string>{"de", "en", "fr", "it"});
    const auto& english = englishCatalog();
    for (const auto& catalog : shippedCatalogs()) {
        for (const auto& [code, pattern] : english.patterns())
            CHECK_MESSAGE(catalog.pattern(code), catalog.language() << " lacks " << code);
        for (const auto& [code, pattern] : catalog.patterns())
            CHECK_MESSAGE(english.pattern(code), catalog.language()
                                                     << " has " << code << ", which English has not");
    }
}

TEST_CASE("catalogs: every pattern parses, has no ASCII apostrophe, and asks for English's parameters") {
    const auto& english = englishCatalog();
    for (const auto& catalog : shippedCatalogs())
        for (const auto& [code, pattern] : catalog.patterns()) {
            INFO(catalog.language() << " " << code << ": " << pattern);
            bool parses = false;
            const auto names = parametersOf(pattern, parses);
            CHECK(parses);
            // ICU reads an apostrophe before a brace as a quote: catalogs write ’.
            CHECK(pattern.find('\'') == std::string::npos);
            bool englishParses = false;
            if (const auto* theirs = english.pattern(code))
                CHECK(names == parametersOf(*theirs, englishParses));
        }
}

TEST_CASE(
    "catalogs: every code has examples, each gives exactly its parameters and renders in every language") {
    const auto all = examples();
    const auto& english = englishCatalog();
    for (const auto& [code, pattern] : english.patterns())
        CHECK_MESSAGE(all.contains(code), "no example for " << code << " in tests/words/examples.json");
    for (const auto& [code, cases] : all.items()) {
        INFO(code);
        REQUIRE(english.pattern(code));
        bool parses = false;
        const auto wanted = parametersOf(*english.pattern(code), parses);
        REQUIRE(cases.is_array());
        CHECK(!cases.empty());
        for (const auto& args : cases) {
            const auto message = messageFromJson(json{{"code", code}, {"args", args}});
            std::set<std::string> given;
            for (const auto& arg : message.args) given.insert(arg.name);
            CHECK_MESSAGE(given == wanted,
                          "the example " << args.dump() << " does not give exactly the parameters");
            for (const auto& language : shippedLanguages()) {
                const auto text = Words(language).sayStrictly(message);
                INFO(language << ": " << text);
                CHECK(!text.empty());
                CHECK(text.find('{') == std::string::npos);
                CHECK(text.find('}') == std::string::npos);
            }
        }
    }
}

TEST_CASE("catalogs: every place, vote card and Ambition card of the engine has words in every language") {
    std::vector<engine::Message> named;
    for (int p = 0; p < engine::kPlaceCount; ++p)
        named.emplace_back("test.place", std::initializer_list<engine::MessageArg>{
                                             {"p", engine::say::place(static_cast<engine::Place>(p))}});
    for (auto c : {engine::VoteCard::Yes, engine::VoteCard::No, engine::VoteCard::Stomachache})
        named.emplace_back("test.vote",
                           std::initializer_list<engine::MessageArg>{{"p", engine::say::vote(c)}});
    for (int a = 0; a < engine::kAmbitionCardCount; ++a)
        named.emplace_back("test.ambition",
                           std::initializer_list<engine::MessageArg>{
                               {"p", engine::say::ambition(static_cast<engine::AmbitionCard>(a))}});
    for (const auto& language : shippedLanguages()) {
        // The language's catalog and three patterns that show their parameter.
        auto patterns = json::object();
        for (const auto& [code, pattern] : findCatalog(language)->patterns()) patterns[code] = pattern;
        for (const auto* code : {"test.place", "test.vote", "test.ambition"}) patterns[code] = "{p}";
        const Catalog withTests(language, patterns.dump());
        Words words(withTests);
        for (const auto& m : named) {
            INFO(language << " " << describe(m));
            const auto text = words.sayStrictly(m);
            CHECK(!text.empty());
        }
    }
}

TEST_CASE("catalogs: every code the sources say is in English, and every English code is said") {
    const auto& english = englishCatalog();
    std::set<std::string> families;  // "refusal", "referee", ...
    for (const auto& [code, pattern] : english.patterns()) families.insert(code.substr(0, code.find('.')));
    // Built from a value where they are rendered (words.cpp), not written out.
    const std::set<std::string> built = {"place", "vote", "ambition"};

    // A code in C++ is a "string"; in a page's script '...', "..." or `...`
    // (a backquote in a C++ comment names something else). A quoted run of
    // [a-z0-9.-] whose first segment is a catalog family is a code said.
    // (By hand, not std::regex: GCC 12 under ASan warns inside <regex>.)
    auto codesIn = [&](const std::string& text, std::string_view quotes) {
        std::vector<std::string> codes;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (quotes.find(text[i]) == std::string_view::npos) continue;
            std::size_t end = i + 1;
            while (end < text.size() && (std::islower(static_cast<unsigned char>(text[end])) ||
                                         std::isdigit(static_cast<unsigned char>(text[end])) ||
                                         text[end] == '.' || text[end] == '-'))
                ++end;
            if (end >= text.size() || quotes.find(text[end]) == std::string_view::npos) continue;
            const std::string word = text.substr(i + 1, end - i - 1);
            const auto dot = word.find('.');
            if (dot != std::string::npos && dot + 1 < word.size() && families.contains(word.substr(0, dot)))
                codes.push_back(word);
            i = end - 1;  // the closing quote may open the next literal
        }
        return codes;
    };
    std::set<std::string> said;
    std::map<std::string, std::string> where;
    const std::filesystem::path root = VIVAREF_SOURCE_DIR;
    for (const auto* folder : {"engine", "daemon", "drivers", "web-ui"})
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root / folder)) {
            const auto ext = entry.path().extension();
            if (!entry.is_regular_file() ||
                (ext != ".cpp" && ext != ".hpp" && ext != ".js" && ext != ".html"))
                continue;
            const bool cpp = ext == ".cpp" || ext == ".hpp";
            for (const auto& code : codesIn(slurp(entry.path()), cpp ? "\"" : "\"'`")) {
                said.insert(code);
                where.emplace(code, std::filesystem::relative(entry.path(), root).string());
            }
        }
    for (const auto& code : said)
        CHECK_MESSAGE(english.pattern(code), where[code] << " says " << code << ", which no catalog has");
    for (const auto& [code, pattern] : english.patterns()) {
        if (built.contains(code.substr(0, code.find('.')))) continue;
        CHECK_MESSAGE(said.contains(code), code << " is in the catalogs but nothing says it");
    }
}

}  // namespace vivaref::words
