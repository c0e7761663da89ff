// The castle walk on the example castle (daemon/config/examples/castle-2024.ini:
// 28 readers, 8 stations, 20 LEDs), fed with scans and presses made up here:
// every fault is found and named with its fix, in words.
#include <algorithm>
#include <functional>
#include <string>

#include <doctest/doctest.h>

#include "daemon/castle/real_castle.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/setup/castle_walk.hpp"
#include "daemon/words/words.hpp"

using namespace vivaref;
using drivers::ReaderIndex;
using drivers::Timestamp;
using setup::WalkAnswer;
using setup::WalkStep;

namespace {

std::string walkText(const engine::Message& m) { return words::Words("en", words::NameMarks::Plain).say(m); }

const config::CastleConfig& exampleCastle() {
    static const config::CastleConfig castle = config::loadCastleConfig(VIVAREF_EXAMPLE_CASTLE);
    return castle;
}

// The walk on the example castle, and a castle made up around it: what each
// reader reads (by default nothing, and answers), stepped every 20 ms.
struct WalkRig {
    explicit WalkRig(setup::WalkOptions options = {}, setup::CastleWalk::ChipOf chips = {})
        : layout(castle::realBoardLayout(exampleCastle())),
          walk(setup::walkCastleOf(exampleCastle(), layout), options, std::move(chips), Timestamp{0}) {}

    ReaderIndex reader(const std::string& name) const { return *layout.findReader(drivers::ReaderId{name}); }

    // Every reader scanned once, then the walk moved on, every 20 ms up to `until`.
    void runFor(Timestamp span) {
        const Timestamp end = now + span;
        while (now < end) {
            now += Timestamp{20};
            for (ReaderIndex r = 0; r < layout.readerCount(); ++r) {
                if (mute.contains(r)) continue;
                if (flaky.contains(r) && ++flakyScans % 3 == 0) {
                    walk.scanned(r, drivers::ScanError{drivers::ScanErrorKind::NoAnswer, "made up"}, now);
                    continue;
                }
                if (auto it = faults.find(r); it != faults.end()) {
                    walk.scanned(r, drivers::ScanError{it->second, "made up"}, now);
                } else {
                    walk.scanned(r, tagsOver(r), now);
                }
            }
            walk.advance(now);
        }
    }
    // The readers step over, on a castle with nothing on it.
    void passReaders() {
        runFor(Timestamp{2100});
        REQUIRE(walk.step() != WalkStep::Readers);
    }
    void answerEveryLed(WalkAnswer answer) {
        while (walk.step() == WalkStep::Leds) REQUIRE(walk.answer(answer, now));
    }
    // The keys: hands off, then each asked key pressed (or `press` says which answers).
    void passKeys(std::function<std::optional<setup::WalkKey>(const setup::WalkKey&)> press = {}) {
        REQUIRE(walk.step() == WalkStep::Keys);
        runFor(Timestamp{1600});
        for (int guard = 0; walk.step() == WalkStep::Keys && guard < 100; ++guard) {
            const auto& asked = walk.castle().keys[static_cast<std::size_t>(walk.item())];
            const auto answered = press ? press(asked) : std::optional<setup::WalkKey>(asked);
            if (answered) {
                walk.pressed(answered->station, answered->key, now);
            } else {
                runFor(Timestamp{20100});
            }
        }
    }
    std::vector<std::string> findingTexts() const {
        std::vector<std::string> out;
        for (const auto& f : walk.findings()) out.push_back(walkText(f.finding) + " " + walkText(f.fix));
        return out;
    }

    drivers::BoardLayout layout;
    setup::CastleWalk walk;
    Timestamp now{0};
    std::map<ReaderIndex, drivers::ScanErrorKind> faults;
    std::set<ReaderIndex> mute;   // never scanned (a reader backed off for good)
    std::set<ReaderIndex> flaky;  // one scan in three does not answer
    int flakyScans = 0;
    std::function<drivers::TagSet(ReaderIndex)> over = [](ReaderIndex) { return drivers::TagSet{}; };
    drivers::TagSet tagsOver(ReaderIndex r) const { return over(r); }
};

const drivers::TagUid kTag = drivers::TagUid::fromHex("04A1B2C3D4E5F6");

bool has(const std::vector<std::string>& texts, const std::string& text) {
    return std::find(texts.begin(), texts.end(), text) != texts.end();
}

}  // namespace

