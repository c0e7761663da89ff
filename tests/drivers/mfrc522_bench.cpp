// What one MFRC522 scan costs and what a whole castle's scan cycle takes.
// Prints one JSON object. Not a test: timings come from the emulated chip's
// virtual clock (SPI bytes at the configured clock, ISO/IEC 14443-A frames at
// 106 kbit/s, the chip's timer), not from this machine's speed. Run it under
// `valgrind --tool=callgrind` to count our code's instructions per scan.
//
//   mfrc522_bench [--spi-hz N] [--transfer-overhead-us N] [--timeout-us N]
//                 [--power-up-us N] [--seed N] [--repeat N] [--tags N]
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>

#include "tests/drivers/emulated_reader.hpp"

using namespace vivaref::drivers;
using namespace vivaref::drivers::emulation;

namespace {

struct Options {
    std::uint32_t spiHz = 4'000'000;
    std::int64_t transferOverheadUs = 0;  // per-ioctl cost on the Pi: measure it there
    int timeoutUs = 500;
    // ISO/IEC 14443-3 §5.2.4: a tag must take REQA within 5 ms of field; the reader waits 5.1 ms.
    int powerUpUs = 5100;
    std::uint64_t seed = 1;
    int repeat = 1;     // scans per tag count, to make callgrind's figures per scan
    int onlyTags = -1;  // one tag count only, and no castle: for callgrind
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        const long long value = std::strtoll(argv[i + 1], nullptr, 10);
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
        else {
            std::cerr << "mfrc522_bench: unknown option " << key << "\n";
            std::exit(2);
        }
    }
    return o;
}

std::vector<std::uint8_t> uidOfSize(std::mt19937_64& rng, std::size_t size) {
    std::vector<std::uint8_t> uid(size);
    for (auto& b : uid) b = static_cast<std::uint8_t>(rng());
    uid[0] = size == 4 ? 0x1A : 0x04;  // no cascade tag value where a level starts
    if (size >= 7 && uid[3] == 0x88) uid[3] = 0x08;
    return uid;
}

struct ScanFigures {
    ScanCost cost;
    std::int64_t elapsedNs = 0;  // the emulated clock across the scan: bus and radio, overlapped
    EmulatedMfrc522::RadioTime radio;
    bool ok = true;
};

// One reader cycle as the castle runs it: field on, wait for tags to power up, scan, field off.
ScanFigures cycle(EmulatedReader& r) {
    ScanFigures f;
    const auto radioBefore = r.chip.radioTime();
    r.reader.antennaOn();
    const std::int64_t start = r.chip.nowNs();
    const ScanResult result = r.reader.scan();
    f.elapsedNs = r.chip.nowNs() - start;
    r.reader.antennaOff();
    f.ok = result.ok();
    f.cost = r.reader.lastScanCost();
    const auto& radio = r.chip.radioTime();
    f.radio = {radio.frames - radioBefore.frames, radio.airNs - radioBefore.airNs,
               radio.frameDelayNs - radioBefore.frameDelayNs, radio.timeoutNs - radioBefore.timeoutNs};
    return f;
}

std::unique_ptr<EmulatedReader> makeReader(const Options& o, std::string name) {
    EmulatedBusTiming timing{o.spiHz, o.transferOverheadUs * 1000};
    Mfrc522ReaderConfig config{std::move(name), {std::chrono::microseconds(o.timeoutUs), 5000}, 16, 4};
    return std::make_unique<EmulatedReader>(timing, config);
}

double busUs(const Options& o, const ScanCost& c) {
    return static_cast<double>(c.spiBytes) * 8e6 / o.spiHz +
           static_cast<double>(c.spiTransfers * o.transferOverheadUs);
}

std::string scanJson(const Options& o, int tags, const ScanFigures& f) {
    std::ostringstream out;
    const double rfUs = static_cast<double>(f.radio.airNs + f.radio.frameDelayNs + f.radio.timeoutNs) / 1e3;
    out << "{\"tags\":" << tags << ",\"ok\":" << (f.ok ? "true" : "false")
        << ",\"spi_transfers\":" << f.cost.spiTransfers << ",\"spi_bytes\":" << f.cost.spiBytes
        << ",\"rf_frames\":" << f.radio.frames << ",\"collisions\":" << f.cost.collisions
        << ",\"bus_us\":" << busUs(o, f.cost) << ",\"rf_air_us\":" << f.radio.airNs / 1e3
        << ",\"rf_frame_delay_us\":" << f.radio.frameDelayNs / 1e3
        << ",\"rf_timeout_us\":" << f.radio.timeoutNs / 1e3
        << ",\"bus_plus_rf_us\":" << busUs(o, f.cost) + rfUs
        << ",\"emulated_elapsed_us\":" << f.elapsedNs / 1e3 << "}";
    return out.str();
}

