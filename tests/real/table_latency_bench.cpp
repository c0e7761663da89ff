// Not a test: how soon the real table answers a hand, in virtual time, on the
// example castle (daemon/config/examples/castle-2024.ini: 28 MFRC522
// readers, its real layout and field rule). The real driver code runs
// against emulated chips on one SPI bus whose transfers take the loop's time
// (EmulatedCastleOptions::busTime); random 2024 games are played as table
// scripts at a brisk pace with hand noise (hovers, grazes, double touches,
// slow hands) until at least MOVES puts have been made. Prints, p50 / p90 /
// p99 / worst:
//
//   - landed: a tag enters its place's field → the referee judges the piece
//     there (accepts or refuses it; the LEDs are decided in the same step);
//   - lifted: a tag leaves its place's field → the piece is "in hand";
//   - the scan cycle the loop ran (every reader inventoried once).
//
//   table_latency_bench [MOVES [SEED [OVERHEAD_US [clean|noisy [voice]]]]]
//
// OVERHEAD_US is the host's cost per SPI transfer (ioctl and chip select),
// 20 µs by default: what a Pi's spidev costs, about. `voice`: the same games
// twice, the voice off and then on (the table's voice speaking French at
// every moment through espeak-ng on its own thread, into ALSA's file and
// null PCMs), both printed: the table's answers must not change.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <vector>

#include "daemon/referee/referee.hpp"
#include "daemon/trace/table_script.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "drivers/audio/espeak_speech.hpp"
#include "tests/audio/file_pcm.hpp"
#include "tests/real/emulated_castle.hpp"
#include "tests/support/percentile.hpp"

using namespace vivaref;
using drivers::Timestamp;

