// The simulated castle playing a bench (config/sim_bench.hpp,
// castle/bench_wiring.hpp): each fault as the table (and the self-test)
// sees it, on an MFRC522 castle configured for a Pi and run simulated
// (`hardware = sim`), in virtual time on a ManualClock.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/castle/real_castle.hpp"
#include "daemon/castle/simulated_castle.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/config/sim_bench.hpp"
#include "drivers/leds/led_names.hpp"

using namespace vivaref;
using castle::Microseconds;

namespace {

// A classic castle of MFRC522s, one a place, reader rP on chip-select line
// gpiochip0:(20+P); station 0's keys on gpiochip2:0/1, place 3's LED on gpiochip5:3.
config::CastleConfig benchCastle() {
    std::string text = "[daemon]\nhardware = sim\n";
    for (int p = 0; p <= 6; ++p)
        text += "[reader.r" + std::to_string(p) + "]\nplace = " + std::to_string(p) +
                "\nbus = /dev/spidev0.1\nchip_select = gpiochip0:" + std::to_string(20 + p) + "\n";
    text += "[station.0]\nyes = gpiochip2:0\nno = gpiochip2:1\n[leds]\nplace.3 = gpiochip5:3\n";
    auto check = config::checkCastleConfigText(text, "castle.ini");
    for (const auto& p : check.problems) FAIL(p.text());
    return check.config;
}

config::SimBench bench(const std::string& text) {
    config::ConfigProblems problems;
    config::SimBench out = config::parseSimBench(text, "bench.txt", problems);
    for (const auto& p : problems) FAIL(p.text());
    return out;
}

struct BenchSink final : castle::CastleSink {
    void scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result) override {
        auto& seen = byReader[reader];
        ++seen.scans;
        if (!result.ok()) {
            ++seen.failures[result.error().kind];
            return;
        }
        for (const auto& tag : result.tags()) ++seen.tags[tag];
    }
    void pressed(drivers::StationId station, drivers::VoteKey key) override {
        presses.push_back({station, key});
    }
    void problem(const std::string& message) override { problems.push_back(message); }

    struct Seen {
        int scans = 0;
        std::map<drivers::ScanErrorKind, int> failures;
        std::map<drivers::TagUid, int> tags;
    };
    std::map<drivers::ReaderIndex, Seen> byReader;
    std::vector<std::pair<drivers::StationId, drivers::VoteKey>> presses;
    std::vector<std::string> problems;
};

// The castle of benchCastle() on `bench` (kept here, as serve keeps it).
struct BenchRig {
    explicit BenchRig(const std::string& benchText) : config(benchCastle()), theBench(bench(benchText)) {
        auto layout = castle::realBoardLayout(config);
        auto options = castle::simulatedCastleOptions(config, layout);
        options.bench = &theBench;
        sim.emplace(std::move(layout), clock, std::move(options));
        sim->start(sink);
    }
    void runFor(Microseconds span) {
        const Microseconds end = clock.nowMicros() + span;
        while (clock.nowMicros() < end) {
            const Microseconds next = sim->step();
            clock.set(std::min(std::max(next, clock.nowMicros() + Microseconds(1)), end));
        }
    }
    drivers::ReaderIndex reader(int place) const {
        return *sim->layout().findReader(drivers::ReaderId{"r" + std::to_string(place)});
    }
    BenchSink::Seen& seen(int place) { return sink.byReader[reader(place)]; }
    int reads(int place, const drivers::TagUid& tag) { return seen(place).tags[tag]; }
    int failures(int place, drivers::ScanErrorKind kind) { return seen(place).failures[kind]; }

    config::CastleConfig config;
    config::SimBench theBench;
    drivers::ManualClock clock;
    BenchSink sink;
    std::optional<castle::SimulatedCastle> sim;
};

// The default options but the bench, made in a function GCC does not inline
// (GCC 12's ASan build warns of the coupling's optional, inlined, as maybe unset).
[[gnu::noinline]] castle::SimulatedCastleOptions benchOnly(const config::SimBench& bench) {
    castle::SimulatedCastleOptions options;
    options.bench = &bench;
    return options;
}

