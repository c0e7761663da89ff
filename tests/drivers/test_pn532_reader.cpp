// Pn532Reader through the real libnfc against a fake PN532 on a
// pseudo-terminal: what libnfc sends and what the reader makes of the answers,
// the empty field, one to four tags, a tag leaving, a chip that goes silent or
// talks garbage. Every case ends, with tags or with a typed error.
#include <algorithm>
#include <chrono>

#include <doctest/doctest.h>

#include "drivers/rfid/pn532_reader.hpp"
#include "tests/drivers/fake_pn532.hpp"

using namespace vivaref::drivers;
using namespace vivaref::drivers::emulation;

namespace {

std::vector<std::uint8_t> bytesOf(std::string_view hex) {
    const TagUid uid = TagUid::fromHex(hex);
    return {uid.bytes().begin(), uid.bytes().end()};
}

TagSet tagSet(std::initializer_list<std::string_view> hexes) {
    TagSet set;
    for (auto hex : hexes) set.insert(TagUid::fromHex(hex));
    return set;
}

std::string describe(const ScanResult& result) {
    if (!result.ok()) return std::string(errorKindName(result.error().kind)) + ": " + result.error().message;
    std::string text = "tags:";
    for (const TagUid& uid : result.tags()) text += " " + uid.toHex();
    return text;
}

// A fake chip and a reader opened on it; the reader closes before the fake goes.
struct Bench {
    Bench() {
        std::string why;
        fake = FakePn532::open(why);
        REQUIRE_MESSAGE(fake, why);
        reader = std::make_unique<Pn532Reader>(Pn532ReaderConfig{"floor-2a", fake->connection()});
    }
    ~Bench() { reader.reset(); }

    void place(std::string_view hex, std::uint8_t sak = 0x00) { fake->place(FakeTag{bytesOf(hex), sak}); }

    ScanResult cycle() {
        reader->antennaOff();
        if (auto ec = reader->antennaOn()) return *reader->lastAntennaError();
        return reader->scan();
    }

    std::unique_ptr<FakePn532> fake;
    std::unique_ptr<Pn532Reader> reader;
};

using Clock = std::chrono::steady_clock;

// Generous: libnfc's longest wait is its 1 s hand-shake; a hang would never end.
constexpr auto kBound = std::chrono::seconds(5);

}  // namespace

TEST_CASE("PN532: libnfc opens the chip, makes it an initiator and lists with the field on") {
    Bench b;
    CHECK(b.reader->firmware().empty());
    REQUIRE_FALSE(b.reader->initialize());
    CHECK(b.reader->isOpen());
    CHECK(b.reader->firmware() == "PN532 v1.6");  // the fake's GetFirmwareVersion: IC 0x32, 1.6
    CHECK_FALSE(b.fake->fieldOn());
    // libnfc's hand-shake: wake-up and SAMConfiguration, Diagnose, GetFirmwareVersion, SetParameters.
    const auto opened = b.fake->commands();
    REQUIRE(opened.size() >= 4);
    CHECK(opened[0] == 0x14);
    CHECK(opened[1] == 0x00);
    CHECK(opened[2] == 0x02);

    const ScanResult result = b.cycle();
    INFO(describe(result));
    REQUIRE(result.ok());
    CHECK(result.tags().empty());
    CHECK(b.fake->fieldOn());
    const auto all = b.fake->commands();
    CHECK(std::count(all.begin(), all.end(), 0x4A) == 1);  // an empty field: one InListPassiveTarget

    REQUIRE_FALSE(b.reader->antennaOff());
    CHECK_FALSE(b.fake->fieldOn());
}

TEST_CASE("PN532: one tag, 4- or 7-byte UID") {
    for (std::string_view uid : {"1A2B3C4D", "04A1B2C3D4E5F6"}) {
        CAPTURE(uid);
        Bench b;
        b.place(uid);
        REQUIRE_FALSE(b.reader->initialize());
        const ScanResult result = b.cycle();
        INFO(describe(result));
        REQUIRE(result.ok());
        CHECK(result.tags() == tagSet({uid}));
    }
}

TEST_CASE("PN532: two, three and four tags on one floor are all listed") {
    Bench b;
    b.place("1A2B3C4D", 0x08);
    b.place("04A1B2C3D4E5F6");
    REQUIRE_FALSE(b.reader->initialize());
    ScanResult result = b.cycle();
    INFO(describe(result));
    REQUIRE(result.ok());
    CHECK(result.tags() == tagSet({"1A2B3C4D", "04A1B2C3D4E5F6"}));

    b.place("04112233445566");
    b.place("04A1B2C3D4E5F6071829");
    result = b.cycle();
    INFO(describe(result));
    REQUIRE(result.ok());
    CHECK(result.tags() == tagSet({"1A2B3C4D", "04A1B2C3D4E5F6", "04112233445566", "04A1B2C3D4E5F6071829"}));

    // The same four again on the next field cycle: switching the field off woke the halted tags.
    result = b.cycle();
    INFO(describe(result));
    REQUIRE(result.ok());
    CHECK(result.tags().size() == 4);
}