namespace {

using test::percentile;

struct Pending {
    std::string character;
    std::string place;  // the put's; empty for a lift
    Timestamp at{0};
    std::string from;  // a lift's: the place it was put on last
    // A put's reads by its place's readers since it landed: the first, the
    // latest; a lift's first scan of its place's readers without it.
    std::optional<Timestamp> firstRead, lastRead, firstMiss;
};

void print(const char* what, const std::vector<double>& v) {
    std::cout << "  " << what << ": " << v.size() << " measured, p50 " << percentile(v, 0.5) << " ms, p90 "
              << percentile(v, 0.9) << " ms, p99 " << percentile(v, 0.99) << " ms, worst "
              << (v.empty() ? 0 : *std::max_element(v.begin(), v.end())) << " ms\n";
}

// The games measured and printed; with a `speaker`, the table's voice speaks
// there at every moment.
void measure(int wanted, std::uint64_t firstSeed, std::int64_t overheadUs, bool noise,
             drivers::SpeechOut* speaker) {
    const std::string ini = realtest::exampleCastleIni(VIVAREF_SOURCE_DIR);
    std::uint64_t linesSaid = 0;
    const auto wallStart = std::chrono::steady_clock::now();

    std::vector<double> landed, lifted, cycles, scanGaps, afterChange, afterLoss;
    // landed -> judged in parts: to the first read on its place, from there to
    // the read that placed it (the last one before the judgement), from that
    // read to the judgement.
    std::vector<double> toFirstRead, toPlacingRead, toJudged;
    // lifted -> in hand in parts: to the first scan that missed it, from there on.
    std::vector<double> toFirstMiss, missToInHand;
    int puts = 0, lifts = 0, games = 0, finished = 0;
    std::uint64_t rawScans = 0;
    double virtualMs = 0;
    for (std::uint64_t seed = firstSeed; puts < wanted; ++seed) {
        // The put or lift each character's tag waits to be judged for.
        std::map<std::string, Pending> pending;
        std::map<std::string, std::string> lastPlace;  // each character's last put
        realtest::EmulatedCastle* castleOf = nullptr;  // set once built: the scans' places
        const drivers::TagRegistry* tagsOf = nullptr;
        realtest::EmulatedCastleOptions options;
        options.busTime = true;
        options.timing.perTransferOverheadNs = overheadUs * 1000;
        options.onJudged = [&](const drivers::SensingUpdate& update, Timestamp at) {
            for (const auto& change : update.changes) {
                if (std::getenv("VIVAREF_BENCH_VERBOSE"))
                    std::cout << "    judged " << at.count() << ": " << drivers::describe(change) << "\n";
                auto it = pending.find(change.character.name);
                if (it == pending.end()) continue;
                const Pending& p = it->second;
                const bool put = !p.place.empty();
                if (put && change.to.kind == drivers::TagLocation::Kind::OnPlace && change.to.place &&
                    change.to.place->name == p.place) {
                    landed.push_back(static_cast<double>((at - p.at).count()));
                    if (p.firstRead && p.lastRead) {
                        toFirstRead.push_back(static_cast<double>((*p.firstRead - p.at).count()));
                        toPlacingRead.push_back(static_cast<double>((*p.lastRead - *p.firstRead).count()));
                        toJudged.push_back(static_cast<double>((at - *p.lastRead).count()));
                    }
                    pending.erase(it);
                } else if (!put && change.to.kind == drivers::TagLocation::Kind::InHand) {
                    lifted.push_back(static_cast<double>((at - p.at).count()));
                    if (p.firstMiss) {
                        toFirstMiss.push_back(static_cast<double>((*p.firstMiss - p.at).count()));
                        missToInHand.push_back(static_cast<double>((at - *p.firstMiss).count()));
                    }
                    pending.erase(it);
                }
            }
        };
        // Each reader's scans: how far apart, and how soon a change is scanned again.
        constexpr std::size_t kReaders = 28;  // the example castle's
        std::vector<Timestamp> lastScanOf(kReaders, Timestamp(0));
        std::vector<drivers::TagSet> lastTagsOf(kReaders);
        std::vector<char> changed(kReaders, 0);
        options.onRawScan = [&](drivers::ReaderIndex r, const drivers::ScanResult& result, Timestamp at) {
            if (r >= lastScanOf.size()) return;
            if (lastScanOf[r].count() > 0) {
                const auto gap = static_cast<double>((at - lastScanOf[r]).count());
                scanGaps.push_back(gap);
                if (changed[r] == 1) afterLoss.push_back(gap);
                if (changed[r] == 2) afterChange.push_back(gap);
            }
            const drivers::TagSet tags = result.ok() ? result.tags() : drivers::TagSet{};
            for (auto& [character, p] : pending) {
                if (!castleOf || !tagsOf || !result.ok()) continue;
                const auto& layout = castleOf->real().layout();
                const auto& scanned = layout.place(layout.placeOf(r)).name;
                const auto tag = tagsOf->findCharacter({character});
                if (!tag) continue;
                const bool read = tags.contains(tagsOf->uid(*tag));
                if (!p.place.empty() && scanned == p.place && read) {
                    if (!p.firstRead) p.firstRead = at;
                    p.lastRead = at;
                } else if (p.place.empty() && scanned == p.from && !read && !p.firstMiss &&
                           lastTagsOf[r].contains(tagsOf->uid(*tag))) {
                    p.firstMiss = at;
                }
            }
            const bool lost = std::any_of(lastTagsOf[r].begin(), lastTagsOf[r].end(),
                                          [&](const auto& t) { return !tags.contains(t); });
            changed[r] = !result.ok() ? 0 : lost ? 1 : tags != lastTagsOf[r] ? 2 : 0;
            if ((changed[r] || std::getenv("VIVAREF_BENCH_ALL")) && std::getenv("VIVAREF_BENCH_VERBOSE")) {
                std::cout << "    scan " << at.count() << " reader " << r << ":";
                for (const auto& t : tags) std::cout << " " << t.toHex();
                std::cout << "\n";
            }
            lastTagsOf[r] = tags;
            lastScanOf[r] = at;
        };
        if (std::getenv("VIVAREF_BENCH_VERBOSE"))
            options.onNotice = [](const referee::Notice& n) {
                std::cout << "    " << n.at.count() << " " << n.kind << ": " << n.text << "\n";
            };
        realtest::EmulatedCastle castle(ini, options);
        castleOf = &castle;
        if (speaker) {
            voice::VoiceSettings on;
            on.enabled = true;
            castle.table().setLanguage("fr");
            castle.table().setVoice(on);
            castle.table().setSpeaker(speaker, "espeak", {});
        }
        tagsOf = &castle.tags();

        const auto lines = realtest::brisk2024Game(seed, noise).lines;
        for (const auto& line : lines) {
            castle.runUntil(Timestamp(line.t));
            // A put or lift still waiting is a touch too short to be seen: not a landing.
            if (const auto* put = std::get_if<trace::PutLine>(&line.input)) {
                pending[put->tag.text] = {
                    put->tag.text, put->place.name, castle.clock().now(), {}, {}, {}, {}};
                lastPlace[put->tag.text] = put->place.name;
                ++puts;
            } else if (const auto* lift = std::get_if<trace::LiftLine>(&line.input)) {
                pending[lift->tag.text] = {
                    lift->tag.text, "", castle.clock().now(), lastPlace[lift->tag.text], {}, {}, {}};
                ++lifts;
            }
            if (std::getenv("VIVAREF_BENCH_VERBOSE"))
                std::cout << "  > " << trace::writeTraceLine(line) << "\n";
            castle.apply(line);
        }
        castle.runUntil(Timestamp(lines.back().t + 5000));
        ++games;
        linesSaid += castle.table().spoken()["id"].get<std::uint64_t>();
        if (speaker) castle.table().setSpeaker(nullptr, "none", {});
        const auto& counters = castle.table().table().referee().counters();
        finished += counters.gamesFinished;
        if (counters.gamesFinished == 0)
            std::cout << "  seed " << seed << ": not finished; refusals "
                      << referee::countersJson(counters)["refusals"].dump()
                      << "; standing: " << castle.table().publicStatus()["refusal"].dump() << "\n";
        rawScans += static_cast<std::uint64_t>(castle.real().counters().rawScans);
        virtualMs += static_cast<double>(castle.clock().now().count());
        const auto& fields = castle.real().fields();
        if (fields.completedCycles() > 0)
            cycles.push_back(static_cast<double>(fields.lastCycleEnd().count()) / 1000.0 /
                             static_cast<double>(fields.completedCycles()));
    }
    std::cout << "castle-2024.ini (28 emulated MFRC522, " << overheadUs << " us per SPI transfer), " << games
              << " brisk 2024 games " << (noise ? "with hand noise" : "clean") << " (" << finished
              << " finished), " << puts << " puts, " << lifts << " lifts; " << rawScans << " raw scans in "
              << virtualMs / 1000.0 << " s of virtual time ("
              << (virtualMs > 0 ? 1000.0 * static_cast<double>(rawScans) / virtualMs : 0) << " a second)\n";
    print("landed -> judged", landed);
    print("  landed -> first read on its place", toFirstRead);
    print("  first read -> the read that placed it", toPlacingRead);
    print("  that read -> judged", toJudged);
    print("lifted -> in hand", lifted);
    print("  lifted -> first scan without it by a reader that had it", toFirstMiss);
    print("  that scan -> in hand", missToInHand);
    print("mean scan cycle per game", cycles);
    print("between two scans of one reader", scanGaps);
    print("from a reader's loss of a tag to its next scan", afterLoss);
    print("from a reader's new tag to its next scan", afterChange);
    std::cout << "  wall time of the games (the table's loop; the voice's thread beside it): "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count()
              << " s\n";
    if (speaker)
        std::cout << "  the voice: " << linesSaid << " lines said or withdrawn (French, espeak-ng)\n";
}

}  // namespace

