#include <doctest/doctest.h>

#include "drivers/sensing/scan_scheduler.hpp"

using namespace vivaref::drivers;
using namespace std::chrono_literals;

namespace {

const BackoffPolicy kPolicy{.failuresBeforeBackoff = 2, .firstBackoff = 200ms, .maxBackoff = 1000ms};

}  // namespace

TEST_CASE("Scan scheduler: readers take turns, one at a time") {
    ScanScheduler scheduler(3, kPolicy);
    std::vector<ReaderIndex> order;
    for (int i = 0; i < 7; ++i) order.push_back(*scheduler.next(0ms));
    CHECK(order == std::vector<ReaderIndex>{0, 1, 2, 0, 1, 2, 0});
}

TEST_CASE("Scan scheduler: a failing reader backs off exponentially up to the cap, then is retried") {
    ScanScheduler scheduler(3, kPolicy);
    // The first failure is retried on the reader's normal turn: one bad read is noise.
    scheduler.reportFailure(1, 0ms);
    CHECK(scheduler.retryAt(1) == 0ms);
    std::vector<Timestamp> retries;
    for (Timestamp t : {100ms, 1000ms, 2000ms, 3000ms, 5000ms}) {
        scheduler.reportFailure(1, t);
        retries.push_back(scheduler.retryAt(1) - t);
    }
    CHECK(retries == std::vector<Timestamp>{200ms, 400ms, 800ms, 1000ms, 1000ms});
    CHECK(scheduler.failuresInARow(1) == 6);

    // While it backs off, the others carry on without it.
    std::vector<ReaderIndex> order;
    for (int i = 0; i < 4; ++i) order.push_back(*scheduler.next(5500ms));
    CHECK(order == std::vector<ReaderIndex>{0, 2, 0, 2});
    // Its time comes: it is scanned again, on its turn.
    order.clear();
    for (int i = 0; i < 3; ++i) order.push_back(*scheduler.next(6000ms));
    CHECK(order == std::vector<ReaderIndex>{0, 1, 2});

    scheduler.reportSuccess(1);
    CHECK(scheduler.failuresInARow(1) == 0);
    scheduler.reportFailure(1, 7000ms);
    CHECK(scheduler.retryAt(1) == 0ms);  // a fresh failure is noise again
}

TEST_CASE("Scan scheduler: when every reader is backing off, nothing to scan until the first is due") {
    ScanScheduler scheduler(2, kPolicy);
    for (ReaderIndex r : {0u, 1u}) {
        scheduler.reportFailure(r, 0ms);
        scheduler.reportFailure(r, r == 0 ? 10ms : 50ms);
    }
    CHECK_FALSE(scheduler.next(100ms));
    CHECK(scheduler.nextReadyAt() == 210ms);
    CHECK(scheduler.next(210ms) == ReaderIndex{0});
    CHECK(scheduler.next(210ms) == ReaderIndex{0});  // the only one due, until it reports
    scheduler.reportFailure(0, 220ms);
    CHECK(scheduler.next(250ms) == ReaderIndex{1});
    CHECK(scheduler.retryAt(0) == 620ms);
}

TEST_CASE("Scan scheduler: bad policies are refused") {
    CHECK_THROWS_AS(ScanScheduler(0), std::invalid_argument);
    CHECK_THROWS_AS(ScanScheduler(2, BackoffPolicy{.firstBackoff = 0ms}), std::invalid_argument);
    CHECK_THROWS_AS(ScanScheduler(2, BackoffPolicy{.firstBackoff = 500ms, .maxBackoff = 100ms}),
                    std::invalid_argument);
}
