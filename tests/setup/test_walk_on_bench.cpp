// The castle walk on the simulated castle playing a bench (the physical
// castle's faults, daemon/config/sim_bench.hpp): each fault the issue names
// is found and named with its fix, on a castle of MFRC522s wired as a real
// one (chip selects on gpiochip0, keys and an LED on expanders).
#include <doctest/doctest.h>

#include "daemon/castle/real_castle.hpp"
#include "daemon/castle/simulated_castle.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/config/sim_bench.hpp"
#include "daemon/setup/castle_walk.hpp"
#include "daemon/words/words.hpp"

using namespace vivaref;
using drivers::ReaderIndex;
using drivers::Timestamp;
using setup::WalkAnswer;
using setup::WalkStep;

namespace {

std::string benchWalkText(const engine::Message& m) {
    return words::Words("en", words::NameMarks::Plain).say(m);
}

// Reader rP under place P on chip select gpiochip0:(20+P); station 0's keys on
// gpiochip2:0/1; place 3's LED on gpiochip5:3, place 4's on gpiochip0:5.
config::CastleConfig walkBenchCastle() {
    std::string text = "[daemon]\nhardware = sim\n";
    for (int p = 0; p <= 6; ++p)
        text += "[reader.r" + std::to_string(p) + "]\nplace = " + std::to_string(p) +
                "\nbus = /dev/spidev0.1\nchip_select = gpiochip0:" + std::to_string(20 + p) + "\n";
    text +=
        "[station.0]\nyes = gpiochip2:0\nno = gpiochip2:1\n[leds]\nplace.3 = gpiochip5:3\nplace.4 = "
        "gpiochip0:5\n";
    auto check = config::checkCastleConfigText(text, "castle.ini");
    for (const auto& p : check.problems) FAIL(p.text());
    return check.config;
}

config::SimBench walkBench(const std::string& text) {
    config::ConfigProblems problems;
    config::SimBench out = config::parseSimBench(text, "bench.txt", problems);
    for (const auto& p : problems) FAIL(p.text());
    return out;
}

// The walk on the bench castle: the castle's sink hands it every scan and
// press; the host answers what the castle's LEDs show; a hand presses keys
// and puts the tag.
struct BenchWalkRig final : castle::CastleSink {
    BenchWalkRig(const std::string& benchText, bool full)
        : config(walkBenchCastle()), bench(walkBench(benchText)) {
        auto layout = castle::realBoardLayout(config);
        auto options = castle::simulatedCastleOptions(config, layout);
        options.bench = &bench;
        sim.emplace(layout, clock, std::move(options));
        setup::WalkOptions walkOptions;
        walkOptions.full = full;
        walk.emplace(
            setup::walkCastleOf(config, layout), walkOptions,
            [this](ReaderIndex r) { return sim->chipOf(r); }, Timestamp{0});
        walk->setKeysDown([this] { return sim->keysDown(); });
        sim->start(*this);
    }
    void scanned(ReaderIndex reader, const drivers::ScanResult& result) override {
        walk->scanned(reader, result, clock.now());
    }
    void pressed(drivers::StationId station, drivers::VoteKey key) override {
        walk->pressed(station, key, clock.now());
    }
    void problem(const std::string&) override {}

    void runFor(Timestamp span) {
        const auto end = clock.nowMicros() + std::chrono::duration_cast<std::chrono::microseconds>(span);
        while (clock.nowMicros() < end) {
            const auto next = sim->step();
            clock.set(std::min(std::max(next, clock.nowMicros() + std::chrono::microseconds(1)), end));
            walk->advance(clock.now());
            sim->show(walk->leds(), clock.now());
        }
    }
    // The whole walk, as a host at the castle would answer it.
    void walkThrough() {
        const drivers::TagUid tag = drivers::TagUid::fromHex("04BE4C0000A001");
        runFor(Timestamp{2100});
        for (int guard = 0; !walk->done() && guard < 400; ++guard) {
            switch (walk->step()) {
                case WalkStep::Leds: {
                    // Lit is what the castle shows lit (a dead LED line drives nothing).
                    const auto& asked = walk->castle().leds[static_cast<std::size_t>(walk->item())].led;
                    REQUIRE(walk->answer(sim->leds().contains(asked) ? WalkAnswer::Lit : WalkAnswer::NotLit,
                                         clock.now()));
                    runFor(Timestamp{20});
                    break;
                }
                case WalkStep::Keys:
                    if (walk->answers().empty()) {
                        runFor(Timestamp{100});
                    } else {
                        const auto& key = walk->castle().keys[static_cast<std::size_t>(walk->item())];
                        sim->press(key.station, key.key);
                        runFor(Timestamp{200});
                        // Pressed, and nothing answered: the host says so.
                        if (walk->step() == WalkStep::Keys &&
                            walk->castle().keys[static_cast<std::size_t>(walk->item())] == key)
                            REQUIRE(walk->answer(WalkAnswer::Done, clock.now()));
                    }
                    break;
                case WalkStep::Tags:
                    if (benchWalkText(walk->prompt()) == "Take every tag off the castle.") {
                        sim->lift(tag);
                        runFor(Timestamp{100});
                    } else {
                        const auto& over = walk->castle().readers[static_cast<std::size_t>(walk->item())];
                        REQUIRE(sim->board().putOver(tag, drivers::ReaderId{over.name}));
                        runFor(Timestamp{900});
                        // The tag is down and nothing happened: the host says so.
                        if (walk->step() == WalkStep::Tags &&
                            benchWalkText(walk->prompt()) != "Take every tag off the castle.")
                            REQUIRE(walk->answer(WalkAnswer::Done, clock.now()));
                    }
                    break;
                case WalkStep::Readers:
                case WalkStep::Done:
                    runFor(Timestamp{100});
            }
        }
        REQUIRE(walk->done());
    }
    std::vector<std::string> texts() const {
        std::vector<std::string> out;
        for (const auto& f : walk->findings())
            out.push_back(benchWalkText(f.finding) + " " + benchWalkText(f.fix));
        return out;
    }