int main(int argc, char** argv) {
    const int wanted = argc > 1 ? std::atoi(argv[1]) : 1000;
    const std::uint64_t firstSeed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    const std::int64_t overheadUs = argc > 3 ? std::atoll(argv[3]) : 20;
    const bool noise = !(argc > 4 && std::string(argv[4]) == "clean");
    const bool withVoice = argc > 5 && std::string(argv[5]) == "voice";
    if (!withVoice) {
        measure(wanted, firstSeed, overheadUs, noise, nullptr);
        return 0;
    }
    // espeak-ng into ALSA's file PCM (its slave the null PCM): the real
    // synthesis on its own thread, with no sound card.
    std::string pattern = (std::filesystem::temp_directory_path() / "latency-voice-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        std::perror("table_latency_bench: mkdtemp");
        return 1;
    }
    const std::filesystem::path scratch = pattern;
    drivers::EspeakSpeechConfig config;
    config.pcm = drivers::testing::kFilePcmName;
    config.alsaConfig = drivers::testing::filePcmConfig(scratch / "out.raw");
    drivers::SteadyLoopClock clock;
    auto opened = drivers::EspeakSpeech::open(config, clock);
    if (!opened.speech) {
        std::cerr << "table_latency_bench: " << opened.error << "\n";
        return 1;
    }
    std::cout << "--- the voice off\n";
    measure(wanted, firstSeed, overheadUs, noise, nullptr);
    std::cout << "--- the voice on\n";
    measure(wanted, firstSeed, overheadUs, noise, opened.speech.get());
    opened.speech.reset();
    std::filesystem::remove_all(scratch);
    return 0;
}
