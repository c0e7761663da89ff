#include "engine/record/field_reader.hpp"

#include <algorithm>
#include <limits>

#include "engine/ids.hpp"

namespace vivaref::record {

using engine::RefusalCode;
using nlohmann::json;

std::string messageQuote(std::string_view s) {
    std::string out = "\"";
    for (char c : s.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    return out + "\"";
}

namespace {

std::string typeName(const json& v) {
    if (v.is_number_integer()) return "an integer";
    if (v.is_number()) return "a number with a fraction or exponent";
    if (v.is_string()) return "a string";
    if (v.is_boolean()) return "true or false";
    if (v.is_array()) return "a list";
    if (v.is_object()) return "an object";
    return "null";
}

}  // namespace

FieldReader::FieldReader(RefusalCode malformed, std::string_view line) : malformed_(malformed), line_(line) {}

void FieldReader::fail(RefusalCode code, std::string message) {
    if (!refusal_) refusal_ = engine::Refusal{code, engine::formatProblem(std::move(message))};
}

const json* FieldReader::object(const json& value, std::string_view what,
                                std::initializer_list<std::string_view> allowed) {
    if (!ok()) return nullptr;
    if (!value.is_object()) {
        fail(std::string(what) + " must be an object, not " + typeName(value) + ".");
        return nullptr;
    }
    for (const auto& [key, _] : value.items()) {
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
            fail(std::string(what) + " has an unknown key " + messageQuote(key) + ".");
            return nullptr;
        }
    }
    return &value;
}

const json* FieldReader::required(const json* object, std::string_view key) {
    if (!ok() || !object) return nullptr;
    auto it = object->find(key);
    if (it == object->end()) {
        fail(RefusalCode::BadRecord, "The " + line_ + " line misses its key " + messageQuote(key) + ".");
        return nullptr;
    }
    return &*it;
}

const json* FieldReader::optional(const json* object, std::string_view key) {
    if (!object) return nullptr;
    auto it = object->find(key);
    return it == object->end() ? nullptr : &*it;
}

std::string FieldReader::text(const json* value, std::string_view what) {
    if (!ok() || !value) return {};
    if (!value->is_string()) {
        fail(std::string(what) + " must be a string, not " + typeName(*value) + ".");
        return {};
    }
    return value->get<std::string>();
}

bool FieldReader::flag(const json* value, std::string_view what) {
    if (!ok() || !value) return false;
    if (!value->is_boolean()) {
        fail(std::string(what) + " must be true or false, not " + typeName(*value) + ".");
        return false;
    }
    return value->get<bool>();
}

int FieldReader::integer(const json* value, std::string_view what) {
    if (!ok() || !value) return 0;
    constexpr auto kMax = std::numeric_limits<int>::max();
    constexpr auto kMin = std::numeric_limits<int>::min();
    if (value->is_number_unsigned()) {
        auto v = value->get<std::uint64_t>();
        return v > static_cast<std::uint64_t>(kMax) ? kMax : static_cast<int>(v);
    }
    if (value->is_number_integer()) {
        auto v = value->get<std::int64_t>();
        return static_cast<int>(std::clamp<std::int64_t>(v, kMin, kMax));
    }
    fail(std::string(what) + " must be an integer, not " + typeName(*value) + ".");
    return 0;
}

std::uint8_t FieldReader::index(const json* value, std::string_view what) {
    int v = integer(value, what);
    if (!ok() || v < 0 || v >= engine::kInvalidIndex) return engine::kInvalidIndex;
    return static_cast<std::uint8_t>(v);
}

const json::array_t* FieldReader::list(const json* value, std::string_view what) {
    if (!ok() || !value) return nullptr;
    if (!value->is_array()) {
        fail(std::string(what) + " must be a list, not " + typeName(*value) + ".");
        return nullptr;
    }
    return value->get_ptr<const json::array_t*>();
}

void FieldReader::notInPlay(std::string_view key, std::string_view why) {
    fail("The " + line_ + " line has the key " + messageQuote(key) + " but " + std::string(why) + ".");
}

}  // namespace vivaref::record
