#include "engine/record/strict_json.hpp"

#include <utility>
#include <vector>

namespace vivaref::record {
namespace {

using nlohmann::json;

// nlohmann's messages start with "[json.exception.parse_error.101] parse
// error at line 1, "; a player needs only the rest. They may quote the bad
// input, which need not be UTF-8: keep printable ASCII only.
std::string playerReadable(std::string_view what) {
    if (auto at = what.find("column "); at != std::string_view::npos) what.remove_prefix(at);
    std::string out;
    for (char c : what.substr(0, 200)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    return out;
}

// Builds the document like nlohmann's DOM parser, refusing duplicate keys
// and excessive depth as soon as they are read.
class StrictBuilder final : public json::json_sax_t {
public:
    bool null() override { return put(json(nullptr)); }
    bool boolean(bool v) override { return put(json(v)); }
    bool number_integer(number_integer_t v) override { return put(json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return put(json(v)); }
    bool number_float(number_float_t v, const string_t&) override { return put(json(v)); }
    bool string(string_t& v) override { return put(json(std::move(v))); }
    bool binary(binary_t&) override {
        result_.error = "The line holds binary data, which a record never does.";
        return false;
    }
    bool start_object(std::size_t) override { return open(json::object()); }
    bool start_array(std::size_t) override { return open(json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& k) override {
        json& object = *open_.back();
        if (open_.size() == 1 && !sawFirstKey_) {
            sawFirstKey_ = true;
            result_.firstKey = k;
        }
        if (object.contains(k)) {
            result_.error = "The key \"" + playerReadable(k) + "\" appears twice in one object.";
            result_.duplicateInsideValue = open_.size() > 1;
            return false;
        }
        key_ = std::move(k);
        return true;
    }

    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
        if (result_.error.empty())
            result_.error = "The line is not valid JSON (" + playerReadable(ex.what()) + ").";
        return false;
    }

    StrictJson finish(bool parsed) {
        if (parsed && result_.error.empty())
            result_.value = std::move(root_);
        else if (result_.error.empty())
            result_.error = "The line is not valid JSON.";
        return std::move(result_);
    }

private:
    bool put(json&& v) {
        add(std::move(v));
        return true;
    }
    // Where a new value goes: the root, the open array, or the open object
    // under the last key read.
    json* add(json&& v) {
        if (open_.empty()) {
            root_ = std::move(v);
            return &root_;
        }
        json& parent = *open_.back();
        if (parent.is_array()) {
            parent.push_back(std::move(v));
            return &parent.back();
        }
        json& slot = parent[key_];
        slot = std::move(v);
        return &slot;
    }
    bool open(json&& container) {
        if (static_cast<int>(open_.size()) >= kMaxJsonDepth) {
            result_.error = "The line nests deeper than any record line does.";
            return false;
        }
        open_.push_back(add(std::move(container)));
        return true;
    }
    bool close() {
        open_.pop_back();
        return true;
    }

    json root_;
    // Open containers, innermost last. A pointer stays valid while its
    // container is open: only the innermost one grows.
    std::vector<json*> open_;
    std::string key_;
    bool sawFirstKey_ = false;
    StrictJson result_;
};

}  // namespace

StrictJson parseStrictJson(std::string_view text) {
    // nlohmann takes a NUL byte for the end of input (for C strings) and
    // would ignore whatever follows it: JSON has no raw NUL anywhere.
    if (text.find('\0') != std::string_view::npos) {
        StrictJson refused;
        refused.error = "The line holds a NUL byte, which JSON does not allow.";
        return refused;
    }
    StrictBuilder builder;
    bool parsed = false;
    try {
        parsed = json::sax_parse(text.begin(), text.end(), &builder);
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception&) {
        parsed = false;
    }
    return builder.finish(parsed);
}

}  // namespace vivaref::record
