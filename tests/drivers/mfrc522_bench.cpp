// What one MFRC522 scan costs and what a whole castle's scan cycle takes:
// 28 readers, 14 tags dealt at random over them, one antenna on at a time.
// Prints one JSON object. Not a test: timings come from the emulated chip's
// virtual clock (SPI bytes at the configured clock plus a per-system-call
// cost, ISO/IEC 14443-A frames at 106 kbit/s, the chip's timer, the waits the
// driver asks for), not from this machine's speed. Run with --help for the
// options and for how to count our code's instructions under callgrind.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>

#include "tests/drivers/emulated_reader.hpp"
#include "tests/drivers/pipelined_castle.hpp"
#include "tests/drivers/random_uid.hpp"

using namespace vivaref::drivers;
using namespace vivaref::drivers::emulation;

namespace {

constexpr const char* kHelp =
    R"(mfrc522_bench: the MFRC522 driver's scan cost and a 28-reader castle's scan cycle.

  --spi-hz N                SPI clock (default 4000000; the MFRC522 takes up to 10 MHz)
  --transfer-overhead-us N  host cost of each SPI system call, chip-select included
                            (default 0: measure it on the Pi; GPIO chip-selects add two
                            line writes to every transfer)
  --timeout-us N            the chip's answer timeout (default: the driver's, 200)
  --power-up-us N           the wait after field-on before scanning (default 5100, the
                            ISO/IEC 14443-3 / NFC Forum guard time)
  --full-protocol           SELECT and HLTA every tag (no stopping at a lone tag)
  --seed N                  how the castle's tags are dealt (default 1)
  --repeat N                cycles per measurement (default 1; for callgrind)
  --tags N                  one reader with N tags only, no castle (for callgrind)
  --fields RULE             the pipelined castle's coupling: adjacent-levels (default, the
                            example castle's), same-or-adjacent-levels or one-at-a-time
  --max-fields-on N         at most N fields on at once in the pipelined castle (default 0: no cap)
  --cycles N                pipelined cycles measured (default 200, after one warm-up)
  --one-scan-at-a-time      the pipelined castle without interleaving: each scan holds the
                            bus through its radio waits, the next begins when it ends (as
                            before interleaved scans; for comparison)
  --moves-per-cycle N       tags moved to another reader after each cycle (default 1; and
                            every 4th cycle two tags swap readers)
  --no-known-tag-check      every scan inventories (Mfrc522ReaderConfig::checkKnownTag and
                            checkKnownTags off)
  --no-known-set-check      only a lone 7- or 10-byte tag is checked (checkKnownTags off)
  --per-reader-uids N       per_reader_cycle's tags all of N bytes (4, 7 or 10; default
                            mixed: 4, 7, 10, 7 in turn); with --repeat 2 or more the cycle
                            shown is the last, so the known-tag check's when it applies

Per castle: spi_bus_ms (bytes at the clock plus system-call overheads), rf_ms
(frames on air, tags' frame delays, timeouts with no answer), power_up_ms,
cycle_ms (the emulated clock over field-on, wait, scan, field-off for every
reader: bus and radio overlap, the driver waits for the radio instead of
polling) and cycles_per_second. what_if_* show the same castle with several
far-apart readers' fields on at once (not allowed by the one-antenna rule).
That is the old one-at-a-time cycle, kept for comparison.

interleaved_scan_costs: one reader's scan alone, field just on (power-up not
counted), run as an interleaved scan: bus_us is how long it holds the bus
(SPI bytes and per-transfer costs), scan_us how long it lasts, radio waits
included (the bus is free for other readers for scan_us - bus_us).

