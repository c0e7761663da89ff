#include "daemon/config/section_reader.hpp"

#include <algorithm>

namespace vivaref::config {

const IniEntry* SectionReader::take(std::string_view key) {
    if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.emplace_back(key);
    for (const IniEntry* e : entries_) {
        if (e->key == key) {
            taken_.insert(e);
            return e;
        }
    }
    return nullptr;
}

std::vector<const IniEntry*> SectionReader::takePrefixed(std::string_view prefix) {
    known_.push_back(std::string(prefix) + "...");
    std::vector<const IniEntry*> out;
    for (const IniEntry* e : entries_) {
        if (e->key.starts_with(prefix)) {
            taken_.insert(e);
            out.push_back(e);
        }
    }
    return out;
}

void SectionReader::problem(const IniEntry& e, std::string reason) {
    problems_.push_back({file_, e.line, e.fullKey(), std::move(reason)});
}

void SectionReader::missing(std::string_view key, std::string reason) {
    problems_.push_back({file_, line_, name_ + "." + std::string(key), std::move(reason)});
}

void SectionReader::millis(std::string_view key, std::int64_t min, std::int64_t max, Timestamp& target) {
    std::int64_t ms = target.count();
    integer(key, min, max, ms);
    target = Timestamp(ms);
}

void SectionReader::boolean(std::string_view key, bool& target) {
    if (const IniEntry* e = take(key)) {
        std::string why;
        if (auto v = parseBoolean(e->value, why))
            target = *v;
        else
            problem(*e, why);
    }
}

void SectionReader::reportUnknown() {
    for (const IniEntry* e : entries_) {
        if (taken_.contains(e)) continue;
        std::string keys;
        for (const auto& k : known_) keys += (keys.empty() ? "" : ", ") + k;
        problem(*e, "unknown key in [" + name_ + "]; its keys are " + keys);
    }
}

}  // namespace vivaref::config
