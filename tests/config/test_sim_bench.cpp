// The simulated castle's bench file (config/sim_bench.hpp): its statements
// read, every bad one named by file and line, and `[daemon] sim_bench` in a
// castle configuration (relative to the file, checked with it, sim only).
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "config_test_helpers.hpp"
#include "daemon/config/sim_bench.hpp"

using namespace vivaref::config;

namespace {

// The problems, one a line (doctest prints a string whole).
std::string benchProblems(const std::string& text) {
    ConfigProblems problems;
    (void)parseSimBench(text, "bench.txt", problems);
    std::string out;
    for (const auto& p : problems) out += p.text() + "\n";
    return out;
}

// A directory of its own for files, removed at the end.
struct BenchDir {
    BenchDir() {
        path = std::filesystem::temp_directory_path() /
               ("vivaref-bench-" + std::to_string(std::random_device{}()) + "-" + std::to_string(::getpid()));
        std::filesystem::create_directories(path);
    }
    ~BenchDir() { std::filesystem::remove_all(path); }
    std::filesystem::path write(const std::string& name, const std::string& text) const {
        std::ofstream(path / name) << text;
        return path / name;
    }
    std::filesystem::path path;
};

}  // namespace

TEST_CASE("sim bench: every statement read, wires in one spelling, comments and blank lines skipped") {
    ConfigProblems problems;
    const SimBench bench = parseSimBench(
        "# the castle of the club\n"
        "chip gpiochip0:17 under 3        # swapped\r\n"
        "chip gpiochip0:18 under floor2-a\n"
        "\n"
        "no-chip gpiochip0:22\n"
        "no-chip /dev/spidev0.0\n"
        "couple gpiochip0:17 floor5\n"
        "version gpiochip0:006 0x12\n"
        "  stuck station.2.yes\n"
        "stuck gpiochip1:4\n"
        "dead-led place.3\n"
        "dead-led turn.1\n"
        "dead-led station.0\n"
        "crossed station.0.yes gpiochip2:1\n",
        "bench.txt", problems);
    CHECK(problems.empty());
    REQUIRE(bench.chips.size() == 2);
    CHECK(bench.chips[0].wire == "gpiochip0:17");
    CHECK(bench.chips[0].under == "3");
    CHECK(bench.chips[0].line == 2);
    CHECK(bench.chips[1].under == "floor2-a");
    REQUIRE(bench.noChips.size() == 2);
    CHECK(bench.noChips[1].name == "/dev/spidev0.0");
    REQUIRE(bench.couples.size() == 1);
    CHECK(bench.couples[0].b == "floor5");
    REQUIRE(bench.versions.size() == 1);
    CHECK(bench.versions[0].wire == "gpiochip0:6");  // one spelling, whatever the file's
    CHECK(bench.versions[0].value == 0x12);
    REQUIRE(bench.stuckKeys.size() == 2);
    CHECK(bench.stuckKeys[0].name == "station.2.yes");
    CHECK(bench.stuckKeys[1].name == "gpiochip1:4");
    CHECK(bench.deadLeds.size() == 3);
    REQUIRE(bench.crossedKeys.size() == 1);
    CHECK(bench.crossedKeys[0].a == "station.0.yes");
    CHECK(bench.crossedKeys[0].b == "gpiochip2:1");
    CHECK(bench.crossedKeys[0].line == 14);
    CHECK(bench.file == "bench.txt");
    CHECK_FALSE(bench.empty());
}