pipelined_castle: the same 28 readers on one SPI bus and one virtual clock,
driven by the FieldScheduler (fields on as the coupling allows, each reader's
power-up overlapping the others' inventories) and the known-tag check, for
--cycles cycles with tags moving between them. The scans of readers whose
fields are on are interleaved on the bus (scan_mode; max_scans_under_way is
how many were under way at once), unless --one-scan-at-a-time. cycle_ms_median and
cycle_ms_worst are end-to-end (from the end of one cycle to the end of the
next: every reader scanned once), cycles_per_second their mean;
min_power_up_us is the shortest field-on-to-scan seen (never below the
guard), wrong_scans the scans whose tags differ from their field's (must be 0).

Instructions of our code per cycle (callgrind): run twice with different
--repeat and take the difference, e.g.
  valgrind --tool=callgrind --callgrind-out-file=cg.1 mfrc522_bench --castle-only --repeat 10
  valgrind --tool=callgrind --callgrind-out-file=cg.2 mfrc522_bench --castle-only --repeat 20
  callgrind_annotate --inclusive=yes cg.N | grep -E 'Mfrc522Reader::(scan|antenna)|EmulatedMfrc522::transfer'
our code = inclusive(Mfrc522Reader::scan, antennaOn, antennaOff) minus the emulated chip
(EmulatedMfrc522::transfer), divided by the 10 extra cycles x 5 castles.
)";

struct Options {
    std::uint32_t spiHz = 4'000'000;
    std::int64_t transferOverheadUs = 0;
    int timeoutUs = static_cast<int>(mfrc522::ChipTiming{}.responseTimeout.count());
    int powerUpUs = static_cast<int>(Mfrc522ReaderConfig{}.powerUpTime.count());
    bool fullProtocol = false;
    std::uint64_t seed = 1;
    int repeat = 1;
    int onlyTags = -1;
    bool castleOnly = false;
    CastleFields fields = CastleFields::AdjacentLevels;
    std::size_t maxFieldsOn = 0;
    bool interleave = true;
    int cycles = 200;
    int movesPerCycle = 1;
    bool checkKnownTag = true;
    bool checkKnownTags = true;
    std::size_t perReaderUids = 0;
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (key == "--help" || key == "-h") {
            std::cout << kHelp;
            std::exit(0);
        }
        if (key == "--full-protocol") {
            o.fullProtocol = true;
            continue;
        }
        if (key == "--one-scan-at-a-time") {
            o.interleave = false;
            continue;
        }
        if (key == "--castle-only") {
            o.castleOnly = true;
            continue;
        }
        if (key == "--no-known-tag-check") {
            o.checkKnownTag = false;
            o.checkKnownTags = false;
            continue;
        }
        if (key == "--no-known-set-check") {
            o.checkKnownTags = false;
            continue;
        }
        if (i + 1 >= argc) {
            std::cerr << "mfrc522_bench: " << key << " needs a value (--help)\n";
            std::exit(2);
        }
        const long long value = std::strtoll(argv[++i], nullptr, 10);
        if (key == "--spi-hz")
            o.spiHz = static_cast<std::uint32_t>(value);
        else if (key == "--transfer-overhead-us")
            o.transferOverheadUs = value;
        else if (key == "--timeout-us")
            o.timeoutUs = static_cast<int>(value);
        else if (key == "--power-up-us")
            o.powerUpUs = static_cast<int>(value);
        else if (key == "--seed")
            o.seed = static_cast<std::uint64_t>(value);
        else if (key == "--repeat")
            o.repeat = static_cast<int>(value);
        else if (key == "--tags")
            o.onlyTags = static_cast<int>(value);
        else if (key == "--max-fields-on")
            o.maxFieldsOn = static_cast<std::size_t>(value);
        else if (key == "--cycles")
            o.cycles = static_cast<int>(value);
        else if (key == "--moves-per-cycle")
            o.movesPerCycle = static_cast<int>(value);
        else if (key == "--per-reader-uids")
            o.perReaderUids = static_cast<std::size_t>(value);
        else if (key == "--fields") {
            const std::string rule = argv[i];
            if (rule == "adjacent-levels")
                o.fields = CastleFields::AdjacentLevels;
            else if (rule == "same-or-adjacent-levels")
                o.fields = CastleFields::SameOrAdjacentLevels;
            else if (rule == "one-at-a-time")
                o.fields = CastleFields::OneAtATime;
            else {
                std::cerr << "mfrc522_bench: --fields " << rule << ": not a rule (--help)\n";
                std::exit(2);
            }
        } else {
            std::cerr << "mfrc522_bench: unknown option " << key << " (--help)\n";
            std::exit(2);
        }
    }
    if (o.spiHz == 0 || o.repeat < 1 || o.timeoutUs < 1 || o.powerUpUs < 0 || o.cycles < 1 ||
        o.movesPerCycle < 0 || (o.perReaderUids != 0 && !TagUid::isValidSize(o.perReaderUids))) {
        std::cerr << "mfrc522_bench: bad value (--help)\n";
        std::exit(2);
    }
    return o;
}

