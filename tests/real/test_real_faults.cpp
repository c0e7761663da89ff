// Issue 36's faults against the real castle's driver code: emulated MFRC522
// chips wired otherwise than configured (emulated_castle.hpp's
// EmulatedFaults), a key line held active, an LED line that drives nothing.
// What RealCastle reports for each is what the self-test reads: the raw
// scans' failures by reader, chipOf(), the presses.
#include <map>
#include <string>

#include <doctest/doctest.h>

#include "drivers/leds/led_names.hpp"
#include "tests/real/emulated_castle.hpp"

namespace vivaref::realtest {
namespace {

using namespace std::chrono_literals;

// The scans of each reader as the table gets them.
struct ScanTally {
    struct Seen {
        int scans = 0;
        std::map<drivers::ScanErrorKind, int> failures;
        std::map<drivers::TagUid, int> tags;
    };
    std::map<drivers::ReaderIndex, Seen> byReader;
};

struct FaultRig {
    explicit FaultRig(EmulatedFaults faults) {
        EmulatedCastleOptions options;
        options.faults = std::move(faults);
        options.onRawScan = [this](drivers::ReaderIndex reader, const drivers::ScanResult& result,
                                   Timestamp) {
            auto& seen = tally.byReader[reader];
            ++seen.scans;
            if (!result.ok())
                ++seen.failures[result.error().kind];
            else
                for (const auto& tag : result.tags()) ++seen.tags[tag];
        };
        castle = std::make_unique<EmulatedCastle>(classicCastleIni(), std::move(options));
    }
    drivers::ReaderIndex reader(const std::string& name) {
        return *castle->real().layout().findReader(drivers::ReaderId{name});
    }
    ScanTally::Seen& seen(const std::string& name) { return tally.byReader[reader(name)]; }
    int reads(const std::string& name, const drivers::TagUid& tag) { return seen(name).tags[tag]; }
    bool onlyNoAnswer(const std::string& name) {
        auto& s = seen(name);
        return s.scans > 0 && s.failures[drivers::ScanErrorKind::NoAnswer] == s.scans;
    }
    std::optional<castle::ReaderChip> chip(const std::string& name) {
        return castle->real().chipOf(reader(name));
    }