TEST_CASE("castle walk: a healthy castle goes through every step with nothing to fix") {
    WalkRig rig;
    CHECK(walkText(rig.walk.prompt()) == "Asking every reader: leave the castle as it is.");
    CHECK(rig.walk.castle().readers.size() == 28);
    CHECK(rig.walk.castle().leds.size() == 28);  // 12 places, 8 turn LEDs, 8 vote LEDs
    CHECK(rig.walk.castle().keys.size() == 24);
    rig.passReaders();
    REQUIRE(rig.walk.step() == WalkStep::Leds);
    CHECK(walkText(rig.walk.prompt()) == "Is the LED of floor 0 lit?");
    // The LED asked about is the only one lit.
    CHECK(rig.walk.leds() == drivers::LedStates{{drivers::LedId{"place-0"}, drivers::LedMode::On}});
    CHECK_FALSE(rig.walk.answer(WalkAnswer::Done, rig.now));
    rig.answerEveryLed(WalkAnswer::Lit);
    REQUIRE(rig.walk.step() == WalkStep::Keys);
    CHECK(walkText(rig.walk.prompt()) == "Hands off the vote keys for a moment.");
    rig.runFor(Timestamp{1600});
    CHECK(walkText(rig.walk.prompt()) == "Press the Yes key of seat 1.");
    rig.passKeys();
    CHECK(rig.walk.done());
    CHECK(rig.walk.findings().empty());
    CHECK(walkText(rig.walk.prompt()) == "The check is over: nothing to fix.");
    CHECK(rig.walk.results().keys.size() == 24);
    CHECK(rig.walk.results().leds.size() == 28);
}

TEST_CASE("castle walk: a reader that does not answer is named with its chip select's header pin") {
    WalkRig rig;
    rig.faults[rig.reader("floor3-b")] = drivers::ScanErrorKind::NoAnswer;
    rig.passReaders();
    REQUIRE(rig.walk.findings().size() == 1);
    CHECK(walkText(rig.walk.findings()[0].finding) == "floor3-b (floor 3) does not answer.");
    CHECK(walkText(rig.walk.findings()[0].fix) ==
          "Check its chip select, GPIO 22, header pin 15, then its bus /dev/spidev0.1 and its power.");
    CHECK(rig.walk.faults() == 1);
    CHECK(rig.walk.results().readers[rig.reader("floor3-b")].scans == 0);
}

TEST_CASE(
    "castle walk: a reader that never scans at all is silent too; a garbling one and a foreign chip are told "
    "apart") {
    WalkRig rig;
    rig.mute.insert(rig.reader("wc3"));
    rig.faults[rig.reader("floor0-a")] = drivers::ScanErrorKind::Protocol;
    rig.faults[rig.reader("floor1-a")] = drivers::ScanErrorKind::WrongVersion;
    rig.faults[rig.reader("throne")] = drivers::ScanErrorKind::Bus;
    rig.passReaders();
    const auto texts = rig.findingTexts();
    CHECK(texts.size() == 4);
    CHECK(has(texts,
              "wc3 (WC 3) does not answer. Check its chip select, GPIO 14, header pin 8, then its bus "
              "/dev/spidev0.1 and its power."));
    CHECK(has(texts,
              "floor0-a garbles its reads (99 of 99 scans). Two chips may share its chip select, or a "
              "wire is loose: check chip select CE0 (GPIO 8, header pin 24) on /dev/spidev0.0."));
    CHECK(has(texts,
              "floor1-a answers, but not as an MFRC522. Check that only this reader answers on its wiring "
              "(chip select GPIO 6, header pin 31 on /dev/spidev0.1), or replace its board."));
    CHECK(has(texts,
              "The bus of throne fails. Check that /dev/spidev0.1 exists (SPI enabled) and that vivaref may "
              "open it."));
}

