// The field scheduler in virtual time: coupled readers never on together,
// power-up honoured, power-ups overlapping inventories, one inventory per
// reader per cycle, failing readers backed off.
#include <functional>
#include <map>
#include <random>

#include <doctest/doctest.h>

#include "drivers/sensing/field_scheduler.hpp"

using namespace vivaref::drivers;
using namespace std::chrono_literals;

namespace {

using Groups = std::vector<std::vector<ReaderIndex>>;

FieldCoupling chain(std::size_t n) {
    FieldCoupling c(n);
    for (ReaderIndex r = 0; r + 1 < n; ++r) c.couple(r, r + 1);
    return c;
}

// What a driving loop saw, checked at every step.
struct Run {
    Microseconds now{0};
    std::vector<std::vector<Microseconds>> scansOf;  // per reader, when each inventory began
    std::vector<Microseconds> cycleEnds;
    std::size_t maxFieldsOn = 0;
};

// Drives `s` until `cycles` cycles are complete: a scan takes scanTime(r) and
// succeeds unless fails(r, now); field-on takes no time.
Run drive(FieldScheduler& s, int cycles, const std::function<Microseconds(ReaderIndex)>& scanTime,
          const std::function<bool(ReaderIndex, Microseconds)>& fails = {}, Microseconds powerUp = 5100us) {
    const FieldCoupling& coupling = s.coupling();
    Run run;
    run.scansOf.resize(coupling.readerCount());
    std::vector<Microseconds> onAt(coupling.readerCount(), Microseconds::min());
    for (int step = 0; step < 100000 && s.completedCycles() < static_cast<std::uint64_t>(cycles); ++step) {
        const FieldStep next = s.next(run.now);
        switch (next.kind) {
            case FieldStep::Kind::FieldOn:
                for (ReaderIndex n : coupling.neighboursOf(next.reader))
                    REQUIRE_MESSAGE(!s.fieldOn(n), "readers " << next.reader << " and " << n << " both on");
                onAt[next.reader] = run.now;
                run.maxFieldsOn = std::max(run.maxFieldsOn, s.fieldsOn());
                break;
            case FieldStep::Kind::Scan: {
                REQUIRE(s.fieldOn(next.reader));
                REQUIRE(run.now - onAt[next.reader] >= powerUp);
                run.scansOf[next.reader].push_back(run.now);
                run.now += scanTime(next.reader);
                const std::uint64_t before = s.completedCycles();
                s.scanned(next.reader, !(fails && fails(next.reader, run.now)), run.now);
                if (s.completedCycles() > before) run.cycleEnds.push_back(run.now);
                break;
            }
            case FieldStep::Kind::Wait:
                REQUIRE(next.until > run.now);
                run.now = next.until;
                break;
        }
    }
    REQUIRE(s.completedCycles() >= static_cast<std::uint64_t>(cycles));
    return run;
}

}  // namespace

TEST_CASE("Field groups: greedy colouring in reader order") {
    CHECK(fieldGroups(FieldCoupling(3)) == Groups{{0, 1, 2}});
    CHECK(fieldGroups(FieldCoupling::oneAtATime(3)) == Groups{{0}, {1}, {2}});
    CHECK(fieldGroups(chain(5)) == Groups{{0, 2, 4}, {1, 3}});
    FieldCoupling triangle(4);
    triangle.couple(0, 1);
    triangle.couple(1, 2);
    triangle.couple(0, 2);
    CHECK(fieldGroups(triangle) == Groups{{0, 3}, {1}, {2}});
    CHECK(triangle.pairCount() == 3);
    CHECK(FieldCoupling::oneAtATime(4).pairCount() == 6);
    CHECK_THROWS_AS(triangle.couple(1, 1), std::invalid_argument);
    CHECK_THROWS_AS(triangle.couple(0, 4), std::invalid_argument);
}

