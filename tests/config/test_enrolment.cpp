// Enrolment from scripted scans: a new tag alone, two at once, a tag already
// enrolled, garbage UIDs, a reader fault mid-way; and the demo player on the
// simulated castle.
#include <filesystem>

#include <doctest/doctest.h>

#include "daemon/config/config_check.hpp"
#include "daemon/enrol/enrol_session.hpp"
#include "daemon/enrol/enrolment.hpp"
#include "daemon/words/words.hpp"
#include "drivers/sim/simulated_board.hpp"
#include "engine/roster.hpp"

namespace vivaref::enrol {
namespace {

using drivers::CharacterSlug;
using drivers::ScanError;
using drivers::ScanErrorKind;
using drivers::ScanResult;
using drivers::TagRegistry;
using drivers::TagSet;
using drivers::TagUid;
using Kind = EnrolmentEventKind;

const TagUid kOdessaTag = TagUid::fromHex("04A1B2C3D4E5F6");
const TagUid kPieroTag = TagUid::fromHex("04000000000002");
const TagUid kOther = TagUid::fromHex("04000000000003");

std::vector<EnrolCharacter> roster() {
    return {{{"odessa"}, "Odessa la Contessa"}, {{"piero"}, "Piero il Cuoco Fiero"}, {{"irina"}, "Irina"}};
}

// Two readers scanned in turn every 10 ms, as a castle's round robin would;
// every event is kept.
struct Script {
    Enrolment enrolment;
    Timestamp now{0};
    EnrolmentEvents events;
    std::map<std::string, TagSet> fields = {{"floor0", {}}, {"floor3", {}}};
    std::map<std::string, std::optional<ScanError>> faults;

    explicit Script(const TagRegistry& existing = {}) : enrolment(roster(), existing) {
        take(enrolment.start());
    }

