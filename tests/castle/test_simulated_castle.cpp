// The simulated castle: its readers take turns as a real castle's do (the
// field scheduler, scans interleaved on the bus, each timed as the real
// driver's), a change is confirmed out of turn, vote keys reach
// the sink at once, faults come out as failed scans. In virtual
// time on a ManualClock.
#include <algorithm>
#include <map>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/castle/hand_offer.hpp"
#include "daemon/castle/simulated_castle.hpp"
#include "daemon/config/castle_config.hpp"
#include "drivers/sensing/sensing_config.hpp"

using namespace vivaref;
using castle::Microseconds;

namespace {

struct Seen {
    drivers::ReaderIndex reader;
    Microseconds at;
    bool ok;
    drivers::TagSet tags;
};

struct RecordingSink final : castle::CastleSink {
    explicit RecordingSink(const drivers::LoopClock& c) : clock(c) {}
    void scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result) override {
        scans.push_back(
            {reader, clock.nowMicros(), result.ok(), result.ok() ? result.tags() : drivers::TagSet{}});
    }
    void pressed(drivers::StationId station, drivers::VoteKey key) override {
        presses.push_back({station, key});
    }
    void problem(const std::string& message) override { problems.push_back(message); }

    const drivers::LoopClock& clock;
    std::vector<Seen> scans;
    std::vector<std::pair<drivers::StationId, drivers::VoteKey>> presses;
    std::vector<std::string> problems;
};

struct Rig {
    Rig() : castle(drivers::standardBoardLayout(), clock), sink(clock) { castle.start(sink); }

    // The castle stepped at each time it asks for, up to `end`.
    void runTo(Microseconds end) {
        while (clock.nowMicros() < end) {
            const Microseconds next = castle.step();
            REQUIRE(next >= clock.nowMicros());
            clock.set(std::min(std::max(next, clock.nowMicros() + Microseconds(1)), end));
        }
    }
    drivers::ReaderIndex reader(const std::string& name) const {
        return *castle.layout().findReader(drivers::ReaderId{name});
    }
    // The scans of `reader` from `from` on.
    std::vector<Seen> scansOf(drivers::ReaderIndex r, Microseconds from = Microseconds(0)) const {
        std::vector<Seen> out;
        for (const auto& s : sink.scans)
            if (s.reader == r && s.at >= from) out.push_back(s);
        return out;
    }

    drivers::ManualClock clock;
    castle::SimulatedCastle castle;
    RecordingSink sink;
};

const drivers::TagUid kOdessa = drivers::simulatedTagUid("odessa");

}  // namespace