TEST_CASE("Field coupling by level: adjacent levels, and the same level too when asked") {
    // Two readers on level 0, one on 1, one on 2, one beside the board.
    const std::vector<std::optional<int>> levels = {0, 0, 1, 2, std::nullopt};
    const FieldCoupling adjacent = couplingByLevel(levels, LevelCoupling::AdjacentLevels);
    CHECK(adjacent.neighboursOf(0) == std::vector<ReaderIndex>{2});
    CHECK(adjacent.neighboursOf(2) == std::vector<ReaderIndex>{0, 1, 3});
    CHECK(adjacent.neighboursOf(4).empty());
    CHECK(fieldGroups(adjacent) == Groups{{0, 1, 3, 4}, {2}});
    const FieldCoupling same = couplingByLevel(levels, LevelCoupling::SameOrAdjacentLevels);
    CHECK(same.neighboursOf(0) == std::vector<ReaderIndex>{1, 2});
    CHECK(fieldGroups(same) == Groups{{0, 3, 4}, {1}, {2}});
}

TEST_CASE("Field scheduler: one at a time is the old cycle, power-up and inventory in turn") {
    FieldScheduler s(FieldCoupling::oneAtATime(3));
    std::vector<FieldStep::Kind> kinds;
    Microseconds now{0};
    for (int i = 0; i < 9; ++i) {
        const FieldStep step = s.next(now);
        kinds.push_back(step.kind);
        if (step.kind == FieldStep::Kind::Wait) now = step.until;
        if (step.kind == FieldStep::Kind::Scan) {
            now += 1000us;
            s.scanned(step.reader, true, now);
        }
    }
    using K = FieldStep::Kind;
    CHECK(kinds == std::vector<K>{K::FieldOn, K::Wait, K::Scan, K::FieldOn, K::Wait, K::Scan, K::FieldOn,
                                  K::Wait, K::Scan});
    CHECK(s.completedCycles() == 1);
    CHECK(s.lastCycleEnd() == 3 * (5100us + 1000us));
}

TEST_CASE("Field scheduler: the next group powers up while this one is inventoried") {
    // Two rows of three readers, each reader coupled with the one stacked over it.
    FieldCoupling rows(6);
    for (ReaderIndex a : {0u, 1u, 2u}) rows.couple(a, a + 3);
    FieldScheduler s(rows);
    CHECK(s.groups() == Groups{{0, 1, 2}, {3, 4, 5}});
    const Run run = drive(s, 4, [](ReaderIndex) { return 2000us; });
    // The first row powers up together; each reader of the second goes on as
    // soon as the one under it is off, and powers up while the bus inventories the rest.
    std::vector<Microseconds> firstScans;
    for (const auto& scans : run.scansOf) firstScans.push_back(scans.at(0));
    CHECK(firstScans == std::vector<Microseconds>{5100us, 7100us, 9100us, 12200us, 14200us, 16200us});
    CHECK(run.cycleEnds.at(0) == 18200us);
    CHECK(run.maxFieldsOn == 3);
    for (const auto& scans : run.scansOf) CHECK(scans.size() >= 4);
}

TEST_CASE("Field scheduler: a chain pipelines, every reader once a cycle, faster than one at a time") {
    const auto scanTime = [](ReaderIndex r) { return Microseconds(300 + 700 * (r % 3)); };
    FieldScheduler oneAtATime(FieldCoupling::oneAtATime(12));
    const Run slow = drive(oneAtATime, 6, scanTime);
    FieldScheduler chained(chain(12));
    const Run fast = drive(chained, 6, scanTime);
    const auto period = [](const Run& r) { return r.cycleEnds[5] - r.cycleEnds[4]; };
    // One at a time: 12 power-ups and 12 scans, nothing overlaps.
    CHECK(period(slow) == 12 * 5100us + 4 * (300us + 1000us + 1700us));
    // The chain's two groups overlap: well under half.
    CHECK(period(fast) < period(slow) / 2);
    for (std::size_t r = 0; r < 12; ++r) CHECK(fast.scansOf[r].size() >= 6);
}

TEST_CASE("Field scheduler: never more fields on than the cap") {
    FieldScheduler s(FieldCoupling(10), {.powerUpTime = 5100us, .maxFieldsOn = 3, .backoff = {}});
    const Run run = drive(s, 3, [](ReaderIndex) { return 1000us; });
    CHECK(run.maxFieldsOn == 3);
    for (const auto& scans : run.scansOf) CHECK(scans.size() >= 3);
}