    void take(const EnrolmentEvents& more) { events.insert(events.end(), more.begin(), more.end()); }
    // Scans every reader in turn for `duration`.
    void run(Timestamp duration) {
        const Timestamp end = now + duration;
        while (now < end) {
            for (auto& [reader, field] : fields) {
                now += Timestamp(10);
                if (auto f = faults[reader])
                    take(enrolment.onScan(reader, ScanResult(*f), now));
                else
                    take(enrolment.onScan(reader, ScanResult(field), now));
            }
        }
    }
    std::vector<Kind> kinds() const {
        std::vector<Kind> out;
        for (const auto& e : events) out.push_back(e.kind);
        return out;
    }
    const EnrolmentEvent& last(Kind kind) const {
        for (auto it = events.rbegin(); it != events.rend(); ++it)
            if (it->kind == kind) return *it;
        FAIL("no event ", eventKindName(kind));
        return events.front();
    }
    int count(Kind kind) const {
        int n = 0;
        for (const auto& e : events) n += e.kind == kind;
        return n;
    }
};

TEST_CASE("a new tag, alone on a reader, is enrolled to the character asked for") {
    Script s;
    CHECK(s.events.at(0).message == "Put Odessa la Contessa on any reader of the castle.");
    s.fields["floor3"] = {kOdessaTag};
    s.run(Timestamp(40));  // seen twice, but not yet settled
    CHECK(s.count(Kind::Enrolled) == 0);
    s.run(Timestamp(400));
    const auto& e = s.last(Kind::Enrolled);
    CHECK(e.message == "Odessa la Contessa: tag 04A1B2C3D4E5F6 seen on floor3, enrolled.");
    CHECK(e.character == CharacterSlug{"odessa"});
    CHECK(e.reader == "floor3");
    CHECK(s.enrolment.asking()->slug == CharacterSlug{"piero"});
    CHECK(s.events.back().message == "Put Piero il Cuoco Fiero on any reader of the castle.");

    // Odessa's tag stays on the reader: Piero's, put beside it, is the only new one.
    s.fields["floor3"].insert(kPieroTag);
    s.run(Timestamp(500));
    CHECK(s.last(Kind::Enrolled).tag == kPieroTag);
    const TagRegistry r = s.enrolment.registry();
    REQUIRE(r.size() == 2);
    CHECK(r.character(*r.find(kOdessaTag)) == CharacterSlug{"odessa"});
    CHECK(r.character(*r.find(kPieroTag)) == CharacterSlug{"piero"});
    CHECK(s.enrolment.enrolledCount() == 2);
}

TEST_CASE("two new tags at once are refused: one at a time") {
    Script s;
    s.fields["floor0"] = {kOdessaTag};
    s.fields["floor3"] = {kOther};
    s.run(Timestamp(1000));
    CHECK(s.count(Kind::OneAtATime) == 1);  // said once, not at every scan
    CHECK(s.count(Kind::Enrolled) == 0);
    CHECK(s.last(Kind::OneAtATime).message ==
          "2 new tags at once (04000000000003 on floor3 and 04A1B2C3D4E5F6 on floor0): lift them and put "
          "Odessa "
          "la Contessa alone, one at a time.");
    // The same as a message, for the host's page in its reader's language.
    CHECK(s.last(Kind::OneAtATime).says.code == "enrol.one-at-a-time");
    CHECK(vivaref::words::Words("fr").say(s.last(Kind::OneAtATime).says) ==
          "2 nouvelles puces à la fois (04000000000003 sur floor3 et 04A1B2C3D4E5F6 sur floor0) : "
          "retirez-les et "
          "posez uniquement Odessa la Contessa, une puce à la fois.");
    // Lifting one is not enough: both were refused and are considered again only once lifted.
    s.fields["floor3"] = {};
    s.run(Timestamp(500));
    CHECK(s.count(Kind::Enrolled) == 0);
    s.fields["floor0"] = {};
    s.run(Timestamp(200));
    s.fields["floor0"] = {kOdessaTag};
    s.run(Timestamp(500));
    CHECK(s.last(Kind::Enrolled).tag == kOdessaTag);

    // Two tags on one reader in the same scan: the same.
    s.fields["floor0"] = {kOdessaTag, kPieroTag, kOther};
    s.run(Timestamp(500));
    CHECK(s.count(Kind::OneAtATime) == 2);
    CHECK(s.enrolment.asking()->slug == CharacterSlug{"piero"});
}

TEST_CASE("a second tag within the settling time makes both wait") {
    Script s;
    s.fields["floor0"] = {kOdessaTag};
    s.run(Timestamp(100));
    s.fields["floor3"] = {kOther};
    s.run(Timestamp(500));
    CHECK(s.count(Kind::OneAtATime) == 1);
    CHECK(s.count(Kind::Enrolled) == 0);
}

TEST_CASE("a tag already enrolled to another character is refused, naming the character") {
    TagRegistry existing;
    existing.enrol(kPieroTag, {"piero"});
    Script s(existing);
    s.fields["floor3"] = {kPieroTag};
    s.run(Timestamp(500));
    CHECK(s.count(Kind::TagOfAnother) == 1);
    CHECK(
        s.last(Kind::TagOfAnother).message ==
        "Tag 04000000000002 is already Piero il Cuoco Fiero’s (piero): lift it and put Odessa la Contessa.");
    CHECK(s.enrolment.asking()->slug == CharacterSlug{"odessa"});
    // Left where it is, Odessa's tag put beside it is the only new one.
    s.fields["floor3"].insert(kOdessaTag);
    s.run(Timestamp(500));
    CHECK(s.last(Kind::Enrolled).tag == kOdessaTag);
    // Piero's own tag: kept.
    s.fields["floor3"] = {kOdessaTag};
    s.run(Timestamp(100));
    s.fields["floor3"].insert(kPieroTag);
    s.run(Timestamp(500));
    CHECK(s.last(Kind::Kept).message == "Piero il Cuoco Fiero: tag 04000000000002 is already theirs; kept.");
    CHECK(s.enrolment.registry().size() == 2);
    // A tag enrolled minutes ago this session is another's too.
    s.fields["floor3"] = {};
    s.run(Timestamp(100));
    s.fields["floor0"] = {kOdessaTag};
    s.run(Timestamp(500));
    CHECK(s.last(Kind::TagOfAnother).tag == kOdessaTag);
}

TEST_CASE("a new tag replaces the character's old one") {
    TagRegistry existing;
    existing.enrol(kOther, {"odessa"});
    existing.enrol(kPieroTag, {"piero"});
    Script s(existing);
    s.fields["floor0"] = {kOdessaTag};
    s.run(Timestamp(500));
    CHECK(
        s.last(Kind::Enrolled).message ==
        "Odessa la Contessa: tag 04A1B2C3D4E5F6 seen on floor0, enrolled (it replaces tag 04000000000003).");
    const TagRegistry r = s.enrolment.registry();
    CHECK(r.size() == 2);
    CHECK_FALSE(r.find(kOther));
    CHECK(r.character(*r.find(kPieroTag)) == CharacterSlug{"piero"});
}

TEST_CASE("garbage UIDs: one mangled read never counts, a UID that cannot be a piece is refused") {
    Script s;
    // A collision the chip did not catch: a UID seen in one scan only.
    s.take(s.enrolment.onScan("floor3", ScanResult(TagSet{TagUid::fromHex("04DEADBEEF0001")}), Timestamp(5)));
    s.run(Timestamp(500));
    CHECK(s.count(Kind::Enrolled) == 0);
    CHECK(s.count(Kind::OneAtATime) == 0);

    const TagUid randomUid = TagUid::fromHex("08123456");  // ISO/IEC 14443-3: a random UID
    s.fields["floor3"] = {randomUid};
    s.run(Timestamp(500));
    CHECK(s.last(Kind::UnusableTag).message ==
          "Tag 08123456: this tag draws a new random UID each time it is powered (it starts with 08): it "
          "cannot be "
          "recognised again, use another tag.");
    for (const char* hex : {"00000000", "FFFFFFFFFFFFFF", "88040506"}) {
        CHECK(unusableUidReason(TagUid::fromHex(hex)).has_value());
    }
    CHECK_FALSE(unusableUidReason(kOdessaTag));
    CHECK_FALSE(unusableUidReason(TagUid::fromHex("0459AC12")));
    s.fields["floor3"].insert(kOdessaTag);
    s.run(Timestamp(500));
    CHECK(s.last(Kind::Enrolled).tag == kOdessaTag);
}

TEST_CASE("a reader fault mid-way is said once; the others go on and its tags are not forgotten") {
    Script s;
    s.fields["floor3"] = {kOdessaTag};
    s.run(Timestamp(500));
    REQUIRE(s.count(Kind::Enrolled) == 1);
    s.faults["floor3"] = ScanError{ScanErrorKind::NoAnswer, "reader floor3: no answer"};
    s.run(Timestamp(500));
    CHECK(s.count(Kind::ReaderFault) == 1);
    CHECK(s.last(Kind::ReaderFault).message ==
          "Reader floor3 does not answer (reader floor3: no answer); the other readers still work.");
    s.fields["floor0"] = {kPieroTag};
    s.run(Timestamp(500));
    CHECK(s.last(Kind::Enrolled).tag == kPieroTag);
    // Back with Odessa's tag still there: not new, so not offered to Irina.
    s.faults["floor3"].reset();
    s.run(Timestamp(500));
    CHECK(s.count(Kind::ReaderBack) == 1);
    CHECK(s.count(Kind::TagOfAnother) == 0);
    CHECK(s.enrolment.asking()->slug == CharacterSlug{"irina"});
}

TEST_CASE("tags already on the castle when asked are not new") {
    Script s;
    s.fields["floor3"] = {kOther};
    s.run(Timestamp(20));  // seen once: not yet present
    s.fields["floor3"] = {};
    s.run(Timestamp(100));
    s.take(s.enrolment.skip());
    CHECK(s.enrolment.asking()->slug == CharacterSlug{"piero"});
    s.fields["floor0"] = {kOther};
    s.run(Timestamp(500));  // Piero's question: this tag appeared after it
    CHECK(s.last(Kind::Enrolled).character == CharacterSlug{"piero"});
    // Irina's question: the tag lying there since Piero's is not new.
    s.run(Timestamp(500));
    CHECK(s.count(Kind::Enrolled) == 1);
    CHECK(s.count(Kind::TagOfAnother) == 0);
}

TEST_CASE("skipping every character: done, nothing enrolled") {
    Script s;
    for (int i = 0; i < 3; ++i) s.take(s.enrolment.skip());
    CHECK(s.enrolment.done());
    CHECK(s.enrolment.skippedCount() == 3);
    CHECK(s.events.back().kind == Kind::Done);
    CHECK(s.enrolment.skip().empty());
    CHECK(s.enrolment.registry().size() == 0);
    Enrolment none({}, {});
    CHECK(none.start().at(0).kind == Kind::Done);
}

std::vector<EnrolCharacter> roster2024() {
    std::vector<EnrolCharacter> out;
    for (const auto& c : engine::roster2024().characters()) out.push_back({{c.id}, c.name});
    return out;
}

TEST_CASE("the simulated castle's demo player enrols every character's simulated tag, then keeps them") {
    config::CastleConfig castle;  // the standard simulated castle
    Enrolment first(roster2024(), {});
    int events = 0;
    CHECK(runSimulated(first, castle, {}, [&](const EnrolmentEvent&) { ++events; }));
    CHECK(first.enrolledCount() == 14);
    const TagRegistry registry = first.registry();
    REQUIRE(registry.size() == 14);
    for (const auto& c : engine::roster2024().characters())
        CHECK(registry.character(*registry.find(drivers::simulatedTagUid(c.id))) == CharacterSlug{c.id});

    // Again: each character's enrolled tag is put down and kept.
    Enrolment second(roster2024(), registry);
    int kept = 0;
    CHECK(runSimulated(second, castle, registry,
                       [&](const EnrolmentEvent& e) { kept += e.kind == Kind::Kept; }));
    CHECK(kept == 14);
    CHECK(second.enrolledCount() == 0);
}

TEST_CASE("the demo player uses the configured castle's layout") {
    const auto castle =
        config::loadCastleConfig(std::filesystem::path(VIVAREF_CONFIG_EXAMPLES) / "castle-2024.ini");
    Enrolment enrolment(roster2024(), {});
    std::set<std::string> readers;
    CHECK(runSimulated(enrolment, castle, {}, [&](const EnrolmentEvent& e) {
        if (e.kind == Kind::Enrolled) readers.insert(e.reader);
    }));
    CHECK(enrolment.enrolledCount() == 14);
    CHECK(readers == std::set<std::string>{"floor0-a"});  // put on floor 0, over its first reader
}

}  // namespace
}  // namespace vivaref::enrol