struct CycleFigures {
    ScanCost cost;
    mfrc522::BusCounters bus;    // the whole reader cycle: field on, scan, field off
    std::int64_t elapsedNs = 0;  // the emulated clock over the same
    EmulatedMfrc522::RadioTime radio;
    bool ok = true;
    bool exact = true;  // the scan's tags are the field's
};

// One reader cycle as the castle runs it: field on, wait for the tags to power up, scan, field off.
CycleFigures cycle(EmulatedReader& r, const Options& o) {
    CycleFigures f;
    const auto radioBefore = r.chip.radioTime();
    const auto busBefore = r.reader.busCounters();
    const std::int64_t start = r.chip.nowNs();
    r.reader.antennaOn();
    r.chip.transfer({}, {},
                    std::chrono::microseconds(o.powerUpUs));  // the scheduler's timer, in virtual time
    const ScanResult result = r.reader.scan();
    r.reader.antennaOff();
    f.elapsedNs = r.chip.nowNs() - start - static_cast<std::int64_t>(o.powerUpUs) * 1000 -
                  o.transferOverheadUs * 1000;  // the power-up wait is counted apart
    f.ok = result.ok();
    TagSet field;
    for (const auto& tag : r.chip.field().tags()) field.insert(TagUid(tag.uid()));
    f.exact = f.ok && result.tags() == field;
    f.cost = r.reader.lastScanCost();
    const auto& bus = r.reader.busCounters();
    f.bus = {bus.transfers - busBefore.transfers, bus.bytes - busBefore.bytes, bus.waits - busBefore.waits,
             bus.waited - busBefore.waited};
    const auto& radio = r.chip.radioTime();
    f.radio = {radio.frames - radioBefore.frames, radio.airNs - radioBefore.airNs,
               radio.frameDelayNs - radioBefore.frameDelayNs, radio.timeoutNs - radioBefore.timeoutNs};
    return f;
}

std::unique_ptr<EmulatedReader> makeReader(const Options& o, std::string name) {
    EmulatedBusTiming timing{o.spiHz, o.transferOverheadUs * 1000};
    Mfrc522ReaderConfig config{std::move(name), {std::chrono::microseconds(o.timeoutUs), 5000}, 16, 4};
    config.stopAtLoneTag = !o.fullProtocol;
    config.powerUpTime = std::chrono::microseconds(o.powerUpUs);
    config.checkKnownTag = o.checkKnownTag;
    config.checkKnownTags = o.checkKnownTags;
    return std::make_unique<EmulatedReader>(timing, config);
}

double busUs(const Options& o, const mfrc522::BusCounters& b) {
    return static_cast<double>(b.bytes) * 8e6 / o.spiHz +
           static_cast<double>((b.transfers + b.waits) * static_cast<std::uint64_t>(o.transferOverheadUs));
}

double rfUs(const EmulatedMfrc522::RadioTime& r) {
    return static_cast<double>(r.airNs + r.frameDelayNs + r.timeoutNs) / 1e3;
}