TEST_CASE("Field scheduler: a failing reader is backed off, the others carry on, it comes back") {
    const BackoffPolicy policy{.failuresBeforeBackoff = 2, .firstBackoff = 200ms, .maxBackoff = 800ms};
    FieldScheduler s(chain(4), {.powerUpTime = 5100us, .maxFieldsOn = 0, .backoff = policy});
    bool broken = true;
    const Run run = drive(
        s, 200, [](ReaderIndex) { return 1000us; },
        [&](ReaderIndex r, Microseconds now) {
            if (now > 1500ms) broken = false;
            return r == 2 && broken;
        });
    // Backed off: 200, 400, 800, 800 ms between tries, not every cycle.
    const auto& tries = run.scansOf[2];
    std::vector<Microseconds> duringFault;
    for (std::size_t i = 0; i + 1 < tries.size() && tries[i + 1] < 1500ms; ++i)
        duringFault.push_back(tries[i + 1] - tries[i]);
    REQUIRE(duringFault.size() >= 4);
    CHECK(duringFault[1] >= 200ms);
    CHECK(duringFault[2] >= 400ms);
    CHECK(duringFault[3] >= 800ms);
    // Meanwhile the others were scanned every cycle, and it is back now.
    CHECK(run.scansOf[0].size() > 100);
    CHECK(s.failuresInARow(2) == 0);
    CHECK(tries.back() > 1500ms);
}

TEST_CASE("Field scheduler: random couplings, scan times and failures keep every rule") {
    for (std::uint32_t seed = 1; seed <= 40; ++seed) {
        CAPTURE(seed);
        std::mt19937 rng(seed);
        const std::size_t n = 2 + rng() % 20;
        FieldCoupling coupling(n);
        const unsigned density = rng() % 100;
        for (ReaderIndex a = 0; a < n; ++a)
            for (ReaderIndex b = a + 1; b < n; ++b)
                if (rng() % 100 < density) coupling.couple(a, b);
        const std::size_t cap = rng() % 2 ? 0 : 1 + rng() % 5;
        std::vector<Microseconds> scanTimes(n);
        for (auto& t : scanTimes) t = Microseconds(50 + rng() % 4000);
        // A scan fails now and then, never twice in a row: noise, kept on its turn (no back-off).
        std::mt19937 faults(seed);
        std::vector<bool> failedLast(n, false);
        const auto fails = [&](ReaderIndex r, Microseconds) {
            failedLast[r] = !failedLast[r] && faults() % 5 == 0;
            return bool(failedLast[r]);
        };
        FieldScheduler s(coupling, {.powerUpTime = 2000us, .maxFieldsOn = cap, .backoff = {}});
        const Run run = drive(
            s, 30, [&](ReaderIndex r) { return scanTimes[r]; }, fails, 2000us);
        if (cap) CHECK(run.maxFieldsOn <= cap);
        // Every reader once per cycle: at most one inventory ahead of the cycles done.
        for (ReaderIndex r = 0; r < n; ++r) {
            CHECK(run.scansOf[r].size() >= 30);
            CHECK(run.scansOf[r].size() <= 31);
        }
    }
}

TEST_CASE("Field scheduler: bad settings are refused") {
    CHECK_THROWS_AS(FieldScheduler(FieldCoupling(0)), std::invalid_argument);
    CHECK_THROWS_AS(FieldScheduler(FieldCoupling(2), {.powerUpTime = -1us, .maxFieldsOn = 0, .backoff = {}}),
                    std::invalid_argument);
    CHECK_THROWS_AS(FieldScheduler(FieldCoupling(2),
                                   {.powerUpTime = 1us, .maxFieldsOn = 0, .backoff = {.firstBackoff = 0ms}}),
                    std::invalid_argument);
}

TEST_CASE("Field scheduler: each reader's turns come about a cycle apart, never twice in a row") {
    std::vector<std::optional<int>> levels;
    for (int i = 0; i < 28; ++i) levels.push_back(i / 4);
    FieldScheduler s(couplingByLevel(levels, LevelCoupling::AdjacentLevels));
    const Run run = drive(s, 40, [](ReaderIndex r) { return Microseconds(900 + 150 * (r % 5)); });
    const double cycle = static_cast<double>((run.cycleEnds.back() - run.cycleEnds[5]).count()) /
                         static_cast<double>(run.cycleEnds.size() - 6);
    for (ReaderIndex r = 0; r < 28; ++r) {
        const auto& scans = run.scansOf[r];
        for (std::size_t i = 10; i < scans.size(); ++i) {
            CAPTURE(r);
            CAPTURE(i);
            const double gap = static_cast<double>((scans[i] - scans[i - 1]).count());
            CHECK(gap >= 0.6 * cycle);
            CHECK(gap <= 1.6 * cycle);
        }
    }
}

