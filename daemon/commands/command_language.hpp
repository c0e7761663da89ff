// The language a command tells a story in (`show`, `analyse`): --lang, else
// the locale, as POSIX orders it: LC_ALL, then LC_MESSAGES, then LANG, the
// first one set and not empty ("fr_FR.UTF-8" is French); a locale vivaref
// does not speak ("C", "es_ES.UTF-8") is English. The command line's own
// help and errors stay English.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <boost/program_options.hpp>

namespace vivaref::daemon {

// Adds --lang LANG to a command's options.
void addLanguageOption(boost::program_options::options_description& options, std::string& language);

// The language for `asked` (--lang: empty when not given): a shipped one
// ("fr" for "fr", "FR" or "fr-CH"), or nothing with `why` naming the
// shipped languages when --lang names another.
std::optional<std::string> commandLanguage(std::string_view asked, std::string& why);

// The shipped language of the locale's environment (LC_ALL, LC_MESSAGES,
// LANG), English when none matches. `environment` reads a variable (getenv
// for the commands; a test's own).
std::string localeLanguage(std::string_view (*environment)(const char* name));

}  // namespace vivaref::daemon
