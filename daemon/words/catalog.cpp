#include "daemon/words/catalog.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace vivaref::words {

Catalog::Catalog(std::string language, std::string_view json) : language_(std::move(language)) {
    const auto parsed = nlohmann::json::parse(json, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object())
        throw std::runtime_error("catalog " + language_ + ": not a JSON object");
    for (const auto& [code, pattern] : parsed.items()) {
        if (!pattern.is_string())
            throw std::runtime_error("catalog " + language_ + ": \"" + code + "\" is not a string");
        patterns_.emplace(code, pattern.get<std::string>());
    }
}

const std::string* Catalog::pattern(std::string_view code) const {
    const auto it = patterns_.find(code);
    return it == patterns_.end() ? nullptr : &it->second;
}

const std::vector<Catalog>& shippedCatalogs() {
    static const std::vector<Catalog> catalogs = [] {
        std::vector<Catalog> all;
        for (const auto& source : catalogSources())
            all.emplace_back(std::string(source.language), source.text);
        return all;
    }();
    return catalogs;
}

std::vector<std::string> shippedLanguages() {
    std::vector<std::string> languages;
    for (const auto& c : shippedCatalogs()) languages.push_back(c.language());
    return languages;
}

const Catalog* findCatalog(std::string_view language) {
    for (const auto& c : shippedCatalogs())
        if (c.language() == language) return &c;
    return nullptr;
}

std::optional<std::string> matchLanguage(std::string_view preference) {
    std::string primary;
    for (char ch : preference) {
        if (!std::isalpha(static_cast<unsigned char>(ch))) break;
        primary += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    if (findCatalog(primary)) return primary;
    return std::nullopt;
}

}  // namespace vivaref::words
