// Values: numbers, switches, addresses, GPIO lines with their wiring, device
// paths, reader types. Each bad one is named with its line and key.
#include <doctest/doctest.h>

#include "config_test_helpers.hpp"

namespace vivaref::config {
namespace {

using testing::check;
using testing::classicReaders;
using testing::problemTexts;
using Strings = std::vector<std::string>;

TEST_CASE("numbers: not a number, out of range, in range") {
    CHECK(
        problemTexts("[sensing]\nmajority_scans = three\nstability_window_ms = 6000\nscan_interval_ms = 0\n" +
                     classicReaders()) ==
        Strings{"castle.ini:2: sensing.majority_scans: 'three' is not a whole number",
                "castle.ini:3: sensing.stability_window_ms: 6000 is out of range: from 0 to 5000",
                "castle.ini:4: sensing.scan_interval_ms: 0 is out of range: from 1 to 1000"});
    CHECK(problemTexts("[store]\nraw_scans_kept = 99999999999999999999999\n") ==
          Strings{"castle.ini:2: store.raw_scans_kept: 99999999999999999999999 is out of range: from 0 to "
                  "1000000000"});
    CHECK(problemTexts("[buttons]\ndebounce_ms = 2.5\n") ==
          Strings{"castle.ini:2: buttons.debounce_ms: '2.5' is not a whole number"});
    CHECK(problemTexts("[daemon]\nhttp_port =\n") ==
          Strings{"castle.ini:2: daemon.http_port: '' is not a whole number"});

    const auto c = check(
        "[sensing]\nmajority_scans = 5\nsticky_presence = off\nstability_window_ms = 100\nin_hand_grace_ms = "
        "2000\n"
        "faulty_after_failures = 4\nblind_leave_wait_ms = 900\nbackoff_after_failures = 1\nfirst_backoff_ms "
        "= 50\nmax_backoff_ms = 500\n"
        "scan_interval_ms = 7\n[buttons]\ndebounce_ms = 30\n[store]\nraw_scans_kept = 0\n");
    CHECK(c.problems.empty());
    CHECK(c.config.sensing.majorityScans == 5);
    CHECK_FALSE(c.config.sensing.stickyPresence);
    CHECK(c.config.sensing.stabilityWindow == Timestamp(100));
    CHECK(c.config.sensing.inHandGrace == Timestamp(2000));
    CHECK(c.config.sensing.faultyAfterFailures == 4);
    CHECK(c.config.sensing.blindLeaveWait == Timestamp(900));
    CHECK(c.config.backoff.failuresBeforeBackoff == 1);
    CHECK(c.config.backoff.firstBackoff == Timestamp(50));
    CHECK(c.config.backoff.maxBackoff == Timestamp(500));
    CHECK(c.config.scanInterval == Timestamp(7));
    CHECK(c.config.buttonDebounce == Timestamp(30));
    CHECK(c.config.rawScansKept == 0);
}

TEST_CASE("knobs that contradict each other") {
    CHECK(
        problemTexts("[sensing]\nstability_window_ms = 500\nin_hand_grace_ms = 500\nfirst_backoff_ms = 300\n"
                     "max_backoff_ms = 200\n") ==
        Strings{
            "castle.ini:3: sensing.in_hand_grace_ms: 500 ms must be longer than sensing.stability_window_ms "
            "(500 ms)",
            "castle.ini:5: sensing.max_backoff_ms: 200 ms is shorter than sensing.first_backoff_ms (300 "
            "ms)"});
}

TEST_CASE("switches, editions, hardware, addresses, directories") {
    CHECK(problemTexts("[sensing]\nsticky_presence = maybe\n") ==
          Strings{"castle.ini:2: sensing.sticky_presence: 'maybe' is not true or false"});
    CHECK(problemTexts("[castle]\nedition = online\n") ==
          Strings{"castle.ini:2: castle.edition: 'online' is not an edition: classic or 2024"});
    CHECK(problemTexts(
              "[daemon]\nhardware = pi\nhttp_address = localhost\nstate_dir = var/lib\ndatabase = logs/\n") ==
          Strings{
              "castle.ini:2: daemon.hardware: 'pi' is not a hardware: sim or real",
              "castle.ini:3: daemon.http_address: 'localhost' is not an IP address: 0.0.0.0 listens on every "
              "interface, 127.0.0.1 on this machine",
              "castle.ini:4: daemon.state_dir: 'var/lib' is not an absolute directory, e.g. /var/lib/vivaref",
              "castle.ini:5: daemon.database: 'logs/' is not a file name, e.g. games.sqlite"});
    const auto c = check(
        "[daemon]\nhttp_address = ::\nhttp_port = 80\nhost_token = s3cret!-Castle-7\nstate_dir = "
        "/srv/castle\n"
        "database = /data/games.sqlite\n");
    CHECK(c.problems.empty());
    CHECK(c.config.daemon.httpAddress == "::");
    CHECK(c.config.daemon.httpPort == 80);
    CHECK(c.config.daemon.hostToken == "s3cret!-Castle-7");
    CHECK(c.config.databasePath() == "/data/games.sqlite");
    CHECK(c.config.tagRegistryPath() == "/srv/castle/tags.json");
    CHECK(check("[daemon]\nstate_dir = /srv/castle\n").config.databasePath() == "/srv/castle/games.sqlite");
}

TEST_CASE("GPIO lines and their wiring words") {
    const std::string station = "[station.0]\nno = gpiochip0:9\n";
    CHECK(
        problemTexts(station + "yes = 17\n") ==
        Strings{"castle.ini:3: station.0.yes: '17' is not a GPIO line: write CHIP:LINE, e.g. gpiochip0:17"});
    CHECK(problemTexts(station + "yes = gpio0:17\n") ==
          Strings{"castle.ini:3: station.0.yes: 'gpio0:17' is not a GPIO line: write CHIP:LINE, e.g. "
                  "gpiochip0:17"});
    CHECK(
        problemTexts(station + "yes = gpiochip0:5000\n") ==
        Strings{
            "castle.ini:3: station.0.yes: 'gpiochip0:5000': the line number 5000 is out of range: from 0 to "
            "1023"});
    CHECK(problemTexts(station + "yes = gpiochip0:17 pull-sideways\n") ==
          Strings{"castle.ini:3: station.0.yes: 'pull-sideways' is not a wiring word here: active-low, "
                  "active-high, pull-up, pull-down, bias-disabled or as-is"});
    CHECK(
        problemTexts(station + "yes = gpiochip0:17\nled = gpiochip0:18 pull-up\n") ==
        Strings{
            "castle.ini:4: station.0.led: 'pull-up' is not a wiring word here: active-low or active-high (an "
            "output has no bias)"});
    CHECK(problemTexts("[buttons]\nbias = up\n") ==
          Strings{"castle.ini:2: buttons.bias: 'up' is not a bias: pull-up, pull-down, disabled or as-is"});

    // Buttons: active low with a pull-up unless [buttons] or the line says otherwise; LEDs: active high.
    auto c = check(station +
                   "yes = gpiochip2:17 active-high pull-down\nstomachache = gpiochip2:3 bias-disabled\n"
                   "led = gpiochip2:4 active-low\n");
    REQUIRE(c.problems.empty());
    const StationConfig& s = c.config.stations.at(0);
    CHECK(s.no->gpio == GpioLine{"gpiochip0", 9});
    CHECK(s.no->activeLow);
    CHECK(s.no->bias == Bias::PullUp);
    CHECK(s.yes->gpio.text() == "gpiochip2:17");
    CHECK_FALSE(s.yes->activeLow);
    CHECK(s.yes->bias == Bias::PullDown);
    CHECK(s.stomachache->bias == Bias::Disabled);
    CHECK(s.led->activeLow);
    c = check(
        "[buttons]\nactive_low = false\nbias = as-is\n[leds]\nactive_low = true\nplace.3 = gpiochip1:1\n" +
        station + "yes = gpiochip0:10\n");
    REQUIRE(c.problems.empty());
    CHECK_FALSE(c.config.stations.at(0).no->activeLow);
    CHECK(c.config.stations.at(0).no->bias == Bias::AsIs);
    CHECK(c.config.placeLeds.at("3").activeLow);
}

TEST_CASE("readers: type, bus, chip select and clock") {
    CHECK(problemTexts("[reader.a]\nplace = 1\ntype = rc522\nbus = /dev/spidev0.0\n") ==
          Strings{"castle.ini:3: reader.a.type: 'rc522' is not a reader type: mfrc522, pn532 or sim",
                  "castle.ini: place 0 has no reader: add a [reader.NAME] with place = 0",
                  "castle.ini: place 2 has no reader: add a [reader.NAME] with place = 2",
                  "castle.ini: place 3 has no reader: add a [reader.NAME] with place = 3",
                  "castle.ini: place 4 has no reader: add a [reader.NAME] with place = 4",
                  "castle.ini: place 5 has no reader: add a [reader.NAME] with place = 5",
                  "castle.ini: place 6 (the throne) has no reader: add a [reader.NAME] with place = 6"});
    const std::string rest = classicReaders();
    CHECK(
        problemTexts("[reader.a]\nplace = 1\nbus = /dev/spi0.0\n" + rest) ==
        Strings{
            "castle.ini:3: reader.a.bus: '/dev/spi0.0' is not a spidev device: write /dev/spidevBUS.CS, e.g. "
            "/dev/spidev0.0"});
    CHECK(problemTexts("[reader.a]\nplace = 1\nbus = /dev/spidev0\n" + rest) ==
          Strings{"castle.ini:3: reader.a.bus: '/dev/spidev0' is not a spidev device: write "
                  "/dev/spidevBUS.CS, e.g. "
                  "/dev/spidev0.0"});
    CHECK(problemTexts("[reader.a]\nplace = 1\n" + rest) ==
          Strings{"castle.ini:1: reader.a.bus: an MFRC522 needs its SPI device: bus = /dev/spidev0.0"});
    CHECK(problemTexts("[reader.a]\nplace = 1\ntype = pn532\nbus = /dev/ttyS0\n" + rest) ==
          Strings{"castle.ini:4: reader.a.bus: '/dev/ttyS0' is not a libnfc PN532 connection: write "
                  "pn532_uart:/dev/ttyS0, pn532_spi:/dev/spidev0.0 or pn532_i2c:/dev/i2c-1"});
    CHECK(problemTexts("[reader.a]\nplace = 1\ntype = pn532\nbus = pn532_uart:/dev/ttyS0\nchip_select = bus\n"
                       "spi_hz = 1000000\n" +
                       rest) ==
          Strings{"castle.ini:5: reader.a.chip_select: only an MFRC522 reader has a chip_select",
                  "castle.ini:6: reader.a.spi_hz: only an MFRC522 reader has spi_hz (a PN532 on SPI takes it "
                  "in its "
                  "bus string)"});
    CHECK(problemTexts(
              "[reader.a]\nplace = 1\nbus = /dev/spidev9.0\nchip_select = gpio17\nspi_hz = 20000000\n" +
              rest) ==
          Strings{"castle.ini:4: reader.a.chip_select: 'gpio17' is not a GPIO line: write CHIP:LINE, e.g. "
                  "gpiochip0:17 (or bus for the SPI device's own chip select)",
                  "castle.ini:5: reader.a.spi_hz: 20000000 is out of range: from 100000 to 10000000"});
    CHECK(problemTexts("[reader.a]\nplace = 1\ntype = sim\nbus = /dev/spidev0.0\n[daemon]\nhardware = sim\n" +
                       rest) == Strings{"castle.ini:4: reader.a.bus: a sim reader has no bus"});
    CHECK(problemTexts("[reader.floor.3]\nplace = 3\n") ==
          Strings{"castle.ini:1: [reader.floor.3]: a reader's name is letters, digits, '-' and '_': "
                  "[reader.floor3-a]"});

    const auto c = check(
        "[reader.a]\nplace = 1\nbus = /dev/spidev9.0\nchip_select = gpiochip0:17\nspi_hz = 1000000\n"
        "[reader.b]\nplace = 2\ntype = pn532\nbus = pn532_i2c:/dev/i2c-1\n"
        "[reader.c]\nplace = 3\ntype = pn532\nbus = pn532_spi:/dev/spidev8.0:500000\n"
        "[reader.d]\nplace = enrolment\nbus = /dev/spidev9.1\n" +
        rest);
    REQUIRE(c.problems.empty());
    CHECK(c.config.readers.size() == 11);
    const ReaderConfig& a = c.config.readers.at(0);
    CHECK(a.name == "a");
    CHECK(a.place == "1");
    CHECK(a.type == ReaderType::Mfrc522);
    CHECK(a.chipSelect == GpioLine{"gpiochip0", 17});
    CHECK(a.spiHz == 1'000'000);
    CHECK(a.sourceLine == 1);
    CHECK(c.config.readers.at(1).type == ReaderType::Pn532);
    CHECK(c.config.readers.at(3).place == "enrolment");
    CHECK_FALSE(c.config.readers.at(3).chipSelect);
    CHECK(c.config.daemon.hardware == Hardware::Real);
}

TEST_CASE("places: GAME-RECORD names, the 2024 ones only in a 2024 castle") {
    const std::string rest = classicReaders();
    CHECK(
        problemTexts("[reader.a]\nplace = throne\nbus = /dev/spidev9.0\n" + rest) ==
        Strings{"castle.ini:2: reader.a.place: the throne is place 6 (places are named as in game records)"});
    CHECK(problemTexts("[reader.a]\nplace = wc3\nbus = /dev/spidev9.0\n" + rest) ==
          Strings{
              "castle.ini:2: reader.a.place: 'wc3' is a place of the 2024 castle only: set edition = 2024 in "
              "[castle]"});
    CHECK(problemTexts("[reader.a]\nplace = 7\nbus = /dev/spidev9.0\n" + rest) ==
          Strings{"castle.ini:2: reader.a.place: '7' is not a place: 0 to 5, 6 (the throne) or enrolment"});
    CHECK(problemTexts("[castle]\nedition = 2024\n[reader.a]\nplace = box\nbus = /dev/spidev9.0\n" + rest)
              .front() ==
          "castle.ini:4: reader.a.place: 'box' is not a place: 0 to 5, 6 (the throne), wc3, wc4, "
          "dungeon1 to dungeon3 or enrolment");
    CHECK(problemTexts("[reader.a]\nbus = /dev/spidev9.0\n" + rest) ==
          Strings{"castle.ini:1: reader.a.place: a reader needs the place it serves: place = 3"});
    CHECK(
        problemTexts("[leds]\nplace.throne = gpiochip1:0\nplace.wc4 = gpiochip1:1\nturn.8 = gpiochip1:2\n") ==
        Strings{
            "castle.ini:2: leds.place.throne: the throne is place 6 (places are named as in game records)",
            "castle.ini:3: leds.place.wc4: 'wc4' is a place of the 2024 castle only: set edition = 2024 in "
            "[castle]",
            "castle.ini:4: leds.turn.8: a turn LED is named by its seat, from 0 to 7: turn.0"});
}

}  // namespace
}  // namespace vivaref::config
