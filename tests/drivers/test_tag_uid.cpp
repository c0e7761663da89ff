#include <stdexcept>

#include <doctest/doctest.h>

#include "drivers/rfid/tag_uid.hpp"

using vivaref::drivers::TagUid;

TEST_CASE("TagUid: 4, 7 and 10 bytes round-trip through uppercase hex") {
    for (const char* text : {"DEADBEEF", "04A1B2C3D4E5F6", "04A1B2C3D4E5F6071829"}) {
        CHECK(TagUid::fromHex(text).toHex() == text);
    }
    CHECK(TagUid::fromHex("04a1b2c3d4e5f6").toHex() == "04A1B2C3D4E5F6");
    CHECK(TagUid::fromHex("04A1B2C3D4E5F6").size() == 7);
}

TEST_CASE("TagUid: a wrong length is refused with a message") {
    std::string why;
    for (const char* text : {"", "DEADBE", "DEADBEEF00", "DEADBEEF0", "04A1B2C3D4E5F607182944"}) {
        CAPTURE(text);
        CHECK_FALSE(TagUid::tryFromHex(text, why));
        CHECK(why.find("hex digits") != std::string::npos);
    }
    CHECK_THROWS_WITH_AS(TagUid::fromHex("ABC"), doctest::Contains("\"ABC\" has 3 hex digits"),
                         std::invalid_argument);
    const std::uint8_t five[] = {1, 2, 3, 4, 5};
    CHECK_THROWS_AS(TagUid{std::span<const std::uint8_t>(five)}, std::invalid_argument);
}

TEST_CASE("TagUid: a character that is not hex is refused, naming its position") {
    std::string why;
    CHECK_FALSE(TagUid::tryFromHex("DEADBEEG", why));
    CHECK(why.find("position 8") != std::string::npos);
    CHECK_FALSE(TagUid::tryFromHex("04 A1B2C3D4E5F", why));
    CHECK(why.find("position 3") != std::string::npos);
}

TEST_CASE("TagUid: equality and order (shorter first, then bytewise)") {
    CHECK(TagUid::fromHex("DEADBEEF") == TagUid::fromHex("deadbeef"));
    CHECK(TagUid::fromHex("DEADBEEF") != TagUid::fromHex("DEADBEEE"));
    CHECK(TagUid::fromHex("DEADBEEE") < TagUid::fromHex("DEADBEEF"));
    CHECK(TagUid::fromHex("FFFFFFFF") < TagUid::fromHex("00000000000000"));
}