TEST_CASE("castle walk: a clone chip is a note, not a fault") {
    castle::ReaderChip clone{"mfrc522", "0x88", "FM17522", true};
    castle::ReaderChip genuine{"mfrc522", "0x92", "MFRC522 v2.0", false};
    WalkRig rig({},
                [&](ReaderIndex r) -> std::optional<castle::ReaderChip> { return r == 0 ? clone : genuine; });
    rig.passReaders();
    REQUIRE(rig.walk.findings().size() == 1);
    CHECK(rig.walk.findings()[0].note);
    CHECK(rig.walk.faults() == 0);
    CHECK(rig.findingTexts()[0] ==
          "floor0-a is a clone chip: FM17522 (version 0x88). A clone usually works; if this reader "
          "misses "
          "tags, replace it with a genuine MFRC522 board.");
    CHECK(rig.walk.results().readers[1].chip->model == "MFRC522 v2.0");
}

TEST_CASE("castle walk: a tag two readers hold at once while the readers are asked is a cross-read") {
    WalkRig rig;
    const ReaderIndex a = rig.reader("floor2-a"), b = rig.reader("floor2-b");
    rig.over = [&](ReaderIndex r) { return r == a || r == b ? drivers::TagSet{kTag} : drivers::TagSet{}; };
    rig.passReaders();
    REQUIRE(rig.findingTexts().size() == 1);
    CHECK(
        rig.findingTexts()[0] ==
        "floor2-a and floor2-b both read the tag 04A1B2C3D4E5F6. Move the antennas of floor2-a and floor2-b "
        "apart, or put them in different field groups: [castle] fields, or neighbours in their sections.");
}

TEST_CASE("castle walk: an LED the host does not see lit is named with its line") {
    WalkRig rig;
    rig.passReaders();
    for (int i = 0; rig.walk.step() == WalkStep::Leds; ++i)
        REQUIRE(rig.walk.answer(i == 3   ? WalkAnswer::NotLit
                                : i == 4 ? WalkAnswer::Skip
                                         : WalkAnswer::Lit,
                                rig.now));
    REQUIRE(rig.findingTexts().size() == 1);
    CHECK(rig.findingTexts()[0] ==
          "Not lit: the LED of floor 3. Check the LED, its resistor and gpiochip5 line 3.");
    CHECK(rig.walk.results().leds.at(drivers::LedId{"place-3"}) == setup::LedAnswer::NotLit);
    CHECK(rig.walk.results().leds.at(drivers::LedId{"place-4"}) == setup::LedAnswer::Skipped);
}

TEST_CASE("castle walk: a key that answers untouched, crossed keys, a key that never answers") {
    WalkRig rig;
    rig.passReaders();
    rig.answerEveryLed(WalkAnswer::Lit);
    REQUIRE(rig.walk.step() == WalkStep::Keys);
    // Seat 3's No answers by itself while nobody touches the keys.
    rig.runFor(Timestamp{500});
    rig.walk.pressed(drivers::StationId{2}, drivers::VoteKey::No, rig.now);
    rig.passKeys([](const setup::WalkKey& asked) -> std::optional<setup::WalkKey> {
        // Seat 1's Yes and No are crossed; seat 5's Stomachache is dead.
        if (asked.station.number == 0 && asked.key == drivers::VoteKey::Yes)
            return setup::WalkKey{asked.station, drivers::VoteKey::No, std::nullopt};
        if (asked.station.number == 0 && asked.key == drivers::VoteKey::No)
            return setup::WalkKey{asked.station, drivers::VoteKey::Yes, std::nullopt};
        if (asked.station.number == 4 && asked.key == drivers::VoteKey::Stomachache) return std::nullopt;
        return asked;
    });
    CHECK(rig.walk.done());
    const auto texts = rig.findingTexts();
    CHECK(texts.size() == 4);
    CHECK(has(texts,
              "The No key of seat 3 answers untouched. It is stuck down or its line floats: check the key "
              "and gpiochip2 line 9."));
    CHECK(has(texts,
              "Pressing the Yes key of seat 1 answers as the No key of seat 1. Crossed wires: check "
              "gpiochip2 line 0 and gpiochip2 line 1."));
    CHECK(has(texts,
              "Pressing the No key of seat 1 answers as the Yes key of seat 1. Crossed wires: check "
              "gpiochip2 line 1 and gpiochip2 line 0."));
    CHECK(has(texts,
              "The Stomachache key of seat 5 does not answer. It is stuck down or not wired: check the key "
              "and gpiochip3 line 2."));
    // The stuck key was not asked for.
    CHECK(rig.walk.results().keys.size() == 23);
    CHECK(rig.walk.results().stuckKeys.size() == 1);
}