    ScanTally tally;
    std::unique_ptr<EmulatedCastle> castle;
};

const drivers::TagUid kTag = drivers::simulatedTagUid("odessa");

}  // namespace

TEST_CASE("real faults: a perfect castle: every chip an MFRC522 v2.0, every reader reads its own spot") {
    FaultRig rig(EmulatedFaults{});
    rig.castle->putOver("floor1", kTag);
    rig.castle->runUntil(2s);
    CHECK(rig.reads("floor1", kTag) > 3);
    for (const auto& r : rig.castle->castle().readers) {
        INFO(r.name);
        CHECK(rig.seen(r.name).failures.empty());
        if (r.name != "floor1") CHECK(rig.reads(r.name, kTag) == 0);
        const auto chip = rig.chip(r.name);
        REQUIRE(chip);
        CHECK(chip->kind == "mfrc522");
        CHECK(chip->version == "0x92");
        CHECK(chip->model == "MFRC522 v2.0");
        CHECK_FALSE(chip->clone);
    }
    CHECK(rig.castle->real().keysDown().empty());
}

TEST_CASE("real faults: a chip that does not answer: NoAnswer scans, no chip named") {
    EmulatedFaults faults;
    faults.wiredTo = {{"floor2", ""}};
    FaultRig rig(faults);
    rig.castle->putOver("floor2", kTag);
    rig.castle->runUntil(2s);
    CHECK(rig.onlyNoAnswer("floor2"));
    CHECK(rig.reads("floor2", kTag) == 0);
    CHECK_FALSE(rig.chip("floor2"));
    CHECK(rig.seen("floor1").failures.empty());
    CHECK(rig.castle->real().counters().failedScans > 0);
}

TEST_CASE("real faults: a chip on another chip-select line than configured: the reader does not answer") {
    // floor4 is configured on gpiochip0:23; its chip is wired to gpiochip0:30, which no reader drives.
    EmulatedFaults faults;
    faults.wiredTo = {{"floor4", "gpiochip0:30"}};
    FaultRig rig(faults);
    rig.castle->putOver("floor4", kTag);
    rig.castle->runUntil(2s);
    CHECK(rig.onlyNoAnswer("floor4"));
    CHECK_FALSE(rig.chip("floor4"));
    for (const auto& r : rig.castle->castle().readers) CHECK(rig.reads(r.name, kTag) == 0);
}

TEST_CASE("real faults: two readers swapped: each reads the other's spot") {
    // floor0 on gpiochip0:20, floor1 on gpiochip0:21 in the configuration; wired the other way round.
    EmulatedFaults faults;
    faults.wiredTo = {{"floor0", "gpiochip0:21"}, {"floor1", "gpiochip0:20"}};
    FaultRig rig(faults);
    rig.castle->putOver("floor0", kTag);
    rig.castle->runUntil(2s);
    CHECK(rig.reads("floor1", kTag) > 3);
    CHECK(rig.reads("floor0", kTag) == 0);
    CHECK(rig.seen("floor0").failures.empty());
    CHECK(rig.seen("floor1").failures.empty());
}

TEST_CASE(
    "real faults: two chips on one chip-select line: one reader dead, the tag over the other chip unseen") {
    // floor1's chip is wired to floor0's line (gpiochip0:20): both take floor0's transfers, their
    // answers ORed on MISO. floor0's scans end without a tag and without an error (the mixed
    // answers read as an empty field), so the tag over floor1 is read by no one.
    EmulatedFaults faults;
    faults.wiredTo = {{"floor1", "gpiochip0:20"}};
    FaultRig rig(faults);
    rig.castle->putOver("floor1", kTag);
    rig.castle->runUntil(3s);
    CHECK(rig.onlyNoAnswer("floor1"));
    CHECK_FALSE(rig.chip("floor1"));
    REQUIRE(rig.chip("floor0"));  // both chips say 0x92 at once
    CHECK(rig.seen("floor0").scans > 10);
    CHECK(rig.seen("floor0").failures.empty());
    for (const auto& r : rig.castle->castle().readers) CHECK(rig.reads(r.name, kTag) == 0);
}

TEST_CASE("real faults: a clone's VersionReg is named; an unknown one fails as WrongVersion") {
    EmulatedFaults faults;
    faults.versions = {{"floor4", 0x12}, {"floor5", 0x88}, {"throne", 0x37}};
    FaultRig rig(faults);
    const auto counterfeit = rig.chip("floor4");
    REQUIRE(counterfeit);
    CHECK(counterfeit->version == "0x12");
    CHECK(counterfeit->model == "MFRC522");
    CHECK(counterfeit->clone);
    const auto fm = rig.chip("floor5");
    REQUIRE(fm);
    CHECK(fm->model == "FM17522");
    CHECK(fm->clone);
    const auto stranger = rig.chip("throne");
    REQUIRE(stranger);
    CHECK(stranger->model.empty());
    CHECK_FALSE(stranger->clone);

    rig.castle->putOver("floor4", kTag);
    rig.castle->runUntil(2s);
    CHECK(rig.reads("floor4", kTag) > 3);  // a clone reads tags as the genuine chip does
    auto& throne = rig.seen("throne");
    CHECK(throne.scans > 0);
    CHECK(throne.failures[drivers::ScanErrorKind::WrongVersion] == throne.scans);
}

TEST_CASE("real faults: two antennas coupled: both readers read a tag over either") {
    EmulatedFaults faults;
    faults.coupled = {{"floor1", "floor2"}};
    FaultRig rig(faults);
    rig.castle->putOver("floor1", kTag);
    rig.castle->runUntil(2s);
    CHECK(rig.reads("floor1", kTag) > 3);
    CHECK(rig.reads("floor2", kTag) > 3);
    CHECK(rig.reads("floor0", kTag) == 0);
    CHECK(rig.seen("floor1").failures.empty());
    CHECK(rig.seen("floor2").failures.empty());
}

TEST_CASE("real faults: a key line held active from the start never gives a press; the others do") {
    EmulatedFaults faults;
    faults.stuckKeys = {{1, drivers::VoteKey::Yes}};
    FaultRig rig(faults);
    rig.castle->runUntil(500ms);
    CHECK(rig.castle->real().counters().presses == 0);  // held at start-up is not a press
    // ...but the castle says it reads pressed: what the self-test names.
    const std::vector<std::pair<drivers::StationId, drivers::VoteKey>> stuck = {{{1}, drivers::VoteKey::Yes}};
    CHECK(rig.castle->real().keysDown() == stuck);
    rig.castle->pressKey(1, drivers::VoteKey::Yes);
    rig.castle->runUntil(rig.castle->clock().now() + 200ms);
    CHECK(rig.castle->real().counters().presses == 0);
    rig.castle->pressKey(1, drivers::VoteKey::No);
    rig.castle->runUntil(rig.castle->clock().now() + 200ms);
    CHECK(rig.castle->real().counters().presses == 1);
    CHECK(rig.castle->real().keysDown() == stuck);  // the other key was let go
    CHECK(rig.castle->problems().empty());
}

TEST_CASE("real faults: an LED line that drives nothing is driven as asked and gives no light") {
    EmulatedFaults faults;
    faults.deadLeds = {"place-3"};
    FaultRig rig(faults);
    const drivers::LedStates lit = {{drivers::placeLed({"3"}), drivers::LedMode::On},
                                    {drivers::placeLed({"2"}), drivers::LedMode::On}};
    rig.castle->real().show(lit, rig.castle->clock().now());
    CHECK(rig.castle->led("place-3").level);  // the castle cannot tell: the host sees it dark
    CHECK_FALSE(rig.castle->ledLit("place-3"));
    CHECK(rig.castle->ledLit("place-2"));
}

}  // namespace vivaref::realtest