std::string scanJson(const Options& o, int tags, const CycleFigures& f) {
    std::ostringstream out;
    out << "{\"tags\":" << tags << ",\"ok\":" << (f.ok ? "true" : "false")
        << ",\"spi_transfers\":" << f.bus.transfers << ",\"spi_bytes\":" << f.bus.bytes
        << ",\"waits\":" << f.bus.waits << ",\"rf_frames\":" << f.radio.frames
        << ",\"collisions\":" << f.cost.collisions << ",\"selects\":" << f.cost.selects
        << ",\"halts\":" << f.cost.halts << ",\"spi_bus_us\":" << busUs(o, f.bus)
        << ",\"rf_air_us\":" << f.radio.airNs / 1e3 << ",\"rf_frame_delay_us\":" << f.radio.frameDelayNs / 1e3
        << ",\"rf_timeout_us\":" << f.radio.timeoutNs / 1e3 << ",\"elapsed_us\":" << f.elapsedNs / 1e3 << "}";
    return out.str();
}

// One interleaved scan of a reader alone (field just on, power-up not
// counted): how long the bus is held (the continueScan() calls) and how long
// the scan lasts (its radio waits included), for the simulated castle's
// timing table. The bus is free for other readers the rest of the time.
std::string interleavedScanJson(const Options& o, const char* what, std::size_t tags, bool known) {
    std::mt19937_64 rng(o.seed);
    auto readerOnChip = makeReader(o, "bench");
    EmulatedReader& r = *readerOnChip;
    for (std::size_t t = 0; t < tags; ++t) r.chip.field().add(EmulatedTag(makersUid(rng, 7)));
    if (r.reader.initialize()) return "{}";
    if (known) (void)r.cycle();  // the scan before, whose tags this one checks
    (void)r.reader.antennaOff();
    (void)r.reader.antennaOn();
    const std::int64_t start = r.chip.nowNs();
    std::int64_t busNs = 0;
    int stops = 0;
    r.reader.beginScan();
    for (;;) {
        const std::int64_t before = r.chip.nowNs();
        const auto wait = r.reader.continueScan();
        busNs += r.chip.nowNs() - before;
        if (!wait) break;
        ++stops;
        r.chip.idleUntil(r.chip.nowNs() + wait->count() * 1000);
    }
    const ScanResult result = r.reader.takeScanResult();
    std::ostringstream out;
    out << "{\"case\":\"" << what << "\",\"ok\":" << (result.ok() ? "true" : "false")
        << ",\"radio_waits\":" << stops << ",\"bus_us\":" << static_cast<double>(busNs) / 1e3
        << ",\"scan_us\":" << static_cast<double>(r.chip.nowNs() - start) / 1e3 << "}";
    return out.str();
}