TEST_CASE("sim bench: each bad statement is a problem naming the file, its line and what to write") {
    const auto problems = benchProblems(
        "chip gpiochip0:17 over 3\n"             // 1: not "under"
        "chip gpiochip0:17\n"                    // 2: too few words
        "chip gpiochip0:2000 under 3\n"          // 3: no such line number
        "chip /dev/tty0 under 3\n"               // 4: not a spidev device
        "wiggle gpiochip0:17\n"                  // 5: no such statement
        "no-chip gpiochip0:17 gpiochip0:18\n"    // 6: one wire only
        "couple gpiochip0:17 gpiochip0:17\n"     // 7: itself
        "version gpiochip0:6 18\n"               // 8: not 0xHH
        "version gpiochip0:6 0x123\n"            // 9: too many digits
        "stuck station.9.yes\n"                  // 10: no such seat
        "stuck station.2.maybe\n"                // 11: no such key
        "dead-led place.9\n"                     // 12: no such place
        "dead-led floor3\n"                      // 13: not an LED name
        "chip gpiochip0:17 under 3\n"            // 14: fine
        "chip gpiochip0:17 under 3\n"            // 15: twice
        "no-chip gpiochip0:17\n"                 // 16: it has a chip
        "version gpiochip0:6 0x12\n"             // 17: fine
        "version gpiochip0:6 0x88\n"             // 18: given twice
        "chip gpiochip0:17 under fl@@r\n"        // 19: not a name
        "no-chip gpiochip0:22\n"                 // 20: fine
        "chip gpiochip0:22 under 4\n"            // 21: it has none
        "dead-led place.3 place.4\n"             // 22: one LED
        "crossed station.0.yes\n"                // 23: two keys
        "crossed station.0.yes station.0.yes\n"  // 24: itself
        "crossed station.0.yes station.0.no\n"   // 25: fine
        "crossed station.0.no station.1.no\n"    // 26: station.0.no already crossed
        "crossed station.0.no place.3\n");       // 27: not a key
    const std::string expected =
        "bench.txt:1: chip: write chip WIRE under PLACE (e.g. chip gpiochip0:17 under 3)\n"
        "bench.txt:2: chip: write chip WIRE under PLACE (e.g. chip gpiochip0:17 under 3)\n"
        "bench.txt:3: chip: 'gpiochip0:2000': the line number 2000 is out of range: from 0 to 1023\n"
        "bench.txt:4: chip: '/dev/tty0' is not a spidev device: write /dev/spidevBUS.CS, e.g. "
        "/dev/spidev0.0\n"
        "bench.txt:5: wiggle: 'wiggle' is not a bench statement: chip, no-chip, couple, version, stuck, "
        "crossed or dead-led\n"
        "bench.txt:6: no-chip: write no-chip WIRE (e.g. no-chip gpiochip0:22)\n"
        "bench.txt:7: couple: a chip couples with another chip, not with itself\n"
        "bench.txt:8: version: '18' is not a VersionReg byte: write 0x and two hex digits, e.g. 0x12\n"
        "bench.txt:9: version: '0x123' is not a VersionReg byte: write 0x and two hex digits, e.g. 0x12\n"
        "bench.txt:10: stuck: 'station.9.yes' is not a vote key: station.SEAT.yes, .no or .stomachache (seat "
        "0-7), or its GPIO line\n"
        "bench.txt:11: stuck: 'station.2.maybe' is not a vote key: station.SEAT.yes, .no or .stomachache "
        "(seat "
        "0-7), or its GPIO line\n"
        "bench.txt:12: dead-led: 'place.9' is not an LED: place.PLACE, turn.SEAT, station.SEAT (seat 0-7), "
        "or "
        "its GPIO line\n"
        "bench.txt:13: dead-led: 'floor3' is not an LED: place.PLACE, turn.SEAT, station.SEAT (seat 0-7), or "
        "its GPIO line\n"
        "bench.txt:15: chip: given twice (first on line 14)\n"
        "bench.txt:16: no-chip: gpiochip0:17 has a chip (line 14): give it one or the other\n"
        "bench.txt:18: version: gpiochip0:6 has its version on line 17: give it once\n"
        "bench.txt:19: chip: 'fl@@r' is not a place or a reader's name (e.g. 3, floor3-a)\n"
        "bench.txt:21: chip: gpiochip0:22 has no chip (line 20): give it one or the other\n"
        "bench.txt:22: dead-led: write dead-led LED (e.g. dead-led place.3)\n"
        "bench.txt:23: crossed: write crossed KEY KEY (e.g. crossed station.0.yes station.0.no)\n"
        "bench.txt:24: crossed: a key is crossed with another key, not with itself\n"
        "bench.txt:26: crossed: station.0.no is crossed on line 25: a wire goes to one other key\n"
        "bench.txt:27: crossed: 'place.3' is not a vote key: station.SEAT.yes, .no or .stomachache (seat "
        "0-7), or its GPIO line\n";
    CHECK(problems == expected);
}