const drivers::TagUid kTag = drivers::simulatedTagUid("odessa");
const drivers::TagUid kOther = drivers::simulatedTagUid("kennedy");
constexpr Microseconds kSecond{1'000'000};

}  // namespace

TEST_CASE("bench castle: without a bench every reader reads its own place and says it is an MFRC522 v2.0") {
    BenchRig rig("");
    REQUIRE(rig.sim->put(kTag, {"3"}));
    rig.runFor(kSecond);
    CHECK(rig.reads(3, kTag) > 10);
    for (int p = 0; p <= 6; ++p) {
        CHECK(rig.seen(p).failures.empty());
        if (p != 3) CHECK(rig.reads(p, kTag) == 0);
        const auto chip = rig.sim->chipOf(rig.reader(p));
        REQUIRE(chip);
        CHECK(chip->kind == "mfrc522");
        CHECK(chip->version == "0x92");
        CHECK(chip->model == "MFRC522 v2.0");
        CHECK_FALSE(chip->clone);
    }
    CHECK(rig.sink.problems.empty());
    CHECK(rig.sim->keysDown().empty());
}

TEST_CASE("bench castle: a dead reader (no chip on its line) fails every scan with NoAnswer") {
    BenchRig rig("no-chip gpiochip0:22\n");
    REQUIRE(rig.sim->put(kTag, {"2"}));
    rig.runFor(kSecond);
    CHECK(rig.failures(2, drivers::ScanErrorKind::NoAnswer) == rig.seen(2).scans);
    CHECK(rig.seen(2).scans > 0);
    CHECK(rig.reads(2, kTag) == 0);
    CHECK_FALSE(rig.sim->chipOf(rig.reader(2)));
    CHECK(rig.seen(1).failures.empty());
}

TEST_CASE("bench castle: two readers swapped read each other's place") {
    // r2 (line 22) is under place 3, r3 (line 23) under place 2.
    BenchRig rig("chip gpiochip0:22 under 3\nchip gpiochip0:23 under 2\n");
    REQUIRE(rig.sim->put(kTag, {"2"}));
    REQUIRE(rig.sim->put(kOther, {"3"}));
    rig.runFor(kSecond);
    CHECK(rig.reads(3, kTag) > 10);
    CHECK(rig.reads(2, kOther) > 10);
    CHECK(rig.reads(2, kTag) == 0);
    CHECK(rig.reads(3, kOther) == 0);
    CHECK(rig.seen(2).failures.empty());
    CHECK(rig.seen(3).failures.empty());
}

TEST_CASE("bench castle: a chip select on the wrong line: the configured reader is dead, the chip unheard") {
    // Place 3's chip is on line 27, which no reader is configured on; r3's line 23 has none.
    BenchRig rig("chip gpiochip0:27 under 3\n");
    REQUIRE(rig.sim->put(kTag, {"3"}));
    rig.runFor(kSecond);
    CHECK(rig.seen(3).scans > 0);
    CHECK(rig.failures(3, drivers::ScanErrorKind::NoAnswer) == rig.seen(3).scans);
    CHECK_FALSE(rig.sim->chipOf(rig.reader(3)));
    for (int p = 0; p <= 6; ++p) CHECK(rig.reads(p, kTag) == 0);
}

