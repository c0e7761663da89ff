#include "daemon/commands/command_language.hpp"

#include <cstdlib>

#include "daemon/words/catalog.hpp"

namespace vivaref::daemon {

namespace {

std::string_view fromEnvironment(const char* name) {
    const char* value = std::getenv(name);
    return value ? std::string_view(value) : std::string_view();
}

}  // namespace

void addLanguageOption(boost::program_options::options_description& options, std::string& language) {
    std::string shipped;
    for (const auto& l : words::shippedLanguages()) shipped += (shipped.empty() ? "" : ", ") + l;
    options.add_options()("lang", boost::program_options::value(&language),
                          ("the language to tell it in: " + shipped +
                           " (default: the locale's, LC_ALL, LC_MESSAGES or LANG, else en)")
                              .c_str());
}

std::string localeLanguage(std::string_view (*environment)(const char* name)) {
    // POSIX: the first of these that is set and not empty decides messages.
    for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const auto value = environment(name);
        if (value.empty()) continue;
        return words::matchLanguage(value).value_or(std::string(words::kFallbackLanguage));
    }
    return std::string(words::kFallbackLanguage);
}

std::optional<std::string> commandLanguage(std::string_view asked, std::string& why) {
    if (asked.empty()) return localeLanguage(fromEnvironment);
    if (auto language = words::matchLanguage(asked)) return language;
    std::string shipped;
    for (const auto& l : words::shippedLanguages()) shipped += (shipped.empty() ? "" : ", ") + l;
    why = "--lang " + std::string(asked) + " is not a language vivaref speaks; it speaks " + shipped;
    return std::nullopt;
}

}  // namespace vivaref::daemon