TEST_CASE("sim bench: binary, overlong and non-ASCII lines are problems, never a crash") {
    CHECK(benchProblems(std::string("chip gpiochip0:1 under 3\0\n", 26)) ==
          "bench.txt:1: not a bench statement: a control byte or a character beyond ASCII\n");
    CHECK(benchProblems("stuck station.1.yes\n" + std::string(2000, 'x') + "\n") ==
          "bench.txt:2: longer than 1024 characters\n");
    CHECK(benchProblems("dead-led place.3 # caf\xC3\xA9\n") ==
          "bench.txt:1: not a bench statement: a control byte or a character beyond ASCII\n");
    CHECK(benchProblems(std::string(kMaxSimBenchBytes + 1, '#')) ==
          "bench.txt: larger than 64 KiB: this is not a bench\n");
    // A byte order mark and CRLF ends are fine.
    CHECK(benchProblems("\xEF\xBB\xBFno-chip gpiochip0:3\r\n").empty());

    // Random bytes and random statement-like words: problems only, every one with its line.
    const std::uint64_t seed = 36;
    std::mt19937_64 random(seed);
    const std::vector<std::string> words = {
        "chip",         "no-chip", "couple",       "version", "stuck", "dead-led", "under",
        "gpiochip0:17", "0x12",    "station.1.no", "place.3", "#",     "\t",       "3",
        "\r",           "\xFF",    "gpiochip0:",   ":",       "0x"};
    for (int round = 0; round < 2000; ++round) {
        std::string text;
        const int length = static_cast<int>(random() % 40);
        for (int i = 0; i < length; ++i) {
            if (random() % 5 == 0)
                text += static_cast<char>(random() % 256);
            else
                text += words[random() % words.size()] + (random() % 4 == 0 ? "\n" : " ");
        }
        ConfigProblems problems;
        const SimBench bench = parseSimBench(text, "bench.txt", problems);
        for (const auto& p : problems) {
            INFO("seed " << seed << ", round " << round << ": " << p.text());
            CHECK(p.line > 0);
        }
        for (const auto& v : bench.versions) CHECK(v.wire.size() > 0);
    }
}

TEST_CASE("sim bench: [daemon] sim_bench is read beside the configuration and checked with it") {
    BenchDir dir;
    dir.write("bench.txt", "no-chip r3\nwiggle\nstuck station.0.yes\nchip r9 under nowhere-at-all\n");
    const auto ini = dir.write("castle.ini", "[daemon]\nhardware = sim\nsim_bench = bench.txt\n");
    const ConfigCheck check = checkCastleConfigFile(ini);
    CHECK(check.config.daemon.simBench == (dir.path / "bench.txt").lexically_normal());
    REQUIRE(check.problems.size() == 1);
    CHECK(check.problems[0].text() == (dir.path / "bench.txt").string() +
                                          ":2: wiggle: 'wiggle' is not a bench statement: chip, no-chip, "
                                          "couple, version, stuck, crossed or dead-led");
    CHECK(check.status == ConfigCheck::Status::Problems);

    dir.write("bench.txt", "no-chip r3\n");
    CHECK(checkCastleConfigFile(ini).status == ConfigCheck::Status::Valid);

    SUBCASE("a bench that is not there") {
        const auto missing = dir.write("other.ini", "[daemon]\nsim_bench = nothing.txt\n");
        const ConfigCheck c = checkCastleConfigFile(missing);
        REQUIRE(c.problems.size() == 1);
        CHECK(c.problems[0].text() == missing.string() + ":2: daemon.sim_bench: the bench " +
                                          (dir.path / "nothing.txt").string() + " is not a file");
    }
    SUBCASE("absolute, and empty") {
        const auto absolute =
            dir.write("abs.ini", "[daemon]\nsim_bench = " + (dir.path / "bench.txt").string() + "\n");
        CHECK(checkCastleConfigFile(absolute).status == ConfigCheck::Status::Valid);
        CHECK(
            vivaref::config::testing::problemTexts("[daemon]\nsim_bench =\n") ==
            std::vector<std::string>{
                "castle.ini:2: daemon.sim_bench: '' is not a file name, e.g. bench.txt (beside this file)"});
    }
}

TEST_CASE("sim bench: only the simulated castle plays a bench") {
    BenchDir dir;
    dir.write("bench.txt", "no-chip gpiochip0:5\n");
    std::string text =
        "[daemon]\nhardware = real\nsim_bench = bench.txt\n" + vivaref::config::testing::classicReaders();
    const auto ini = dir.write("castle.ini", text);
    const ConfigCheck check = checkCastleConfigFile(ini);
    REQUIRE(check.problems.size() == 1);
    CHECK(check.problems[0].line == 3);
    CHECK(check.problems[0].key == "daemon.sim_bench");
    CHECK(check.problems[0].reason ==
          "a bench is the simulated castle's faults: with daemon.hardware = real, leave it out");

    // `hardware = sim` with MFRC522 readers: the simulated castle on the configuration's readers.
    text = "[daemon]\nhardware = sim\nsim_bench = bench.txt\n" + vivaref::config::testing::classicReaders();
    const ConfigCheck sim = checkCastleConfigFile(dir.write("castle.ini", text));
    CHECK(sim.problems.empty());
    CHECK(sim.config.daemon.hardware == Hardware::Sim);
    CHECK(sim.config.readers.size() == 7);
}