TEST_CASE("bench castle: two chips on one line answer together: protocol errors and garbled UIDs") {
    // Place 4's chip is wired to line 23 too (r4's line 24 has none).
    BenchRig rig("chip gpiochip0:23 under 3\nchip gpiochip0:23 under 4\n");
    REQUIRE(rig.sim->put(kTag, {"4"}));
    rig.runFor(3 * kSecond);
    CHECK(rig.failures(4, drivers::ScanErrorKind::NoAnswer) == rig.seen(4).scans);
    INFO("r3: " << rig.seen(3).scans << " scans, " << rig.seen(3).failures.size() << " kinds of failure, "
                << rig.seen(3).tags.size() << " tags");
    CHECK(rig.failures(3, drivers::ScanErrorKind::Protocol) > 3);
    CHECK(rig.reads(3, kTag) > 5);  // the tag over place 4 comes through r3
    std::size_t garbled = 0;
    for (const auto& [tag, count] : rig.seen(3).tags)
        if (tag != kTag) garbled += static_cast<std::size_t>(count);
    CHECK(garbled > 5);
    REQUIRE(rig.sim->chipOf(rig.reader(3)));
}

TEST_CASE("bench castle: a coupled pair both read a tag over either") {
    BenchRig rig("couple gpiochip0:21 gpiochip0:22\n");
    REQUIRE(rig.sim->put(kTag, {"1"}));
    rig.runFor(kSecond);
    CHECK(rig.reads(1, kTag) > 10);
    CHECK(rig.reads(2, kTag) > 10);
    CHECK(rig.reads(0, kTag) == 0);
    rig.sim->lift(kTag);
    REQUIRE(rig.sim->put(kOther, {"2"}));
    rig.runFor(kSecond);
    CHECK(rig.reads(1, kOther) > 10);
    CHECK(rig.reads(2, kOther) > 10);
    CHECK(rig.reads(3, kOther) == 0);
}

TEST_CASE("bench castle: a clone's version is named; an unknown version fails as the real driver does") {
    BenchRig rig(
        "version gpiochip0:20 0x12\nversion gpiochip0:21 0x88\nversion gpiochip0:22 0x91\n"
        "version gpiochip0:23 0x37\nversion gpiochip0:24 0x00\n");
    const auto counterfeit = rig.sim->chipOf(rig.reader(0));
    REQUIRE(counterfeit);
    CHECK(counterfeit->version == "0x12");
    CHECK(counterfeit->model == "MFRC522");
    CHECK(counterfeit->clone);
    const auto fm = rig.sim->chipOf(rig.reader(1));
    REQUIRE(fm);
    CHECK(fm->model == "FM17522");
    CHECK(fm->clone);
    const auto v1 = rig.sim->chipOf(rig.reader(2));
    REQUIRE(v1);
    CHECK(v1->model == "MFRC522 v1.0");
    CHECK_FALSE(v1->clone);
    const auto stranger = rig.sim->chipOf(rig.reader(3));
    REQUIRE(stranger);
    CHECK(stranger->version == "0x37");
    CHECK(stranger->model.empty());
    CHECK_FALSE(rig.sim->chipOf(rig.reader(4)));  // 0x00: nothing on the bus

    REQUIRE(rig.sim->put(kTag, {"0"}));
    rig.runFor(kSecond);
    CHECK(rig.reads(0, kTag) > 10);  // a clone reads as well as the real thing
    CHECK(rig.seen(3).scans > 0);
    CHECK(rig.failures(3, drivers::ScanErrorKind::WrongVersion) == rig.seen(3).scans);
    CHECK(rig.failures(4, drivers::ScanErrorKind::NoAnswer) == rig.seen(4).scans);
}