// 28 readers, one antenna on at a time, 14 tags: one each on 14 readers (a
// character stands on one spot, over one reader), or dealt at random (some
// readers then see two or three: the anticollision's worst case).
std::string castleJson(const Options& o, const std::vector<std::size_t>& sizes, const char* label,
                       bool spread) {
    constexpr int kReaders = 28, kTags = 14;
    std::mt19937_64 rng(o.seed);
    std::vector<std::unique_ptr<EmulatedReader>> readers;
    for (int i = 0; i < kReaders; ++i) {
        readers.push_back(makeReader(o, "floor-" + std::to_string(i)));
        if (readers.back()->reader.initialize()) return "null";
    }
    std::vector<int> spots(kReaders);
    for (int i = 0; i < kReaders; ++i) spots[static_cast<std::size_t>(i)] = i;
    if (spread)
        std::shuffle(spots.begin(), spots.end(), rng);  // random: the same deal as before spread existed
    for (int t = 0; t < kTags; ++t) {
        const auto at =
            static_cast<std::size_t>(spread ? spots[static_cast<std::size_t>(t)] : rng() % kReaders);
        readers[at]->chip.field().add(
            EmulatedTag(makersUid(rng, sizes[static_cast<std::size_t>(t) % sizes.size()])));
    }
    double scansUs = 0, spiUs = 0, radioUs = 0, waitedUs = 0;
    std::uint64_t bytes = 0, transfers = 0, waits = 0;
    int occupied = 0;
    bool ok = true;
    for (int rep = 0; rep < o.repeat; ++rep) {
        scansUs = spiUs = radioUs = waitedUs = 0;
        bytes = transfers = waits = 0;
        occupied = 0;
        for (auto& reader : readers) {
            EmulatedReader& r = *reader;
            const CycleFigures f = cycle(r, o);
            const auto& field = r.chip.field().tags();
            ok = ok && f.exact;
            occupied += field.empty() ? 0 : 1;
            scansUs += static_cast<double>(f.elapsedNs) / 1e3;
            spiUs += busUs(o, f.bus);
            radioUs += rfUs(f.radio);
            waitedUs += static_cast<double>(f.bus.waited.count());
            bytes += f.bus.bytes;
            transfers += f.bus.transfers;
            waits += f.bus.waits;
        }
    }
    const double powerUpUs = static_cast<double>(kReaders) * o.powerUpUs;
    const double cycleUs = scansUs + powerUpUs;
    // Several far-apart readers' fields on at once, on the same bus: each reader
    // holds a field slot for its power-up and scan, the bus does one scan at a time.
    auto withFields = [&](int fields) { return std::max(scansUs, (scansUs + powerUpUs) / fields) / 1e3; };
    std::ostringstream out;
    out << "{\"uids\":\"" << label << "\",\"tags_per_reader\":\"" << (spread ? "one" : "random")
        << "\",\"readers\":" << kReaders << ",\"tags\":" << kTags << ",\"occupied_readers\":" << occupied
        << ",\"all_found\":" << (ok ? "true" : "false") << ",\"spi_transfers\":" << transfers
        << ",\"spi_bytes\":" << bytes << ",\"waits\":" << waits << ",\"spi_bus_ms\":" << spiUs / 1e3
        << ",\"rf_ms\":" << radioUs / 1e3 << ",\"driver_waits_ms\":" << waitedUs / 1e3
        << ",\"scans_ms\":" << scansUs / 1e3 << ",\"power_up_ms\":" << powerUpUs / 1e3
        << ",\"cycle_ms\":" << cycleUs / 1e3 << ",\"cycles_per_second\":" << 1e6 / cycleUs
        << ",\"target_ms\":50"
        << ",\"what_if_2_fields_ms\":" << withFields(2) << ",\"what_if_4_fields_ms\":" << withFields(4)
        << "}";
    return out.str();
}

