#include <filesystem>
#include <system_error>

#include <doctest/doctest.h>

#include "drivers/rfid/spidev_transport.hpp"

using namespace vivaref::drivers;

TEST_CASE("SpidevTransport: a device that cannot be opened throws, naming it") {
    CHECK_THROWS_WITH_AS(SpidevTransport(SpidevConfig{"/dev/spidev-vivaref-none.9", 4'000'000}),
                         doctest::Contains("/dev/spidev-vivaref-none.9"), std::system_error);
}

TEST_CASE("SpidevTransport: a file that is not an SPI device is refused at start-up") {
    // spidev ioctls on /dev/null fail: the configuration step must say so with the path.
    CHECK_THROWS_WITH_AS(SpidevTransport(SpidevConfig{"/dev/null", 4'000'000}),
                         doctest::Contains("/dev/null"), std::system_error);
}

TEST_CASE("SpidevTransport: a real bus, where the machine has one") {
    if (!std::filesystem::exists("/dev/spidev0.0")) {
        MESSAGE("skipped: no /dev/spidev0.0 here (a Raspberry Pi with SPI enabled has one)");
        return;
    }
    SpidevTransport spi(SpidevConfig{"/dev/spidev0.0", 1'000'000});
    const std::uint8_t tx[] = {0x80 | (0x37 << 1), 0x00};  // read the MFRC522's VersionReg, if one is there
    std::uint8_t rx[2] = {};
    CHECK_FALSE(spi.transfer(tx, rx));
    MESSAGE("VersionReg on /dev/spidev0.0 reads " << int(rx[1]));
}