    config::CastleConfig config;
    config::SimBench bench;
    drivers::ManualClock clock;
    std::optional<castle::SimulatedCastle> sim;
    std::optional<setup::CastleWalk> walk;
};

bool listed(const std::vector<std::string>& texts, const std::string& text) {
    return std::find(texts.begin(), texts.end(), text) != texts.end();
}

}  // namespace

TEST_CASE("castle walk on a bench: a perfect castle has nothing to fix") {
    BenchWalkRig rig("", true);
    rig.walkThrough();
    CHECK(rig.texts().empty());
    CHECK(rig.walk->results().tags.size() == 7);
}

TEST_CASE("castle walk on a bench: every fault of the issue found and named with its fix") {
    BenchWalkRig rig(
        "no-chip gpiochip0:20\n"              // r0: a dead reader
        "couple gpiochip0:21 gpiochip0:22\n"  // r1 and r2: a coupled pair
        "version gpiochip0:23 0x88\n"         // r3: a clone
        "chip gpiochip0:24 under 5\n"         // r4 and r5: swapped
        "chip gpiochip0:25 under 4\n"
        "chip gpiochip0:27 under 6\n"  // r6's chip select on the wrong line (:27, not :26)
        "stuck station.0.yes\n"
        "dead-led place.3\n",
        true);
    rig.walkThrough();
    const auto texts = rig.texts();
    CHECK(texts.size() == 7);
    CHECK(listed(texts,
                 "r0 (floor 0) does not answer. Check its chip select, GPIO 20, header pin 38, then its bus "
                 "/dev/spidev0.1 and its power."));
    CHECK(
        listed(texts,
               "r6 (the throne) does not answer. Check its chip select, GPIO 26, header pin 37, then its bus "
               "/dev/spidev0.1 and its power."));
    CHECK(listed(texts,
                 "r3 is a clone chip: FM17522 (version 0x88). A clone usually works; if this reader "
                 "misses tags, replace it with a genuine MFRC522 board."));
    CHECK(listed(texts, "Not lit: the LED of floor 3. Check the LED, its resistor and gpiochip5 line 3."));
    CHECK(
        listed(texts,
               "The Yes key of seat 1 answers untouched. It is stuck down or its line floats: check the key "
               "and gpiochip2 line 0."));
    // The stuck key is not asked for: only No is.
    REQUIRE(rig.walk->results().keys.size() == 1);
    CHECK(rig.walk->results().keys[0].asked.key == drivers::VoteKey::No);
    CHECK(listed(texts,
                 "r1 and r2 both see a tag put on floor 1. Move the antennas of r1 and r2 apart, or put them "
                 "in different field groups: [castle] fields, or neighbours in their sections."));
    CHECK(
        listed(texts,
               "A tag put on floor 4 over r4 is seen by r5, which is configured for floor 5. r4 and r5 look "
               "swapped: swap their cables, or their places in the configuration."));
    CHECK(rig.walk->faults() == 6);  // the clone is a note
    // The results a set-up reads: r4's spot is read by r5, and the other way round.
    CHECK(rig.walk->results().tags[4].seenBy == std::set<ReaderIndex>{5});
    CHECK(rig.walk->results().tags[5].seenBy == std::set<ReaderIndex>{4});
    // Where a set-up would put each reader: r4 and r5 swapped back; the
    // coupled pair and the readers that saw nothing left as they are.
    const auto places = setup::placesSeen(rig.walk->castle(), rig.walk->results());
    CHECK(places == std::map<std::string, std::string>{{"r3", "3"}, {"r4", "5"}, {"r5", "4"}});
}

TEST_CASE("castle walk on a bench: crossed keys named with both lines") {
    BenchWalkRig rig("crossed station.0.yes station.0.no\n", false);
    rig.walkThrough();
    const auto texts = rig.texts();
    CHECK(listed(texts,
                 "Pressing the Yes key of seat 1 answers as the No key of seat 1."
                 " Crossed wires: check gpiochip2 line 0 and gpiochip2 line 1."));
    // Each key asked answered as the other: both found, and a set-up gives each the other's line.
    REQUIRE(rig.walk->results().keys.size() == 2);
    for (const auto& key : rig.walk->results().keys) {
        REQUIRE(key.answered);
        CHECK(key.answered->key != key.asked.key);
    }
}