std::string pipelinedJson(const Options& o, std::vector<std::size_t> sizes, const char* label,
                          bool onePerReader, CastleFields fields) {
    PipelinedCastleOptions p;
    p.bus = {o.spiHz, o.transferOverheadUs * 1000};
    p.reader = Mfrc522ReaderConfig{"", {std::chrono::microseconds(o.timeoutUs), 5000}, 16, 4};
    p.reader.stopAtLoneTag = !o.fullProtocol;
    p.reader.powerUpTime = std::chrono::microseconds(o.powerUpUs);
    p.reader.checkKnownTag = o.checkKnownTag;
    p.reader.checkKnownTags = o.checkKnownTags;
    p.fields = fields;
    p.maxFieldsOn = o.maxFieldsOn;
    p.interleave = o.interleave;
    p.uidSizes = std::move(sizes);
    p.onePerReader = onePerReader;
    p.cycles = o.cycles;
    p.movesPerCycle = o.movesPerCycle;
    p.seed = o.seed;
    const PipelinedCastleFigures f = runPipelinedCastle(p);
    std::ostringstream out;
    out << "{\"uids\":\"" << label << "\",\"tags_per_reader\":\"" << (onePerReader ? "one" : "random")
        << "\",\"fields\":\"" << castleFieldsName(fields) << "\",\"groups\":" << f.groups
        << ",\"coupled_pairs\":" << f.coupledPairs << ",\"max_fields_on\":" << f.maxFieldsOn
        << ",\"scan_mode\":\"" << (o.interleave ? "interleaved" : "one at a time")
        << "\",\"max_scans_under_way\":" << f.maxScansUnderWay << ",\"cycles\":" << f.cycleMs.size()
        << ",\"moves\":" << f.moves << ",\"scans\":" << f.scans << ",\"confirmed_checks\":" << f.confirmed
        << ",\"inventories\":" << f.inventories << ",\"failed_scans\":" << f.failedScans
        << ",\"wrong_scans\":" << f.wrongScans << ",\"min_power_up_us\":" << f.minPowerUpUs
        << ",\"first_cycle_ms\":" << f.firstCycleMs << ",\"cycle_ms_median\":" << f.medianMs
        << ",\"cycle_ms_worst\":" << f.worstMs
        << ",\"cycles_per_second\":" << (f.meanMs > 0 ? 1e3 / f.meanMs : 0) << ",\"target_ms\":50}";
    return out.str();
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    std::mt19937_64 rng(o.seed);
    static constexpr std::size_t kMixed[] = {4, 7, 10, 7};
    std::cout << "{\"spi_hz\":" << o.spiHz << ",\"transfer_overhead_us\":" << o.transferOverheadUs
              << ",\"response_timeout_us\":" << o.timeoutUs << ",\"power_up_us\":" << o.powerUpUs
              << ",\"stop_at_lone_tag\":" << (o.fullProtocol ? "false" : "true") << ",\"seed\":" << o.seed;
    if (!o.castleOnly) {
        std::cout << ",\"per_reader_cycle\":[";
        for (int tags = 0; tags <= 4; ++tags) {
            if (o.onlyTags >= 0 && tags != o.onlyTags) continue;
            auto readerOnChip = makeReader(o, "bench");
            EmulatedReader& r = *readerOnChip;
            for (int t = 0; t < tags; ++t)
                r.chip.field().add(
                    EmulatedTag(makersUid(rng, o.perReaderUids ? o.perReaderUids : kMixed[t])));
            if (r.reader.initialize()) return 1;
            CycleFigures f;
            for (int i = 0; i < o.repeat; ++i) f = cycle(r, o);
            std::cout << (tags && o.onlyTags < 0 ? "," : "") << scanJson(o, tags, f);
        }
        std::cout << "]";
    }
    if (o.onlyTags >= 0) {
        std::cout << "}\n";
        return 0;
    }
    std::cout << ",\"castle\":[" << castleJson(o, {7}, "7-byte (NTAG)", true) << ","
              << castleJson(o, {4}, "4-byte (MIFARE Classic)", true) << ","
              << castleJson(o, {7}, "7-byte (NTAG)", false) << ","
              << castleJson(o, {4}, "4-byte (MIFARE Classic)", false) << ","
              << castleJson(o, {4, 7, 10, 7}, "mixed", false) << "]";
    std::cout << ",\"interleaved_scan_costs\":[" << interleavedScanJson(o, "empty", 0, false) << ","
              << interleavedScanJson(o, "one 7-byte tag, known (the check)", 1, true) << ","
              << interleavedScanJson(o, "one 7-byte tag, full inventory", 1, false) << ","
              << interleavedScanJson(o, "two 7-byte tags, known set", 2, true) << ","
              << interleavedScanJson(o, "two 7-byte tags, full inventory", 2, false) << ","
              << interleavedScanJson(o, "three 7-byte tags, full inventory", 3, false) << "]";
    std::cout << ",\"pipelined_castle\":[" << pipelinedJson(o, {7}, "7-byte (NTAG)", true, o.fields) << ","
              << pipelinedJson(o, {4}, "4-byte (MIFARE Classic)", true, o.fields) << ","
              << pipelinedJson(o, {4, 7, 10, 7}, "mixed", true, o.fields) << ","
              << pipelinedJson(o, {7}, "7-byte (NTAG)", false, o.fields) << ","
              << pipelinedJson(o, {7}, "7-byte (NTAG)", true, CastleFields::OneAtATime) << "]}\n";
    return 0;
}
