#include <doctest/doctest.h>

#include "drivers/rfid/simulated_tag_reader.hpp"

using namespace vivaref::drivers;

TEST_CASE("SimulatedTagReader: the tags a test places, once per field power-up") {
    SimulatedTagReader reader("floor-sim");
    const TagUid a = TagUid::fromHex("DEADBEEF"), b = TagUid::fromHex("04A1B2C3D4E5F6");
    reader.place(a);
    reader.place(b);
    CHECK(reader.scan().error().kind == ScanErrorKind::AntennaOff);
    reader.antennaOn();
    CHECK(reader.scan().tags() == TagSet{a, b});
    CHECK(reader.scan().tags().empty());  // all halted until the field goes off
    reader.antennaOff();
    reader.antennaOn();
    reader.remove(a);
    CHECK(reader.scan().tags() == TagSet{b});
    reader.injectFault({ScanErrorKind::NoAnswer, "unplugged"});
    CHECK(reader.scan().error().message == "unplugged");
}
