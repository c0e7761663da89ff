// Random play on a noisy simulated castle: tags are lifted and put down at
// random while readers miss tags, pick up a neighbour's tag, report mangled
// UIDs and fail now and then. Whenever the board has been quiet for a while,
// the observation must be exactly the board. Fixed seed by default;
// VIVAREF_SENSING_SEED=N to try another. The seed is printed on failure.
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "drivers/sensing/sensing_pipeline.hpp"
#include "drivers/sim/simulated_board.hpp"

using namespace vivaref::drivers;
using namespace std::chrono_literals;

namespace {

std::uint64_t noiseSeed() {
    if (const char* text = std::getenv("VIVAREF_SENSING_SEED")) return std::strtoull(text, nullptr, 10);
    return 20261121;
}

const char* const kCharacters[] = {"alighiero", "beatrice", "cecco",  "dante",   "elena",
                                   "francesco", "giovanni", "odessa", "ugolino", "lorenzo"};

// How noisy the castle is, and the knobs that answer it. A still tag's
// reader misses it `missRate` of its scans, and one other reader picks it
// up `crosstalkRate` of its scans. Two misses in a row make a lift with the
// default knobs: fine at one miss in a hundred, while a castle that misses
// one scan in twenty needs lostAfterMisses = 3 (at one in ten, three or
// four misses in a row, about one tag-cycle in 10^4, still make a lift).
struct Noise {
    const char* name;
    double missRate;
    double crosstalkRate;
    SensingConfig config;
    // With a lift in hand at once, two misses in a row of a still tag show
    // it in hand from where it stands for a scan cycle or two: allowed,
    // never anywhere else, and rarely (bounded below).
    bool flickerAllowed;
};

SensingConfig slowToLose() {
    SensingConfig config;
    config.lostAfterMisses = 3;
    config.inHandAtOnce = false;
    config.stabilityWindow = 150ms;
    return config;
}

constexpr std::size_t kSteps = 150;

void playNoisily(const Noise& noise);

}  // namespace

TEST_CASE("Sensing on a noisy simulated castle: after a quiet spell the observation is the board") {
    playNoisily({"default knobs, one miss in a hundred", 0.01, 0.05, SensingConfig{}, true});
    playNoisily({"patient knobs, one miss in twenty", 0.05, 0.05, slowToLose(), false});
}

namespace {

void playNoisily(const Noise& noise) {
    const double kMissRate = noise.missRate;
    const double kCrosstalkRate = noise.crosstalkRate;
    const std::uint64_t seed = noiseSeed();
    INFO("seed " << seed << " (rerun with VIVAREF_SENSING_SEED=" << seed << "), " << noise.name);
    std::mt19937_64 random(seed);

    SimulatedBoard board(standardBoardLayout(), {.scanInterval = 10ms, .seed = seed});
    const BoardLayout& layout = board.layout();
    TagRegistry registry;
    for (const char* slug : kCharacters) registry.enrol(simulatedTagUid(slug), {slug});
    SensingPipeline pipeline(layout, registry, noise.config);

    auto pick = [&](std::size_t n) { return static_cast<std::size_t>(random() % n); };
    for (ReaderIndex r = 0; r < layout.readerCount(); ++r) {
        board.setFailureRate(r, 0.03);
        board.setGarbageRate(r, 0.05);
    }
    for (const char* slug : kCharacters) {
        board.setMissRate(simulatedTagUid(slug), kMissRate);
        board.setCrosstalk(simulatedTagUid(slug), pick(layout.readerCount()), kCrosstalkRate);
        REQUIRE(board.put(simulatedTagUid(slug), layout.place(pick(layout.placeCount()))));
    }

    Timestamp now{0};
    std::size_t changes = 0, moves = 0, flickers = 0;
    auto runFor = [&](Timestamp duration) {
        const Timestamp until = now + duration;
        for (const SimulatedScan& scan : board.advanceTo(until))
            pipeline.addScan(scan.reader, scan.result, scan.at);
        now = until;
        SensingUpdate update = pipeline.update(now);
        for (const ObservationChange& change : update.changes) {
            CHECK(change.stableAt <= now);
            CHECK(change.seenAt <= change.stableAt);
        }
        changes += update.changes.size();
        return update.observation;
    };

    for (std::size_t step = 0; step < kSteps; ++step) {
        CAPTURE(step);
        const TagUid tag = simulatedTagUid(kCharacters[pick(std::size(kCharacters))]);
        board.lift(tag);
        runFor(Timestamp(200 + static_cast<int>(pick(1500))));  // in hand, within the 3 s grace
        if (pick(5) != 0) {                                     // most are put down again
            REQUIRE(board.put(tag, layout.place(pick(layout.placeCount()))));
            ++moves;
        }
        const BoardObservation observation = runFor(1500ms);

        // The board as it is, against what the pipeline says.
        std::map<CharacterSlug, PlaceName> truth;
        for (const char* slug : kCharacters) {
            if (auto place = board.placeOf(simulatedTagUid(slug))) truth[{slug}] = *place;
        }
        std::map<CharacterSlug, PlaceName> seen;
        for (const auto& [character, placed] : observation.onBoard) seen[character] = placed.place;
        if (noise.flickerAllowed) {
            for (const auto& [character, inHand] : observation.inHand) {
                auto t = truth.find(character);
                if (t == truth.end() || inHand.liftedFrom != t->second) continue;
                seen[character] = t->second;  // a still tag missed twice: in hand from its place
                ++flickers;
            }
        }
        std::string mismatch;
        for (const char* slug : kCharacters) {
            const auto t = truth.find({slug});
            const auto o = seen.find({slug});
            const std::string want = t == truth.end() ? "-" : t->second.name;
            const std::string got = o == seen.end() ? "-" : o->second.name;
            if (want != got) mismatch += std::string(" ") + slug + " on " + want + " seen " + got + ";";
        }
        CAPTURE(mismatch);
        CHECK(seen == truth);
        CHECK(observation.ambiguous.empty());
        CHECK(observation.faultyReaders.empty());
        for (const auto& [character, inHand] : observation.inHand)
            CHECK((!truth.contains(character) || noise.flickerAllowed));
    }
    MESSAGE("seed " << seed << ": " << moves << " moves, " << changes << " stable changes, " << flickers
                    << " still tags in hand when looked at");
    CHECK(flickers * 20 <= kSteps);  // at most one look in twenty
    // A step changes at most two things (a lift, then a put or the end of
    // the grace): anything beyond is noise leaking through.
    if (!noise.flickerAllowed) CHECK(changes <= 2 * kSteps + std::size(kCharacters));
}

}  // namespace