TEST_CASE("castle walk: the tag walk finds an unread reader, a swapped pair and a coupled pair") {
    setup::WalkOptions options;
    options.full = true;
    WalkRig rig(options);
    rig.passReaders();
    rig.answerEveryLed(WalkAnswer::Lit);
    rig.passKeys();
    REQUIRE(rig.walk.step() == WalkStep::Tags);
    const ReaderIndex dead = rig.reader("floor3-b");
    const ReaderIndex swapA = rig.reader("floor4-a"), swapB = rig.reader("floor5-a");
    const ReaderIndex coupleA = rig.reader("floor2-a"), coupleB = rig.reader("floor2-b");
    // Where the host's tag is (over which reader's antenna), and which readers then read it.
    std::optional<ReaderIndex> tagOver;
    rig.over = [&](ReaderIndex r) {
        if (!tagOver) return drivers::TagSet{};
        ReaderIndex reads = *tagOver;
        if (reads == swapA)
            reads = swapB;
        else if (reads == swapB)
            reads = swapA;
        const bool sees = r == reads && r != dead;
        const bool coupled = (*tagOver == coupleA && r == coupleB) || (*tagOver == coupleB && r == coupleA);
        return sees || coupled ? drivers::TagSet{kTag} : drivers::TagSet{};
    };
    int guard = 0;
    while (rig.walk.step() == WalkStep::Tags && guard++ < 200) {
        const std::string prompt = walkText(rig.walk.prompt());
        if (prompt == "Take every tag off the castle.") {
            tagOver.reset();
            rig.runFor(Timestamp{100});
            continue;
        }
        const auto over = static_cast<ReaderIndex>(rig.walk.item());
        if (over == rig.reader("floor3-b"))
            CHECK(prompt == "Put one tag on floor 3, on its spot 2 (reader floor3-b).");
        tagOver = over;
        rig.runFor(Timestamp{700});
        if (over == dead) {
            // Nothing sees it: the host says the tag is down.
            CHECK(rig.walk.step() == WalkStep::Tags);
            REQUIRE(rig.walk.answer(WalkAnswer::Done, rig.now));
        }
    }
    REQUIRE(rig.walk.done());
    const auto texts = rig.findingTexts();
    CHECK(texts.size() == 3);
    CHECK(
        has(texts,
            "No reader sees a tag put on floor 3 over floor3-b. Check floor3-b: chip select GPIO 22, header "
            "pin 15 on /dev/spidev0.1, and its antenna under the place."));
    CHECK(
        has(texts,
            "A tag put on floor 4 over floor4-a is seen by floor5-a, which is configured for floor 5. "
            "floor4-a and floor5-a look swapped: swap their cables, or their places in the configuration."));
    CHECK(has(
        texts,
        "floor2-a and floor2-b both see a tag put on floor 2. Move the antennas of floor2-a and floor2-b "
        "apart, or put them in different field groups: [castle] fields, or neighbours in their sections."));
    // The results a set-up reads: which readers saw the tag over each.
    const auto& tags = rig.walk.results().tags;
    REQUIRE(tags.size() == 28);
    CHECK(tags[swapA].seenBy == std::set<ReaderIndex>{swapB});
    CHECK(tags[coupleA].seenBy == std::set<ReaderIndex>{coupleA, coupleB});
    CHECK(tags[dead].seenBy.empty());
}

TEST_CASE("castle walk: a reader that answers but fails one scan in three is named, with its wiring") {
    WalkRig rig;
    rig.flaky.insert(rig.reader("floor2-b"));
    rig.passReaders();
    REQUIRE(rig.findingTexts().size() == 1);
    CHECK(rig.findingTexts()[0] ==
          "floor2-b fails now and then (33 of 99 scans). A loose wire or a weak power supply: check chip "
          "select GPIO "
          "18, header pin 12 on /dev/spidev0.1, and its 3.3 V.");
}