TEST_CASE("PN532: a tag lifted between two cycles is gone from the second") {
    Bench b;
    b.place("1A2B3C4D");
    b.place("04A1B2C3D4E5F6");
    REQUIRE_FALSE(b.reader->initialize());
    REQUIRE(b.cycle().tags().size() == 2);
    b.fake->remove(bytesOf("1A2B3C4D"));
    const ScanResult result = b.cycle();
    INFO(describe(result));
    REQUIRE(result.ok());
    CHECK(result.tags() == tagSet({"04A1B2C3D4E5F6"}));
}

TEST_CASE("PN532: scanning with the field off, or before the device is open, is refused") {
    Bench b;
    b.place("1A2B3C4D");
    ScanResult result = b.reader->scan();
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == ScanErrorKind::NoAnswer);
    CHECK(b.reader->antennaOn());  // not open: an error, no crash

    REQUIRE_FALSE(b.reader->initialize());
    result = b.reader->scan();
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == ScanErrorKind::AntennaOff);
    CHECK(result.error().message.find("floor-2a") != std::string::npos);
}

TEST_CASE("PN532: a chip that goes silent is no-answer within a bound, then recovers") {
    // The silence begins at each command of a cycle in turn: the field, the
    // listing's RFConfiguration, InListPassiveTarget, InDeselect, the next listing.
    for (int after = 0; after < 6; ++after) {
        CAPTURE(after);
        Bench b;
        b.place("1A2B3C4D");
        b.place("04A1B2C3D4E5F6");
        REQUIRE_FALSE(b.reader->initialize());
        b.fake->setFault(FakePn532::Fault::Silent, after);
        const auto start = Clock::now();
        const ScanResult result = b.cycle();
        CHECK(Clock::now() - start < kBound);
        INFO(describe(result));
        REQUIRE_FALSE(result.ok());
        CHECK(result.error().kind == ScanErrorKind::NoAnswer);
        CHECK(result.error().message.find("pn532_uart:") != std::string::npos);

        b.fake->setFault(FakePn532::Fault::None);
        const ScanResult again = b.cycle();
        INFO(describe(again));
        REQUIRE(again.ok());
        CHECK(again.tags().size() == 2);
    }
}

TEST_CASE("PN532: nothing answering on the port: initialize() fails, bounded") {
    Bench b;
    b.fake->setFault(FakePn532::Fault::Silent);
    const auto start = Clock::now();
    const auto error = b.reader->initialize();
    CHECK(Clock::now() - start < kBound);
    REQUIRE(error);
    CHECK(error->kind == ScanErrorKind::NoAnswer);
    CHECK_FALSE(b.reader->isOpen());
    const ScanResult result = b.reader->scan();
    REQUIRE_FALSE(result.ok());

    b.fake->setFault(FakePn532::Fault::None);  // the chip is back: initialize() again
    REQUIRE_FALSE(b.reader->initialize());
    b.place("1A2B3C4D");
    CHECK(b.cycle().ok());
}

TEST_CASE("PN532: garbage instead of frames is a protocol error, and the next cycle reads again") {
    for (int after = 0; after < 5; ++after) {
        CAPTURE(after);
        Bench b;
        b.place("1A2B3C4D");
        b.place("04A1B2C3D4E5F6");
        REQUIRE_FALSE(b.reader->initialize());
        b.fake->setFault(FakePn532::Fault::Garbage, after);
        const ScanResult result = b.cycle();
        INFO(describe(result));
        REQUIRE_FALSE(result.ok());
        CHECK(result.error().kind == ScanErrorKind::Protocol);

        b.fake->setFault(FakePn532::Fault::None);
        const ScanResult again = b.cycle();
        INFO(describe(again));
        REQUIRE(again.ok());
        CHECK(again.tags().size() == 2);
    }
}

TEST_CASE("PN532: a port that does not exist or a bad connection string is an error, no crash") {
    const std::string connections[] = {"pn532_uart:/dev/vivaref-no-such-tty", "", "no_such_driver:/dev/null",
                                       std::string(2000, 'x')};
    for (const std::string& connection : connections) {
        CAPTURE(connection);
        Pn532Reader reader({"floor-0", connection});
        const auto error = reader.initialize();
        REQUIRE(error);
        CHECK(error->message.find("floor-0") != std::string::npos);
        CHECK_FALSE(reader.scan().ok());
    }
}
