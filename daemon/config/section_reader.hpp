// The entries of one section of a castle configuration, handed out key by
// key to the code that knows the section: typed values read and checked on
// the way, and at the end every key nobody asked for reported as unknown,
// with the list of the keys the section has.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "daemon/config/castle_config.hpp"
#include "daemon/config/config_problem.hpp"
#include "daemon/config/config_values.hpp"
#include "daemon/config/ini_reader.hpp"

namespace vivaref::config {

class SectionReader {
public:
    SectionReader(std::string name, int line, std::vector<const IniEntry*> entries, const std::string& file,
                  ConfigProblems& problems)
        : name_(std::move(name)),
          line_(line),
          entries_(std::move(entries)),
          file_(file),
          problems_(problems) {}

    const std::string& name() const { return name_; }
    int line() const { return line_; }

    // The entry of `key`, or null when the section has none; `key` is known from now on.
    const IniEntry* take(std::string_view key);
    // Every entry whose key starts with `prefix` ("place.").
    std::vector<const IniEntry*> takePrefixed(std::string_view prefix);

    void problem(const IniEntry& e, std::string reason);
    // About a key the section lacks: at the section's header.
    void missing(std::string_view key, std::string reason);

    // Typed values: `target` keeps its default when the key is absent or bad.
    void integer(std::string_view key, std::int64_t min, std::int64_t max, auto& target) {
        if (const IniEntry* e = take(key)) {
            std::string why;
            if (auto v = parseInteger(e->value, min, max, why))
                target = static_cast<std::remove_reference_t<decltype(target)>>(*v);
            else
                problem(*e, why);
        }
    }
    void millis(std::string_view key, std::int64_t min, std::int64_t max, Timestamp& target);
    void boolean(std::string_view key, bool& target);

    void reportUnknown();

private:
    std::string name_;
    int line_;
    std::vector<const IniEntry*> entries_;
    const std::string& file_;
    ConfigProblems& problems_;
    std::vector<std::string> known_;
    std::set<const IniEntry*> taken_;
};

}  // namespace vivaref::config
