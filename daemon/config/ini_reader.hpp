// An INI file read with Boost.Program_options' config-file parser
// (`[section]`, then `key = value` lines; `#` starts a comment anywhere on a
// line), with what Boost does not keep: the line of every section and entry,
// so that every later problem can name it. A small pre-scan finds the lines
// and reports the ones Boost would reject (it throws at the first, with no line
// number); the lines it accepts go through Boost.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "daemon/config/config_problem.hpp"

namespace vivaref::config {

struct IniSection {
    std::string name;  // "reader.floor3-a"
    int line = 0;
};

struct IniEntry {
    std::string section;  // empty before the first header
    std::string key;
    std::string value;  // trimmed; may be empty
    int line = 0;
    std::string fullKey() const { return section.empty() ? key : section + "." + key; }
};

struct IniFile {
    std::vector<IniSection> sections;
    std::vector<IniEntry> entries;  // in file order
};

// Reads the text of `fileName`. A binary file gives one problem and nothing
// else; a line that is not a header, an entry, a comment or blank is a
// problem and is skipped, and the rest is still read.
IniFile readIni(std::string_view text, const std::string& fileName, ConfigProblems& problems);

}  // namespace vivaref::config
