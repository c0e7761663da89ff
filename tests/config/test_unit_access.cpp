// What the service may reach, from the configuration: the nodes its readers,
// keys and LEDs use, the groups that own them, its port; nothing for the
// simulated castle.
#include <algorithm>

#include <doctest/doctest.h>

#include "config_test_helpers.hpp"
#include "daemon/config/unit_access.hpp"

namespace vivaref::config {
namespace {

using testing::check;
using Strings = std::vector<std::string>;

UnitAccess accessOf(const std::string& text) {
    const auto c = check(text);
    REQUIRE_MESSAGE(c.problems.empty(), (c.problems.empty() ? "" : c.problems.front().text()));
    return unitAccess(c.config);
}

TEST_CASE("the simulated castle reaches no device and joins no group") {
    const auto access = accessOf(
        "[daemon]\nhardware = sim\nhttp_port = 9090\n[station.0]\nyes = gpiochip0:5\nno = gpiochip0:6\n");
    CHECK(access.devices.empty());
    CHECK(access.groups.empty());
    CHECK(access.port == 9090);
    const auto text = unitDropIn(access, "castle.ini");
    CHECK(text.find("SocketBindAllow=tcp:9090\n") != std::string::npos);
    CHECK(text.find("PrivateUsers=yes\n") != std::string::npos);
    CHECK(text.find("DeviceAllow=/") == std::string::npos);
}

TEST_CASE("a real castle: each bus its readers use, each chip of its keys and LEDs, and their groups") {
    std::string readers;
    for (int place = 2; place <= 6; ++place)
        readers += "[reader.r" + std::to_string(place) + "]\nplace = " + std::to_string(place) +
                   "\nbus = /dev/spidev0.0\nchip_select = gpiochip4:" + std::to_string(place) + "\n";
    const auto access = accessOf("[daemon]\nhardware = real\n" + readers +
                                 "[reader.u]\nplace = 0\ntype = pn532\nbus = pn532_uart:/dev/ttyAMA0:115200\n"
                                 "[reader.i]\nplace = 1\ntype = pn532\nbus = pn532_i2c:/dev/i2c-1\n"
                                 "[station.0]\nyes = gpiochip2:0\nno = gpiochip2:1\n"
                                 "[leds]\nturn.0 = gpiochip0:17\n");
    // The voice may speak (output auto on a real castle): ALSA's nodes and the audio group too.
    CHECK(access.devices == Strings{"/dev/gpiochip0", "/dev/gpiochip2", "/dev/gpiochip4", "/dev/i2c-1",
                                    "/dev/spidev0.0", "/dev/ttyAMA0", "char-alsa"});
    CHECK(access.groups == Strings{"audio", "dialout", "gpio", "i2c", "spi"});
    const auto text = unitDropIn(access, "castle.ini");
    CHECK(text.find("DeviceAllow=\nDeviceAllow=/dev/gpiochip0 rw\nDeviceAllow=/dev/gpiochip2 rw\n") !=
          std::string::npos);
    CHECK(text.find("SupplementaryGroups=\nSupplementaryGroups=audio dialout gpio i2c spi\n") !=
          std::string::npos);
    CHECK(text.find("PrivateUsers") == std::string::npos);
}

TEST_CASE("the voice's sound card: reached when espeak-ng may speak, never with output = none") {
    const std::string real = "[daemon]\nhardware = real\n" + testing::classicReaders();
    CHECK(accessOf(real).groups == Strings{"audio", "spi"});
    const auto silent = accessOf(real + "[voice]\noutput = none\n");
    CHECK(silent.groups == Strings{"spi"});
    CHECK(std::find(silent.devices.begin(), silent.devices.end(), "char-alsa") == silent.devices.end());
    // The simulated castle records its lines: no device, unless told to speak with espeak-ng.
    CHECK(accessOf("[daemon]\nhardware = sim\n").devices.empty());
    const auto loud = accessOf("[daemon]\nhardware = sim\n[voice]\noutput = espeak\n");
    CHECK(loud.devices == Strings{"char-alsa"});
    CHECK(loud.groups == Strings{"audio"});
    const auto text = unitDropIn(loud, "castle.ini");
    CHECK(text.find("DeviceAllow=\nDeviceAllow=char-alsa rw\n") != std::string::npos);
    CHECK(text.find("SupplementaryGroups=\nSupplementaryGroups=audio\n") != std::string::npos);
}

}  // namespace
}  // namespace vivaref::config