TEST_CASE("bench castle: a stuck key never gives a press, by its name or by its line") {
    for (const std::string& statement :
         {std::string("stuck station.0.yes\n"), std::string("stuck gpiochip2:0\n")}) {
        BenchRig rig(statement);
        rig.sim->press(drivers::StationId{0}, drivers::VoteKey::Yes);
        rig.sim->press(drivers::StationId{0}, drivers::VoteKey::No);
        rig.runFor(Microseconds(100'000));
        CHECK(rig.sink.presses ==
              std::vector<std::pair<drivers::StationId, drivers::VoteKey>>{{{0}, drivers::VoteKey::No}});
        CHECK(rig.sim->keysDown() ==
              std::vector<std::pair<drivers::StationId, drivers::VoteKey>>{{{0}, drivers::VoteKey::Yes}});
    }
}

TEST_CASE("bench castle: a dead LED line shows dark on the page whatever is shown") {
    for (const std::string& statement :
         {std::string("dead-led place.3\n"), std::string("dead-led gpiochip5:3\n")}) {
        BenchRig rig(statement);
        const drivers::LedStates shown = {{drivers::placeLed({"3"}), drivers::LedMode::On},
                                          {drivers::placeLed({"2"}), drivers::LedMode::Blink}};
        rig.sim->show(shown, drivers::Timestamp(0));
        CHECK(rig.sim->view().leds ==
              drivers::LedStates{{drivers::placeLed({"2"}), drivers::LedMode::Blink}});
        CHECK(rig.sim->leds().size() == 1);
    }
}

TEST_CASE("bench castle: a statement that names nothing in this castle is said once at start") {
    BenchRig rig("chip gpiochip0:21 under wc3\nstuck gpiochip9:9\n");
    REQUIRE(rig.sink.problems.size() == 2);
    CHECK(rig.sink.problems[0] ==
          "simulated bench: bench.txt:1: chip gpiochip0:21 under wc3: no such place or reader in this castle "
          "(the "
          "chip reads nothing)");
    CHECK(rig.sink.problems[1] ==
          "simulated bench: bench.txt:2: stuck gpiochip9:9: no vote key of this castle is on that line");
    // Line 21's one chip is nowhere: r1 answers, empty.
    REQUIRE(rig.sim->put(kTag, {"1"}));
    rig.runFor(kSecond);
    CHECK(rig.seen(1).failures.empty());
    CHECK(rig.reads(1, kTag) == 0);
}

TEST_CASE("bench castle: sim readers are named by their names; a castle rebuilt on the bench keeps it") {
    const config::SimBench shared = bench("no-chip floor2\nversion floor4 0x88\n");
    drivers::ManualClock clock;
    for (int build = 0; build < 2; ++build) {
        castle::SimulatedCastle sim(drivers::standardBoardLayout(), clock, benchOnly(shared));
        const auto floor2 = *sim.layout().findReader({"floor2"});
        const auto floor4 = *sim.layout().findReader({"floor4"});
        CHECK_FALSE(sim.chipOf(floor2));
        REQUIRE(sim.chipOf(floor4));
        CHECK(sim.chipOf(floor4)->kind == "sim");
        CHECK(sim.chipOf(floor4)->model == "FM17522");
        CHECK(sim.chipOf(0)->model == "MFRC522 v2.0");
    }
}

TEST_CASE("bench castle: the bench holds under a configuration rewritten for the same castle") {
    // The set-up rewrites the configuration: other names, another order, the same wires.
    std::string text = "[daemon]\nhardware = sim\n";
    for (int p = 6; p >= 0; --p)
        text += "[reader.spot" + std::to_string(p) + "]\nplace = " + std::to_string(p) +
                "\nbus = /dev/spidev0.1\nchip_select = gpiochip0:" + std::to_string(20 + p) + "\n";
    const auto rewritten = config::checkCastleConfigText(text, "castle.ini");
    REQUIRE(rewritten.problems.empty());
    const config::SimBench shared = bench("no-chip gpiochip0:22\nversion gpiochip0:25 0x88\n");
    drivers::ManualClock clock;
    for (const config::CastleConfig& castleConfig : {benchCastle(), rewritten.config}) {
        auto layout = castle::realBoardLayout(castleConfig);
        auto options = castle::simulatedCastleOptions(castleConfig, layout);
        options.bench = &shared;
        castle::SimulatedCastle sim(std::move(layout), clock, std::move(options));
        for (drivers::ReaderIndex r = 0; r < sim.layout().readerCount(); ++r) {
            const auto place = sim.layout().place(sim.layout().placeOf(r)).name;
            INFO("place " << place);
            const auto chip = sim.chipOf(r);
            CHECK(chip.has_value() == (place != "2"));
            if (chip) CHECK(chip->clone == (place == "5"));
        }
    }
}
