// Random play over every edition, seat count, option and variant, with the
// invariants of random_play.cpp checked after every action. Games run on two
// threads; failures are reported here with their seed and configuration.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

#include <doctest/doctest.h>

#include "engine/chance.hpp"
#include "engine/players/random_player.hpp"
#include "engine/state.hpp"
#include "random_play.hpp"

using namespace vivaref::test;

namespace {

constexpr int kGamesPerConfig = 57;

// VIVAREF_RANDOM_GAMES_PER_CONFIG=N plays N games per configuration instead:
// CI's arm64 stage, where qemu runs the engine about ten times slower, plays
// a tenth (the rules do not depend on the architecture; its sizes and
// orderings might, and a thousand games reach them).
int gamesPerConfig() {
    const char* text = std::getenv("VIVAREF_RANDOM_GAMES_PER_CONFIG");
    if (text == nullptr || *text == '\0') return kGamesPerConfig;
    char* end = nullptr;
    const long n = std::strtol(text, &end, 10);
    return (*end == '\0' && n >= 1 && n <= 1000) ? static_cast<int>(n) : kGamesPerConfig;
}
constexpr std::uint64_t kBaseSeed = 0x7669766172656600ULL;  // "vivaref"

struct Failure {
    std::string config;
    std::uint64_t seed;
    int first;
    std::string what;
};

}  // namespace

TEST_CASE("Random play: 10,000+ complete games keep every invariant at every step") {
    const auto configs = randomPlayConfigs();
    const int perConfig = gamesPerConfig();
    const int total = static_cast<int>(configs.size()) * perConfig;
    std::atomic<int> next{0};
    std::mutex mutex;
    std::vector<Failure> failures;
    GameStats sum;
    const auto worker = [&] {
        GameStats local;
        for (int job = next++; job < total; job = next++) {
            const PlayConfig& config = configs[job / perConfig];
            const std::uint64_t seed = kBaseSeed + static_cast<std::uint64_t>(job);
            auto spec = config.spec;
            spec.first = static_cast<int>(seed % static_cast<std::uint64_t>(spec.seats));
            if (auto broken = playCheckedGame(spec, seed, local)) {
                const std::lock_guard lock(mutex);
                failures.push_back({config.name, seed, spec.first, *broken});
            }
        }
        const std::lock_guard lock(mutex);
        sum.actions += local.actions;
        sum.rounds += local.rounds;
        sum.coronations += local.coronations;
        sum.failedElections += local.failedElections;
        sum.passes += local.passes;
        sum.reshuffles += local.reshuffles;
        sum.allPassRounds += local.allPassRounds;
    };
    const auto start = std::chrono::steady_clock::now();
    // Two threads; one under an emulator (qemu-user 7.2 did not finish two
    // threads' worth of games in ten minutes, while one thread plays them in
    // seconds).
    const char* emulated = std::getenv("VIVAREF_UNDER_EMULATOR");
    if (emulated != nullptr && *emulated == '1') {
        worker();
    } else {
        std::thread other(worker);
        worker();
        other.join();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MESSAGE(total << " games in " << configs.size() << " configurations, " << sum.actions << " actions, "
                  << sum.rounds << " rounds, " << sum.coronations << " coronations, " << sum.failedElections
                  << " failed elections, " << sum.reshuffles << " reshuffles, " << sum.passes << " passes, "
                  << sum.allPassRounds << " all-pass rounds, in " << seconds << " s");
    if (perConfig == kGamesPerConfig) CHECK(total >= 10000);
    CHECK(sum.failedElections > 0);
    CHECK(sum.reshuffles > 0);
    // One line per configuration and kind of failure, each with a seed to replay.
    std::sort(failures.begin(), failures.end(),
              [](const Failure& a, const Failure& b) { return a.seed < b.seed; });
    std::vector<std::string> seen;
    for (const Failure& f : failures) {
        const std::string key = f.config + "|" + f.what.substr(0, f.what.find_first_of("0123456789"));
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        seen.push_back(key);
        INFO("configuration: " << f.config << ", first seat " << f.first);
        INFO("seed: " << f.seed);
        CHECK_MESSAGE(false, f.what);
    }
    CHECK_MESSAGE(failures.empty(), failures.size() << " of " << total << " games broke an invariant");
}

TEST_CASE("Random play: a seed replays to the same game") {
    const auto configs = randomPlayConfigs();
    REQUIRE(!configs.empty());
    for (const PlayConfig& config : {configs.front(), configs.back()}) {
        GameStats a, b;
        CHECK_FALSE(playCheckedGame(config.spec, 42, a).has_value());
        CHECK_FALSE(playCheckedGame(config.spec, 42, b).has_value());
        CHECK(a.actions == b.actions);
        CHECK(a.coronations == b.coronations);
    }
}

TEST_CASE(
    "Random play's one-call path: the same actions and states as drawing, then applying with every check") {
    // playRandomAction and playRandomDeal (vivaref bench, playouts) trust
    // their own draws and skip State::apply's tests; here each of their steps
    // must equal the same draw applied through State::apply, the state
    // compared whole.
    const auto configs = randomPlayConfigs();
    REQUIRE(configs.size() >= 20);
    int steps = 0;
    for (const PlayConfig& config : configs) {
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            auto spec = config.spec;
            spec.first = static_cast<int>(seed % static_cast<std::uint64_t>(spec.seats));
            const auto rules = std::make_shared<const vivaref::engine::Rules>(spec);
            vivaref::engine::State checked(rules), trusted(rules);
            vivaref::engine::Rng checkedRng(kBaseSeed + seed), trustedRng(kBaseSeed + seed);
            INFO("configuration: " << config.name << ", seed " << kBaseSeed + seed);
            while (!checked.isOver()) {
                if (checked.awaitsChance()) {
                    const auto decision = vivaref::engine::players::randomDecision(checked, checkedRng);
                    REQUIRE_FALSE(checked.apply(decision));
                    if (trusted.phase() == vivaref::engine::Phase::AwaitDeal)
                        vivaref::engine::playRandomDeal(trusted, trustedRng);
                    else
                        REQUIRE_FALSE(
                            trusted.apply(vivaref::engine::players::randomDecision(trusted, trustedRng)));
                } else {
                    const auto drawn = vivaref::engine::randomAction(checked, checkedRng);
                    const auto refusal = checked.apply(drawn);
                    REQUIRE_MESSAGE(!refusal, "randomAction drew a refused action: "
                                                  << ::vivaref::engine::describe(refusal->message));
                    const auto applied = vivaref::engine::playRandomAction(trusted, trustedRng);
                    REQUIRE(applied == drawn);
                    ++steps;
                }
                REQUIRE(trusted == checked);
                REQUIRE(trustedRng == checkedRng);
            }
            // And playRandomly without an observer plays that same game.
            vivaref::engine::State whole(rules);
            vivaref::engine::Rng wholeRng(kBaseSeed + seed);
            std::int64_t actions = 0;
            REQUIRE_FALSE(vivaref::engine::players::playRandomly(whole, wholeRng, &actions));
            CHECK(whole == checked);
            CHECK(actions > 0);
        }
    }
    MESSAGE(steps << " actions compared in " << configs.size() << " configurations");
    CHECK(steps > 10000);
}
