// What the Castle page's model costs the loop (issue 36): CastleHealth::rawScan
// per scan, and the page's answer (castleReport) per request, on a castle of
// 28 readers (four under each floor, the throne, the WCs, a dungeon), scans
// round robin as a castle's come: 20 characters standing, one moved every
// 40 scans, one tag read by two readers, a stray UID, a reader failing one
// scan in 200. Not a test: it prints figures (ns per scan, µs per answer).
//
//   castle_health_bench [SCANS]   (default 2,000,000)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "daemon/server/castle_report.hpp"
#include "drivers/time/loop_clock.hpp"

using namespace vivaref;
using Wall = std::chrono::steady_clock;

namespace {

drivers::BoardLayout benchLayout() {
    drivers::BoardLayout layout;
    for (int floor = 0; floor <= 5; ++floor)
        for (const char* spot : {"a", "b", "c", "d"})
            layout.addReader({"floor" + std::to_string(floor) + "-" + spot}, {std::to_string(floor)});
    layout.addReader({"throne"}, {"6"});
    layout.addReader({"wc3"}, {"wc3"});
    layout.addReader({"wc4"}, {"wc4"});
    layout.addReader({"dungeon1"}, {"dungeon1"});
    return layout;
}

}  // namespace

int main(int argc, char** argv) {
    const long scans = argc > 1 ? std::atol(argv[1]) : 2'000'000;
    drivers::ManualClock clock;
    const drivers::BoardLayout layout = benchLayout();
    table::Table table(layout, {}, nullptr, clock);
    server::CastleHealth health(table);
    const std::size_t readers = layout.readerCount();

    // What each reader holds: 20 characters on the floors' first readers and the throne.
    const char* slugs[] = {"alighiero", "beatrice", "clemente", "dario",  "ernesto", "fiorello", "gavino",
                           "irina",     "leonardo", "merlino",  "natale", "odessa",  "piero",    "eloise",
                           "ouaf",      "caius",    "foidvo",   "jeanne", "merlin",  "victoria"};
    std::vector<drivers::TagSet> holds(readers);
    std::vector<drivers::TagUid> tags;
    for (const char* slug : slugs) tags.push_back(drivers::simulatedTagUid(slug));
    for (std::size_t i = 0; i < tags.size(); ++i) holds[(i * 4) % 24].insert(tags[i]);
    holds[5].insert(tags[0]);  // floor1-b also reads floor1-a's first tag: a cross-read
    holds[9].insert(drivers::TagUid::fromHex("04A1B2C3D4E5F6"));  // a stray
    const drivers::ScanError failure{drivers::ScanErrorKind::Protocol, "reader floor3-c: bad CRC"};

    // Round robin, 1 ms of the castle's time a scan (a 28-reader cycle in 28 ms).
    const auto start = Wall::now();
    long moved = 0;
    for (long n = 0; n < scans; ++n) {
        const auto reader = static_cast<drivers::ReaderIndex>(n % static_cast<long>(readers));
        const drivers::Timestamp at{n};
        if (n % 40 == 0) {  // a character moves to the next floor's first reader
            const auto tag = tags[static_cast<std::size_t>(moved % static_cast<long>(tags.size()))];
            for (auto& hold : holds) hold.erase(tag);
            holds[static_cast<std::size_t>((moved * 4) % 24)].insert(tag);
            ++moved;
        }
        if (reader == 14 && n % 200 < 28)
            health.rawScan(reader, failure, at);
        else
            health.rawScan(reader, holds[reader], at);
    }
    const double perScan =
        std::chrono::duration<double, std::nano>(Wall::now() - start).count() / static_cast<double>(scans);

    // The page's answer, as it asks once a second.
    const server::CastleWiring wiring = server::simulatedWiring();
    const drivers::Timestamp now{scans};
    const int answers = 2000;
    std::size_t bytes = 0;
    const auto reportStart = Wall::now();
    for (int i = 0; i < answers; ++i)
        bytes += server::castleReport(health, table, nullptr, wiring, now).dump().size();
    const double perAnswer =
        std::chrono::duration<double, std::micro>(Wall::now() - reportStart).count() / answers;

    std::printf("castle health: %ld scans of %zu readers: %.1f ns/scan\n", scans, readers, perScan);
    std::printf("castle report: %d answers: %.1f us/answer (built and written), %zu bytes each\n", answers,
                perAnswer, bytes / static_cast<std::size_t>(answers));
    std::printf("cross-read pairs kept: %zu; reads/s of floor0-a now: %.1f\n", health.crossReads().size(),
                health.readsPerSecond(0, now));
    return 0;
}
