// The catalogs: for each language vivaref ships, what each message code
// says, as an ICU MessageFormat pattern ("Floor {floor} already holds
// {limit} characters."). One JSON object per language, a code to a pattern;
// English is complete by definition, and any other language falls back to
// it for a code it lacks (a test keeps every shipped catalog complete).
//
// What a catalog may hold, besides text: {name} (a parameter),
// {name, plural, one {...} other {...}} with # for the number,
// {name, select, a {...} other {...}}. No ASCII apostrophe: ICU would read
// one before a brace as a quote; write the typographic ’ instead.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vivaref::words {

inline constexpr std::string_view kFallbackLanguage = "en";

// A catalog file as compiled in: its language (the file's name) and text.
struct CatalogSource {
    std::string_view language;
    std::string_view text;
};
const std::vector<CatalogSource>& catalogSources();

class Catalog {
public:
    // Throws std::runtime_error naming the language and the problem for a
    // catalog that is not an object of strings.
    Catalog(std::string language, std::string_view json);

    const std::string& language() const { return language_; }
    const std::string* pattern(std::string_view code) const;  // null if the catalog lacks it
    const std::map<std::string, std::string, std::less<>>& patterns() const { return patterns_; }

private:
    std::string language_;
    std::map<std::string, std::string, std::less<>> patterns_;
};

// The shipped catalogs, read once: "de", "en", "fr", "it".
const std::vector<Catalog>& shippedCatalogs();
std::vector<std::string> shippedLanguages();
const Catalog* findCatalog(std::string_view language);

// The shipped language that best serves a preference ("fr-CH", "de_DE.UTF-8",
// "it"): the same language whatever the region, else none.
std::optional<std::string> matchLanguage(std::string_view preference);

}  // namespace vivaref::words
