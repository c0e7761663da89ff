// GAME-RECORD: a line that is not valid JSON, or has a duplicate key, is
// refused; nlohmann's own parser would keep the last duplicate silently.
#include "engine/record/strict_json.hpp"

#include <string>

#include <doctest/doctest.h>

namespace vivaref::record_test {

using record::parseStrictJson;

TEST_SUITE("record: strict JSON") {
    TEST_CASE("a well-formed line parses to its value") {
        auto r = parseStrictJson(R"({"pass": {"seat": 3}})");
        REQUIRE(r.value);
        CHECK(r.error.empty());
        CHECK(r.firstKey == "pass");
        CHECK((*r.value)["pass"]["seat"] == 3);
    }

    TEST_CASE("a duplicate key of the line itself is found") {
        auto r = parseStrictJson(R"({"pass": {"seat": 3}, "pass": {"seat": 2}})");
        CHECK(!r.value);
        CHECK(!r.duplicateInsideValue);
        CHECK(r.error.find("\"pass\"") != std::string::npos);
    }

    TEST_CASE("a duplicate key inside the payload is found, with the line kind") {
        auto r = parseStrictJson(R"({"deal": {"emissary": {"pile": [], "pile": []}}})");
        CHECK(!r.value);
        CHECK(r.duplicateInsideValue);
        CHECK(r.firstKey == "deal");
    }

    TEST_CASE("the same key in two different objects is no duplicate") {
        auto r = parseStrictJson(R"({"setup": {"roster": [{"id": "a"}, {"id": "b"}]}})");
        CHECK(r.value);
    }

    TEST_CASE("syntax errors, trailing text and an empty line are refused") {
        for (std::string text : {"", "{", "{\"pass\": {\"seat\": 3}}}", "{\"pass\": {\"seat\": 3}} x", "nul",
                                 "{'pass': 1}", "{\"a\": 1,}"}) {
            CAPTURE(text);
            auto r = parseStrictJson(text);
            CHECK(!r.value);
            CHECK(!r.error.empty());
        }
    }

    TEST_CASE("a NUL byte is refused even where nlohmann would stop reading") {
        const char text[] = "{\"pass\": {\"seat\": 3}}\0 trailing";
        CHECK(!parseStrictJson(std::string_view(text, sizeof text - 1)).value);
    }

    TEST_CASE("invalid UTF-8 is refused, and the message stays printable") {
        std::string text = "{\"pass\": {\"seat\": \"\xff\xfe\"}}";
        auto r = parseStrictJson(text);
        CHECK(!r.value);
        nlohmann::json message = r.error;
        CHECK_NOTHROW((void)message.dump());
    }

    TEST_CASE("nesting deeper than any record line is refused without recursion") {
        std::string deep(100000, '[');
        auto r = parseStrictJson(deep);
        CHECK(!r.value);
        std::string ok = std::string(record::kMaxJsonDepth, '[') + std::string(record::kMaxJsonDepth, ']');
        CHECK(parseStrictJson(ok).value);
        std::string tooDeep = "[" + ok + "]";
        CHECK(!parseStrictJson(tooDeep).value);
    }

    TEST_CASE("numbers too large for 64 bits are read as floating point, not wrapped") {
        auto r = parseStrictJson(R"({"n": 99999999999999999999999})");
        REQUIRE(r.value);
        CHECK((*r.value)["n"].is_number_float());
        CHECK(!parseStrictJson(R"({"n": 1e999})").value);
    }
}

}  // namespace vivaref::record_test