TEST_CASE("simulated castle: every reader is scanned about once a cycle, scans interleaved on the bus") {
    Rig rig;
    REQUIRE(rig.castle.put(kOdessa, {"3"}));
    rig.runTo(Microseconds(2'000'000));
    const auto& layout = rig.castle.layout();
    for (drivers::ReaderIndex r = 0; r < layout.readerCount(); ++r) {
        CAPTURE(layout.reader(r).name);
        const auto scans = rig.scansOf(r, Microseconds(500'000));
        REQUIRE(scans.size() >= 2);
        std::vector<std::int64_t> gaps;
        for (std::size_t i = 1; i < scans.size(); ++i)
            gaps.push_back((scans[i].at - scans[i - 1].at).count());
        std::sort(gaps.begin(), gaps.end());
        const auto median = gaps[gaps.size() / 2];
        // A cycle of the standard board: two groups' power-ups, short scans.
        CHECK(median >= 5'100);
        CHECK(median <= 20'000);
        for (const auto& s : scans) {
            CHECK(s.ok);
            CHECK(s.tags.contains(kOdessa) == (layout.reader(r).name == "floor3"));
        }
    }
    // Interleaved: empty readers' scans (330 us each) end closer together
    // than one scan lasts, but never at the same moment (each waits for the
    // bus the one before held, 44 us).
    std::size_t overlapping = 0;
    for (std::size_t i = 1; i < rig.sink.scans.size(); ++i) {
        const auto& s = rig.sink.scans[i];
        const auto& before = rig.sink.scans[i - 1];
        if (s.tags.empty() && before.tags.empty()) {
            CHECK(s.at - before.at >= Microseconds(44));
            if (s.at - before.at < Microseconds(330)) ++overlapping;
        }
    }
    CHECK(overlapping > rig.sink.scans.size() / 2);
    MESSAGE("standard board, one tag: " << rig.castle.fields().completedCycles() << " cycles in 2 s");
    CHECK(rig.castle.fields().completedCycles() >= 100);
}

TEST_CASE("simulated castle: a tag put is seen within a cycle; a tag lifted is confirmed gone at once") {
    Rig rig;
    rig.runTo(Microseconds(300'000));
    const auto floor3 = rig.reader("floor3");
    const Microseconds putAt = rig.clock.nowMicros();
    REQUIRE(rig.castle.put(kOdessa, {"3"}));
    rig.runTo(putAt + Microseconds(300'000));
    const auto afterPut = rig.scansOf(floor3, putAt);
    REQUIRE_FALSE(afterPut.empty());
    CHECK(afterPut.front().tags.contains(kOdessa));
    CHECK(afterPut.front().at - putAt <= Microseconds(40'000));

    const Microseconds liftAt = rig.clock.nowMicros();
    rig.castle.lift(kOdessa);
    rig.runTo(liftAt + Microseconds(300'000));
    const auto afterLift = rig.scansOf(floor3, liftAt);
    REQUIRE(afterLift.size() >= 2);
    CHECK_FALSE(afterLift[0].tags.contains(kOdessa));
    CHECK_FALSE(afterLift[1].tags.contains(kOdessa));
    // The second miss out of turn: as soon as the field has powered up again.
    CHECK(afterLift[1].at - afterLift[0].at <= Microseconds(12'000));
    MESSAGE("put -> first read " << (afterPut.front().at - putAt).count() << " us; lift -> two misses "
                                 << (afterLift[1].at - liftAt).count() << " us");
}

TEST_CASE(
    "simulated castle: a tag new to a reader is read again by a scan that ends as the stability window "
    "does, also when the reader lost another tag meanwhile") {
    const auto window = std::chrono::duration_cast<Microseconds>(drivers::SensingConfig{}.stabilityWindow);
    const drivers::TagUid jester = drivers::simulatedTagUid("jester");
    // The first scan of floor 3 from `from` holding `tag`, and the first
    // one after it that ends once the window from there is over.
    auto confirmation = [&](Rig& rig, Microseconds from, const drivers::TagUid& tag) {
        const auto scans = rig.scansOf(rig.reader("floor3"), from);
        const auto first =
            std::find_if(scans.begin(), scans.end(), [&](const Seen& s) { return s.tags.contains(tag); });
        REQUIRE(first != scans.end());
        const auto confirming =
            std::find_if(first, scans.end(), [&](const Seen& s) { return s.at - first->at >= window; });
        REQUIRE(confirming != scans.end());
        CHECK(confirming->tags.contains(tag));
        return confirming->at - first->at;
    };
    SUBCASE("a tag added to one already there") {
        Rig rig;
        REQUIRE(rig.castle.put(jester, {"3"}));
        rig.runTo(Microseconds(300'000));
        const Microseconds putAt = rig.clock.nowMicros();
        REQUIRE(rig.castle.put(kOdessa, {"3"}));
        rig.runTo(putAt + Microseconds(300'000));
        // Begun about a scan's length before the window ends (the scans of
        // floor 3 with one tag are shorter than with two: it ends after).
        const auto after = confirmation(rig, putAt, kOdessa);
        CHECK(after <= window + Microseconds(4'000));
        MESSAGE("first read -> confirming read " << after.count() << " us");
    }
    SUBCASE("a tag put as the one there is lifted: the scan that saw both is confirmed at once, then again") {
        Rig rig;
        REQUIRE(rig.castle.put(jester, {"3"}));
        rig.runTo(Microseconds(300'000));
        const Microseconds swapAt = rig.clock.nowMicros();
        rig.castle.lift(jester);
        REQUIRE(rig.castle.put(kOdessa, {"3"}));
        rig.runTo(swapAt + Microseconds(300'000));
        const auto after = confirmation(rig, swapAt, kOdessa);
        CHECK(after <= window + Microseconds(4'000));
        MESSAGE("first read -> confirming read " << after.count() << " us");
    }
}

TEST_CASE("simulated castle: key presses reach the sink at once, in order; a put on no place moves nothing") {
    drivers::ManualClock clock;
    castle::SimulatedCastle early(drivers::standardBoardLayout(), clock);
    RecordingSink earlySink(clock);
    early.press(drivers::StationId{1}, drivers::VoteKey::No);  // before start(): given at start()
    CHECK(earlySink.presses.empty());
    early.start(earlySink);
    CHECK(earlySink.presses.size() == 1);

    Rig rig;
    rig.castle.press(drivers::StationId{2}, drivers::VoteKey::Yes);
    rig.castle.press(drivers::StationId{0}, drivers::VoteKey::Stomachache);
    REQUIRE(rig.sink.presses.size() == 2);
    CHECK(rig.sink.presses[0] == std::pair{drivers::StationId{2}, drivers::VoteKey::Yes});
    CHECK(rig.sink.presses[1] == std::pair{drivers::StationId{0}, drivers::VoteKey::Stomachache});
    CHECK(rig.castle.counters().presses == 2);

    REQUIRE(rig.castle.put(kOdessa, {"5"}));
    CHECK_FALSE(rig.castle.put(kOdessa, {"attic"}));
    CHECK(rig.castle.board().placeOf(kOdessa) == drivers::PlaceName{"5"});
}

TEST_CASE("simulated castle: a silent reader's scans fail and it is retried less and less often") {
    Rig rig;
    const auto throne = rig.reader("throne");
    const auto floor1 = rig.reader("floor1");
    rig.castle.board().silence(throne);
    rig.runTo(Microseconds(3'000'000));
    const auto failed = rig.scansOf(throne);
    REQUIRE_FALSE(failed.empty());
    for (const auto& s : failed) CHECK_FALSE(s.ok);
    CHECK(failed.size() * 4 < rig.scansOf(floor1).size());
    rig.castle.board().restore(throne);
    rig.runTo(Microseconds(8'000'000));
    CHECK(rig.scansOf(throne, Microseconds(7'000'000)).front().ok);
}

TEST_CASE("simulated castle: a held reader reads what it is held to, failing ones backed off, until let go") {
    Rig rig;
    const auto floor3 = rig.reader("floor3");
    const auto floor1 = rig.reader("floor1");
    const drivers::TagUid dead = drivers::simulatedTagUid("dead");
    REQUIRE(rig.castle.put(kOdessa, {"3"}));
    // Made in place: GCC 12 warns (maybe-uninitialized) on a ScanResult
    // moved into the optional.
    const std::optional<drivers::ScanResult> deadOnly(std::in_place, drivers::TagSet{dead});
    rig.castle.hold(floor3, deadOnly);
    REQUIRE(rig.castle.held(floor3));
    rig.runTo(Microseconds(1'000'000));
    const auto held = rig.scansOf(floor3);
    REQUIRE(held.size() > 20);
    for (const auto& s : held) CHECK(s.tags == drivers::TagSet{dead});  // not the board's odessa

    rig.castle.hold(floor3,
                    drivers::ScanResult(drivers::ScanError{drivers::ScanErrorKind::NoAnswer, "held"}));
    rig.runTo(Microseconds(4'000'000));
    const auto failed = rig.scansOf(floor3, Microseconds(1'100'000));  // its scan under way at 1 s ends first
    REQUIRE_FALSE(failed.empty());
    for (const auto& s : failed) CHECK_FALSE(s.ok);
    CHECK(failed.size() * 4 < rig.scansOf(floor1, Microseconds(1'100'000)).size());

    rig.castle.hold(floor3, std::nullopt);  // the board's contents again
    CHECK_FALSE(rig.castle.held(floor3));
    rig.runTo(Microseconds(16'000'000));
    const auto again = rig.scansOf(floor3, Microseconds(15'000'000));
    REQUIRE_FALSE(again.empty());
    CHECK(again.back().ok);
    CHECK(again.back().tags == drivers::TagSet{kOdessa});
}

TEST_CASE("simulated castle: the LEDs it is shown are the ones it keeps") {
    Rig rig;
    drivers::LedStates leds{{drivers::LedId{"place-3"}, drivers::LedMode::Blink}};
    rig.castle.show(leds, rig.clock.now());
    CHECK(rig.castle.leds() == leds);
    CHECK_FALSE(rig.castle.nextLedChange());
}

// `serve --hardware=sim --config` schedules the simulated readers as the
// configuration would the real ones (issue 32: it took none of it before).
TEST_CASE("simulated castle: a configuration's field rule, max_fields_on and backoff drive its readers") {
    const auto layout = drivers::standardBoardLayout();
    config::CastleConfig castle;
    castle.fieldRule = config::FieldRule::OneAtATime;
    castle.maxFieldsOn = 2;
    castle.backoff.firstBackoff = drivers::Timestamp(300);
    castle.sensing.stabilityWindow = drivers::Timestamp(60);
    const auto options = castle::simulatedCastleOptions(castle, layout);
    REQUIRE(options.coupling);
    CHECK(options.coupling->pairCount() ==
          drivers::FieldCoupling::oneAtATime(layout.readerCount()).pairCount());
    CHECK(options.maxFieldsOn == 2);
    CHECK(options.backoff.firstBackoff == drivers::Timestamp(300));
    CHECK(options.stabilityWindow == drivers::Timestamp(60));

    // One field at a time: each reader's turn takes its own power-up, a
    // cycle of the 12 readers about 66 ms instead of the default's 12.
    drivers::ManualClock clock;
    castle::SimulatedCastle sim(layout, clock, options);
    RecordingSink sink(clock);
    sim.start(sink);
    while (clock.nowMicros() < Microseconds(2'000'000))
        clock.set(
            std::min(std::max(sim.step(), clock.nowMicros() + Microseconds(1)), Microseconds(2'000'000)));
    MESSAGE("one field at a time: " << sim.fields().completedCycles() << " cycles in 2 s");
    CHECK(sim.fields().completedCycles() >= 15);
    CHECK(sim.fields().completedCycles() <= 45);
}

// Issue 32: what only the simulated castle can do is offered by name, so the
// table core (its sim routes) needs nothing of the simulated castle.
TEST_CASE("simulated castle: it offers hands by name, and nothing under any other name") {
    Rig rig;
    castle::Castle& any = rig.castle;
    castle::HandOffer* hands = castle::offerOf<castle::HandOffer>(any);
    REQUIRE(hands != nullptr);
    CHECK(hands == static_cast<castle::HandOffer*>(&rig.castle));
    CHECK(any.offer("hands") == static_cast<castle::CastleOffer*>(hands));
    CHECK(any.offer("feet") == nullptr);
    CHECK(any.offer("") == nullptr);
    CHECK(any.offer("Hands") == nullptr);

    // The hands act on this castle: a put its readers see, a press its sink gets.
    REQUIRE(hands->put(kOdessa, {"3"}));
    CHECK_FALSE(hands->put(kOdessa, {"attic"}));
    const drivers::TagUid stray = drivers::TagUid::fromHex("0459AC12");
    REQUIRE(hands->put(stray, {"wc3"}));
    hands->press(drivers::StationId{4}, drivers::VoteKey::No);
    REQUIRE(rig.sink.presses.size() == 1);
    CHECK(rig.sink.presses[0] == std::pair{drivers::StationId{4}, drivers::VoteKey::No});
    rig.runTo(Microseconds(200'000));
    const auto floor3 = rig.scansOf(rig.reader("floor3"));
    REQUIRE_FALSE(floor3.empty());
    CHECK(floor3.back().tags.contains(kOdessa));

    // What the page draws: tags by slug (a character's simulated tag) or UID, the LEDs last shown.
    drivers::LedStates leds{{drivers::LedId{"place-3"}, drivers::LedMode::Blink}};
    rig.castle.show(leds, rig.clock.now());
    auto view = hands->view();
    CHECK(view.leds == leds);
    CHECK(view.tags.size() == 2);
    CHECK(view.tags[drivers::PlaceName{"3"}] == std::vector<std::string>{"odessa"});
    CHECK(view.tags[drivers::PlaceName{"wc3"}] == std::vector<std::string>{"0459AC12"});
    hands->lift(kOdessa);
    view = hands->view();
    CHECK_FALSE(view.tags.contains(drivers::PlaceName{"3"}));
}
