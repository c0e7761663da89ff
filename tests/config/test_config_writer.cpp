// The INI writer (config_writer.hpp): read -> write -> read gives the same
// castle, for the shipped examples and for castles varied at random (fixed
// seed, printed on failure; VIVAREF_WRITER_SEED picks another); the base
// file's other sections are carried through as they were; a value that
// cannot be written is refused, naming its key, and nothing is written.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <doctest/doctest.h>

#include "daemon/config/config_check.hpp"
#include "daemon/config/config_writer.hpp"
#include "daemon/config/ini_reader.hpp"
#include "tests/config/castle_difference.hpp"

namespace vivaref::config {
namespace {

std::string exampleText(const std::string& name) {
    std::ifstream in(std::filesystem::path(VIVAREF_CONFIG_EXAMPLES) / name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// `castle` written over `base`, then read back: the problems of the reading and the castle read.
ConfigCheck writtenAndRead(const CastleConfig& castle, const std::string& base) {
    const auto written = writeCastleConfig(castle, base);
    REQUIRE_MESSAGE(written.ok(), written.refusedKey << ": " << written.refusedReason);
    return checkCastleConfigText(written.text, "written.ini");
}

TEST_CASE("the shipped examples: read, written, read again: the same castle, still valid") {
    for (const char* name : {"castle-2024.ini", "sim.ini"}) {
        CAPTURE(name);
        const std::string base = exampleText(name);
        const auto first = checkCastleConfigText(base, name);
        REQUIRE(first.status == ConfigCheck::Status::Valid);
        const auto again = writtenAndRead(first.config, base);
        for (const auto& p : again.problems) MESSAGE(p.text());
        CHECK(again.status == ConfigCheck::Status::Valid);
        CHECK(testing::castleDifference(first.config, again.config) == "");
        // Written twice, the same text: the writer depends on nothing but the castle and the base.
        CHECK(writeCastleConfig(again.config, writeCastleConfig(first.config, base).text).text ==
              writeCastleConfig(first.config, base).text);
    }
}

TEST_CASE(
    "the full example written: the castle's sections in the example's order, the others kept line for line") {
    const std::string base = exampleText("castle-2024.ini");
    const auto first = checkCastleConfigText(base, "castle-2024.ini");
    const std::string text = writeCastleConfig(first.config, base).text;
    std::vector<std::string> headers;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with('[')) headers.push_back(line);
    REQUIRE(headers.size() >= 8);
    CHECK(headers[0] == "[castle]");
    CHECK(headers[1] == "[daemon]");
    CHECK(headers[2] == "[voice]");
    CHECK(headers[3] == "[store]");
    CHECK(headers[4] == "[sensing]");
    CHECK(headers[5] == "[buttons]");
    CHECK(headers[6] == "[leds]");
    CHECK(headers[7] == "[reader.floor0-a]");
    CHECK(headers.back() == "[station.7]");
    // [daemon] and [voice] are the base's own lines, comments included.
    const auto daemonAt = base.find("[daemon]");
    const auto daemonText = base.substr(daemonAt, base.find("\n[voice]") - daemonAt);
    CHECK(text.find(daemonText) != std::string::npos);
    CHECK(text.find("# The host's password for the game controls") != std::string::npos);
    // The castle's keys as the example writes them.
    CHECK(text.find(
              "[reader.floor0-a]\nplace = 0\ntype = mfrc522\nbus = /dev/spidev0.0\nchip_select = bus\n") !=
          std::string::npos);
    CHECK(text.find("place.6 = gpiochip5:6\n") != std::string::npos);
    CHECK(text.find("[station.0]\nyes = gpiochip2:0\nno = gpiochip2:1\nstomachache = gpiochip2:2\nled = "
                    "gpiochip2:3\n") != std::string::npos);
}

TEST_CASE("a base with a club, a CRLF end and a section the castle does not know: all carried") {
    const std::string base =
        "[daemon]\r\nhardware = sim\r\n# the club below\r\n\r\n[club]\r\nserver = club.example.org\r\n"
        "table = north-hall\r\npassword = pw   # inline, not advised\r\n[castle]\r\nedition = classic\r\n"
        "[mystery]\r\nkey = 1\r\n";
    CastleConfig castle;
    castle.edition = CastleEdition::Vive2024;
    const auto written = writeCastleConfig(castle, base);
    REQUIRE(written.ok());
    CHECK(written.text.find(
              "[daemon]\nhardware = sim\n# the club below\n\n[club]\nserver = club.example.org\n"
              "table = north-hall\npassword = pw   # inline, not advised\n\n[mystery]\nkey = 1\n") !=
          std::string::npos);
    CHECK(written.text.find("edition = classic") == std::string::npos);
    CHECK(written.text.find("edition = 2024") != std::string::npos);
    const auto again = checkCastleConfigText(written.text, "written.ini");
    REQUIRE(again.config.club);
    CHECK(again.config.club->password == "pw");
    // The unknown section is still there for check-config to name.
    bool named = false;
    for (const auto& p : again.problems) named = named || p.key == "[mystery]";
    CHECK(named);
}

TEST_CASE("[daemon]'s hardware and bench follow the castle; its other lines stay as they were") {
    CastleConfig castle;
    castle.daemon.hardware = Hardware::Real;  // the set-up page's "use this castle's readers"
    const auto written =
        writeCastleConfig(castle, "[daemon]\nhardware = sim\nsim_bench = /srv/bench.txt\nhttp_port = 8081\n");
    REQUIRE(written.ok());
    CHECK(written.text.find("[daemon]\nhardware = real\n# (the simulated castle's bench, not used by this "
                            "configuration) sim_bench = /srv/bench.txt\nhttp_port = 8081\n") !=
          std::string::npos);
    const auto again = checkCastleConfigText(written.text, "written.ini");
    CHECK(again.config.daemon.hardware == Hardware::Real);
    CHECK(again.config.daemon.simBench.empty());
    CHECK(again.config.daemon.httpPort == 8081);
    // No hardware line: one is written under the header; no [daemon]: one is made for a real castle.
    CHECK(writeCastleConfig(castle, "[daemon]\nhttp_port = 8081\n")
              .text.find("[daemon]\nhardware = real\nhttp_port = 8081\n") != std::string::npos);
    CHECK(writeCastleConfig(castle, "[club]\ntable = north\n").text.find("[daemon]\nhardware = real\n") !=
          std::string::npos);
    // The same hardware: the base's line as it was, and the bench kept.
    castle.daemon.hardware = Hardware::Sim;
    CHECK(writeCastleConfig(castle, "[daemon]\nhardware  =  sim\nsim_bench = /srv/bench.txt\n")
              .text.find("[daemon]\nhardware  =  sim\nsim_bench = /srv/bench.txt\n") != std::string::npos);
}

TEST_CASE(
    "a kept file name relative to the base's directory is written absolute when the base is elsewhere") {
    const std::string base = "[daemon]\nhardware = sim\nsim_bench = benches/dead.txt  # the dead reader\n";
    const auto moved = writeCastleConfig(CastleConfig{}, base, "/etc/vivaref");
    REQUIRE(moved.ok());
    CHECK(moved.text.find("[daemon]\nhardware = sim\nsim_bench = /etc/vivaref/benches/dead.txt\n") !=
          std::string::npos);
    // Without the base's directory (or already absolute): kept as written.
    CHECK(writeCastleConfig(CastleConfig{}, base)
              .text.find("sim_bench = benches/dead.txt  # the dead reader\n") != std::string::npos);
    const std::string absolute = "[daemon]\nsim_bench = /srv/bench.txt\n";
    CHECK(writeCastleConfig(CastleConfig{}, absolute, "/etc/vivaref")
              .text.find("sim_bench = /srv/bench.txt\n") != std::string::npos);
}

// A castle varied at random over everything the file can say of it, every
// value one the reader takes (whether the castle as a whole is valid is
// check-config's, not the writer's).
CastleConfig randomCastle(std::mt19937_64& random, CastleConfig c) {
    auto pick = [&](int n) { return static_cast<int>(random() % static_cast<std::uint64_t>(n)); };
    auto coin = [&] { return pick(2) == 1; };
    auto chip = [&] { return "gpiochip" + std::to_string(pick(6)); };
    c.edition = coin() ? CastleEdition::Vive2024 : CastleEdition::Classic;
    c.fieldRule = static_cast<FieldRule>(pick(3));
    c.maxFieldsOn = static_cast<std::size_t>(pick(65));
    auto& k = c.sensing;
    k.majorityScans = static_cast<std::size_t>(1 + pick(15));
    k.stickyPresence = coin();
    k.lostAfterMisses = static_cast<std::size_t>(1 + pick(15));
    k.stabilityWindow = Timestamp(pick(5001));
    k.inHandAtOnce = coin();
    k.inHandGrace = Timestamp(1 + pick(600000));
    k.faultyAfterFailures = static_cast<std::uint32_t>(1 + pick(1000));
    k.blindLeaveWait = Timestamp(pick(60001));
    c.backoff.failuresBeforeBackoff = static_cast<std::uint32_t>(pick(1001));
    c.backoff.firstBackoff = Timestamp(1 + pick(600000));
    c.backoff.maxBackoff = Timestamp(1 + pick(3600000));
    c.scanInterval = Timestamp(1 + pick(1000));
    c.buttonDebounce = Timestamp(pick(1001));
    const auto places = castlePlaces(c.edition);
    c.readers.clear();
    const int readers = pick(31);
    for (int i = 0; i < readers; ++i) {
        ReaderConfig r;
        r.name = std::string(coin() ? "floor" : "R_") + std::to_string(i) + (coin() ? "-b" : "");
        r.place = pick(12) == 0 ? std::string(kEnrolmentPlace)
                                : places[static_cast<std::size_t>(pick(static_cast<int>(places.size())))];
        r.type = static_cast<ReaderType>(pick(3));
        if (r.type == ReaderType::Mfrc522) {
            r.bus = "/dev/spidev" + std::to_string(pick(3)) + "." + std::to_string(pick(3));
            if (coin()) r.chipSelect = GpioLine{chip(), static_cast<unsigned>(pick(1024))};
            if (coin()) r.spiHz = static_cast<std::uint32_t>(100000 + pick(9900001));
        } else if (r.type == ReaderType::Pn532) {
            r.bus = coin() ? "pn532_uart:/dev/ttyS" + std::to_string(pick(4)) : "pn532_i2c:/dev/i2c-1";
        }
        for (int n = pick(3); n > 0; --n) r.neighbours.push_back("floor" + std::to_string(pick(30)));
        c.readers.push_back(std::move(r));
    }
    auto pin = [&](bool isKey) {
        GpioPin p;
        p.gpio = {chip(), static_cast<unsigned>(pick(1024))};
        p.activeLow = coin();
        p.bias = isKey ? static_cast<Bias>(pick(4)) : Bias::AsIs;
        return p;
    };
    c.stations.clear();
    const int stations = pick(9);
    for (int seat = 0; seat < stations; ++seat) {
        StationConfig s;
        s.seat = seat;
        s.yes = pin(true);
        s.no = pin(true);
        if (c.edition == CastleEdition::Vive2024 || coin()) s.stomachache = pin(true);
        if (coin()) s.led = pin(false);
        c.stations.push_back(s);
    }
    c.placeLeds.clear();
    for (const auto& place : places)
        if (coin()) c.placeLeds[place] = pin(false);
    c.turnLeds.clear();
    for (int seat = 0; seat < 8; ++seat)
        if (coin()) c.turnLeds[seat] = pin(false);
    return c;
}

TEST_CASE("castles varied at random: read -> write -> read gives the same castle") {
    std::uint64_t seed = 20261129;
    if (const char* s = std::getenv("VIVAREF_WRITER_SEED")) seed = std::strtoull(s, nullptr, 10);
    CAPTURE(seed);
    std::mt19937_64 random(seed);
    const std::string bases[] = {exampleText("castle-2024.ini"), exampleText("sim.ini"), ""};
    for (int round = 0; round < 300; ++round) {
        CAPTURE(round);
        const std::string& base = bases[round % 3];
        const CastleConfig castle = randomCastle(random, checkCastleConfigText(base, "base.ini").config);
        const auto written = writeCastleConfig(castle, base);
        REQUIRE_MESSAGE(written.ok(), written.refusedKey << ": " << written.refusedReason);
        const auto again = checkCastleConfigText(written.text, "written.ini");
        // The file reads without a problem of syntax or value: what is left is the castle's as a whole.
        for (const auto& p : again.problems) {
            CAPTURE(p.text());
            CHECK((p.line == 0 || p.key.starts_with("reader.") || p.key.starts_with("station.") ||
                   p.key.starts_with("leds.") || p.key.starts_with("sensing.") ||
                   p.key.starts_with("daemon.")));
        }
        // The hardware when the base does not say it follows the readers, as the reader decides it.
        CastleConfig expected = castle;
        if (base.find("hardware") == std::string::npos)
            expected.daemon.hardware = again.config.daemon.hardware;
        const auto difference = testing::castleDifference(expected, again.config);
        if (!difference.empty()) MESSAGE("seed " << seed << ", round " << round << ":\n" << written.text);
        REQUIRE(difference == "");
    }
}

TEST_CASE("any text in the castle's values: refused, or written so that every value reads back as it was") {
    std::uint64_t seed = 20261130;
    if (const char* s = std::getenv("VIVAREF_WRITER_SEED")) seed = std::strtoull(s, nullptr, 10);
    CAPTURE(seed);
    std::mt19937_64 random(seed);
    // Pieces that break INI files, and ordinary ones.
    const std::vector<std::string> pieces = {
        "a",       "Z", "3",  "-",  "_", ".",  ":", "/",        " ",    "\t",   "#",         "=",
        "[",       "]", "\n", "\r", ";", "\"", "'", "\xC3\xA9", "\xFF", "\x7F", "gpiochip0", "/dev/spidev0.1",
        "floor3-a"};
    // Mostly an ordinary value (names stay names), else a few pieces of anything.
    auto text = [&](const std::string& ordinary) {
        if (random() % 3 != 0) return ordinary;
        std::string out;
        for (auto n = random() % 4; n > 0; --n) out += pieces[random() % pieces.size()];
        return out;
    };
    int refused = 0, written = 0;
    for (int round = 0; round < 2000; ++round) {
        CAPTURE(round);
        CastleConfig c;
        c.edition = CastleEdition::Vive2024;
        ReaderConfig r;
        r.name = text("floor3-a");
        r.place = text("3");
        r.bus = text("/dev/spidev0.1");
        r.chipSelect = GpioLine{text("gpiochip0"), 3};
        r.neighbours = {text("floor3-b")};
        c.readers.push_back(r);
        c.placeLeds["0"] =
            GpioPin{.gpio = {text("gpiochip5"), 1}, .activeLow = false, .bias = Bias::AsIs, .sourceLine = 0};
        const auto out = writeCastleConfig(c, "");
        if (!out.ok()) {
            ++refused;
            CHECK(out.text.empty());
            CHECK_FALSE(out.refusedReason.empty());
            continue;
        }
        ++written;
        ConfigProblems problems;
        const IniFile ini = readIni(out.text, "written.ini", problems);
        CHECK(problems.empty());
        std::map<std::string, std::string> values;
        for (const auto& e : ini.entries) values[e.fullKey()] = e.value;
        const std::string key = "reader." + r.name;
        CHECK(values[key + ".place"] == r.place);
        CHECK(values[key + ".bus"] == r.bus);
        CHECK(values[key + ".chip_select"] == r.chipSelect->text());
        CHECK(values[key + ".neighbours"] == r.neighbours.front());
        CHECK(values["leds.place.0"] == c.placeLeds["0"].gpio.text());
    }
    MESSAGE(written << " written, " << refused << " refused (seed " << seed << ")");
    CHECK(written > 50);
    CHECK(refused > 50);
}

TEST_CASE("values that cannot be written are refused with the key and the reason; nothing is written") {
    const auto base = checkCastleConfigText(exampleText("castle-2024.ini"), "castle-2024.ini").config;
    auto refused = [&](auto change) {
        CastleConfig c = base;
        change(c);
        return writeCastleConfig(c, "");
    };
    const auto hash = refused([](CastleConfig& c) { c.readers[2].bus = "/dev/spidev0.1#2"; });
    CHECK_FALSE(hash.ok());
    CHECK(hash.text.empty());
    CHECK(hash.refusedKey == "reader.floor0-c.bus");
    CHECK(hash.refusedReason.find("'#'") != std::string::npos);
    const auto newline = refused([](CastleConfig& c) { c.readers[0].place = "3\n[daemon]"; });
    CHECK(newline.refusedKey == "reader.floor0-a.place");
    CHECK(newline.refusedReason.find("line break") != std::string::npos);
    const auto space = refused([](CastleConfig& c) { c.readers[0].bus = " /dev/spidev0.0"; });
    CHECK(space.refusedKey == "reader.floor0-a.bus");
    const auto name = refused([](CastleConfig& c) { c.readers[1].name = "floor 0]"; });
    CHECK(name.refusedKey == "[reader.floor 0]]");
    const auto chip = refused([](CastleConfig& c) { c.stations[1].no->gpio.chip = "gpio#chip2"; });
    CHECK(chip.refusedKey == "station.1.no");
    const auto neighbour = refused([](CastleConfig& c) { c.readers[3].neighbours = {"floor2-a,floor2-b"}; });
    CHECK(neighbour.refusedKey == "reader.floor1-a.neighbours");
    const auto ledBias = refused([](CastleConfig& c) { c.turnLeds[0].bias = Bias::PullUp; });
    CHECK(ledBias.refusedKey == "leds.turn.0");
}

}  // namespace
}  // namespace vivaref::config

TEST_CASE(
    "a configuration to be shown: the host's secret and the club's passwords hidden, all else as it was") {
    const std::string text =
        "[daemon]\nhardware = sim\nhost_token = Very-Secret-0123456789abcdef  # the host's\n"
        "[club]\ntable = kitchen\npassword=s3cret\nleague_password = other\n"
        "[voice]\npassword = not-a-secret-here\n[castle]\nedition = 2024";
    const std::string shown = withSecretsHidden(text);
    CHECK(shown ==
          "[daemon]\nhardware = sim\nhost_token = ********\n"
          "[club]\ntable = kitchen\npassword= ********\nleague_password = ********\n"
          "[voice]\npassword = not-a-secret-here\n[castle]\nedition = 2024");
    CHECK(shown.find("Very-Secret") == std::string::npos);
    CHECK(shown.find("s3cret") == std::string::npos);
    // A file with no secret is shown as it is.
    const std::string plain = "[castle]\nedition = classic\n\n[sensing]\nmajority_scans = 2\n";
    CHECK(withSecretsHidden(plain) == plain);
}