TEST_CASE(
    "Field scheduler: an extra scan comes as soon as the neighbours' fields are off, and counts for no "
    "cycle") {
    std::vector<std::optional<int>> levels;
    for (int i = 0; i < 28; ++i) levels.push_back(i / 4);
    FieldScheduler s(couplingByLevel(levels, LevelCoupling::AdjacentLevels));
    (void)drive(s, 5, [](ReaderIndex) { return 1500us; });
    // Reader 10 was just inventoried: ask for it again at once.
    Microseconds now = s.lastCycleEnd();
    const auto cyclesBefore = s.completedCycles();
    s.scanSoon(10, now);
    CHECK(s.extraPending(10));
    // Drives the scheduler until `reader` is next inventoried; when that was.
    auto servedAt = [&](ReaderIndex reader) -> std::optional<Microseconds> {
        for (int step = 0; step < 1000; ++step) {
            const FieldStep next = s.next(now);
            if (next.kind == FieldStep::Kind::Wait) {
                now = next.until;
            } else if (next.kind == FieldStep::Kind::Scan) {
                now += 1500us;
                s.scanned(next.reader, true, now);
                if (next.reader == reader) return now;
            }
        }
        return std::nullopt;
    };
    const auto soon = servedAt(10);
    REQUIRE(soon);
    // The neighbours' fields on when asked are inventoried first (a few
    // scans), then its own power-up and inventory.
    CHECK(*soon - s.lastCycleEnd() <= 20ms);
    CHECK_FALSE(s.extraPending(10));
    CHECK(s.completedCycles() <= cyclesBefore + 1);

    // Asked for later: not before then.
    const Microseconds askedAt = now;
    s.scanSoon(3, askedAt + 45ms);
    auto later = servedAt(3);
    while (later && s.extraPending(3)) later = servedAt(3);  // its turns before then do not serve it
    REQUIRE(later);
    CHECK(*later >= askedAt + 45ms);
}

TEST_CASE(
    "Field scheduler: an extra scan asked for later comes on time, and the reader's turn just before it "
    "waits to be that scan") {
    std::vector<std::optional<int>> levels;
    for (int i = 0; i < 28; ++i) levels.push_back(i / 4);
    FieldScheduler s(couplingByLevel(levels, LevelCoupling::AdjacentLevels));
    constexpr Microseconds kScan = 1500us;
    const Run warm = drive(s, 5, [](ReaderIndex) { return kScan; });
    const Microseconds cycle = warm.cycleEnds.back() - warm.cycleEnds[warm.cycleEnds.size() - 2];
    Microseconds now = warm.now;
    // One step of the loop; the reader it scanned, if any.
    auto step = [&]() -> std::optional<ReaderIndex> {
        const FieldStep next = s.next(now);
        if (next.kind == FieldStep::Kind::Wait) {
            REQUIRE(next.until > now);
            now = next.until;
        } else if (next.kind == FieldStep::Kind::Scan) {
            s.scanned(next.reader, true, now += kScan);
            return next.reader;
        }
        return std::nullopt;
    };
    for (ReaderIndex reader : {0, 5, 10, 13, 17, 22, 27}) {
        CAPTURE(reader);
        // Just after its turn, a new tag to read again a cycle and a quarter
        // later (its next turn would come before).
        for (int i = 0; i < 1000 && step() != reader; ++i) {
        }
        const Microseconds wanted = now + cycle + cycle / 4;
        s.scanSoon(reader, wanted);
        std::vector<Microseconds> scans;  // when its scans ended, until the extra is served
        for (int i = 0; i < 10000 && s.extraPending(reader); ++i)
            if (step() == reader) scans.push_back(now);
        REQUIRE_FALSE(s.extraPending(reader));
        // One scan: its turn waited for the extra. And on time: its
        // neighbours' turns left its field free, so the scan began when asked
        // for or once one more scan on the bus was over.
        CHECK(scans.size() == 1);
        CHECK(scans.back() >= wanted + kScan);
        CHECK(scans.back() <= wanted + 2 * kScan);
    }
}