// 28 readers, 14 tags dealt at random over them, one antenna on at a time.
std::string castleJson(const Options& o, const std::vector<std::size_t>& sizes, const char* label) {
    constexpr int kReaders = 28, kTags = 14;
    std::mt19937_64 rng(o.seed);
    std::vector<std::unique_ptr<EmulatedReader>> readers;
    for (int i = 0; i < kReaders; ++i) {
        readers.push_back(makeReader(o, "floor-" + std::to_string(i)));
        if (readers.back()->reader.initialize()) return "null";
    }
    for (int t = 0; t < kTags; ++t) {
        readers[rng() % kReaders]->chip.field().add(
            EmulatedTag(uidOfSize(rng, sizes[static_cast<std::size_t>(t) % sizes.size()])));
    }
    double scanUs = 0, boundUs = 0;
    std::uint64_t bytes = 0, transfers = 0;
    bool ok = true;
    for (auto& reader : readers) {
        EmulatedReader& r = *reader;
        const ScanFigures f = cycle(r);
        ok = ok && f.ok && f.cost.halts == static_cast<int>(r.chip.field().tags().size());
        scanUs += static_cast<double>(f.elapsedNs) / 1e3;
        boundUs += busUs(o, f.cost) +
                   static_cast<double>(f.radio.airNs + f.radio.frameDelayNs + f.radio.timeoutNs) / 1e3;
        bytes += f.cost.spiBytes;
        transfers += f.cost.spiTransfers;
    }
    const double powerUpUs = static_cast<double>(kReaders) * o.powerUpUs;
    std::ostringstream out;
    out << "{\"uids\":\"" << label << "\",\"readers\":" << kReaders << ",\"tags\":" << kTags
        << ",\"all_found\":" << (ok ? "true" : "false") << ",\"spi_transfers\":" << transfers
        << ",\"spi_bytes\":" << bytes << ",\"scans_ms\":" << scanUs / 1e3
        << ",\"scans_bus_plus_rf_ms\":" << boundUs / 1e3 << ",\"power_up_waits_ms\":" << powerUpUs / 1e3
        << ",\"cycle_ms\":" << (scanUs + powerUpUs) / 1e3 << ",\"cycle_without_power_up_ms\":" << scanUs / 1e3
        << ",\"target_ms\":50}";
    return out.str();
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    std::mt19937_64 rng(o.seed);
    static constexpr std::size_t kMixed[] = {4, 7, 10, 7};
    std::cout << "{\"spi_hz\":" << o.spiHz << ",\"transfer_overhead_us\":" << o.transferOverheadUs
              << ",\"response_timeout_us\":" << o.timeoutUs << ",\"power_up_us\":" << o.powerUpUs
              << ",\"seed\":" << o.seed << ",\"per_scan\":[";
    for (int tags = 0; tags <= 4; ++tags) {
        if (o.onlyTags >= 0 && tags != o.onlyTags) continue;
        auto readerOnChip = makeReader(o, "bench");
        EmulatedReader& r = *readerOnChip;
        for (int t = 0; t < tags; ++t) r.chip.field().add(EmulatedTag(uidOfSize(rng, kMixed[t])));
        if (r.reader.initialize()) return 1;
        ScanFigures f;
        for (int i = 0; i < o.repeat; ++i) f = cycle(r);
        std::cout << (tags && o.onlyTags < 0 ? "," : "") << scanJson(o, tags, f);
    }
    if (o.onlyTags >= 0) {
        std::cout << "]}\n";
        return 0;
    }
    std::cout << "],\"castle\":[" << castleJson(o, {7}, "7-byte (NTAG)") << ","
              << castleJson(o, {4}, "4-byte (MIFARE Classic)") << "," << castleJson(o, {4, 7, 10, 7}, "mixed")
              << "]}\n";
    return 0;
}
