// Trace lines buffered in memory: written with the next event, by the
// caller's timer, by flush() or on close, not one fsync per line; a batch of
// events committed together or not at all; and a
// writer killed with SIGKILL never leaves an event on disk without every
// trace line appended before it.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>

#include <doctest/doctest.h>
#include <sys/wait.h>

#include "engine/chance.hpp"
#include "tests/store/random_game_writer.hpp"

using namespace vivaref;
using namespace vivaref::store;
using namespace vivaref::store::testing;

namespace {

// What another process would read: a second connection to the file.
std::size_t linesOnDisk(const std::filesystem::path& file, GameId id) {
    GameStore reader(file, GameStore::Access::MustExist);
    return reader.traceLines(id).size();
}

std::string traceLine(std::int64_t t, std::int64_t tag) {
    return R"({"t":)" + std::to_string(t) + R"(,"tag":)" + std::to_string(tag) + "}";
}

GameId newGame(GameStore& log) {
    NewGame game;
    game.spec = randomSpec(5);
    return log.createGame(game);
}

}  // namespace

TEST_CASE("trace lines wait in memory until an event, and go to disk in its transaction") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    GameStore log(file, GameStore::Access::CreateIfMissing);
    const auto id = newGame(log);
    for (int i = 0; i < 3; ++i) CHECK(log.appendTrace(id, 100 + i, traceLine(100 + i, i)).durable);
    CHECK(log.traceBuffered() == 3);
    CHECK(log.waiting() == 0);
    CHECK(log.traceLines(id).size() == 3);  // this store sees them
    CHECK(linesOnDisk(file, id) == 0);      // the disk does not yet
    CHECK(log.appendRefereeEvent(id, "pause", "{}", WallTime{}).durable);
    CHECK(log.traceBuffered() == 0);
    CHECK(linesOnDisk(file, id) == 3);
    // The lines after the event wait for the next one.
    log.appendTrace(id, 200, traceLine(200, 3));
    log.appendTrace(id, 201, traceLine(201, 4));
    CHECK(linesOnDisk(file, id) == 3);
    CHECK(log.traceBuffered() == 2);
}

TEST_CASE("a batch of events is committed by its end, all together") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    GameStore log(file, GameStore::Access::CreateIfMissing);
    const auto id = newGame(log);
    const auto eventsOnDisk = [&] { return GameStore(file, GameStore::Access::MustExist).events(id).size(); };
    REQUIRE(eventsOnDisk() == 1);  // the setup
    log.beginBatch();
    log.appendTrace(id, 10, traceLine(10, 0));
    CHECK(log.appendRefereeEvent(id, "pause", "{}", WallTime{}).durable);
    log.beginBatch();  // nested: the outer end commits
    CHECK(log.appendRefereeEvent(id, "resume", "{}", WallTime{}).durable);
    CHECK(log.endBatch().durable);
    CHECK(log.flushDue(1'000'000).durable);  // the timer does not split a batch
    CHECK(eventsOnDisk() == 1);
    CHECK(linesOnDisk(file, id) == 0);
    CHECK(log.events(id).size() == 1);  // not even this store reads them before the commit
    CHECK(log.endBatch().durable);
    CHECK(eventsOnDisk() == 3);
    CHECK(linesOnDisk(file, id) == 1);
}

TEST_CASE("the caller's timer writes trace lines once the oldest has waited the interval") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    GameStore log(file, GameStore::Access::CreateIfMissing);
    const auto id = newGame(log);
    const auto every = GameStore::kTraceFlushEvery.count();
    CHECK(log.flushDue(0).durable);  // nothing buffered: nothing to do
    log.appendTrace(id, 1000, traceLine(1000, 0));
    log.appendTrace(id, 1000, traceLine(1000, 1));
    log.appendTrace(id, 1500, traceLine(1500, 2));
    CHECK(log.flushDue(1000 + every - 1).durable);
    CHECK(log.traceBuffered() == 3);
    CHECK(log.flushDue(1000 + every).durable);
    CHECK(log.traceBuffered() == 0);
    CHECK(linesOnDisk(file, id) == 3);

    SUBCASE("a line that finds the oldest one an interval older writes them all") {
        log.appendTrace(id, 5000, traceLine(5000, 3));
        log.appendTrace(id, 5000 + every - 1, traceLine(5000 + every - 1, 4));
        CHECK(log.traceBuffered() == 2);
        log.appendTrace(id, 5000 + every, traceLine(5000 + every, 5));
        CHECK(log.traceBuffered() == 0);
        CHECK(linesOnDisk(file, id) == 6);
    }
    SUBCASE("an interval of zero writes each line on its own") {
        log.setTraceFlushEvery(std::chrono::milliseconds(0));
        log.appendTrace(id, 5000, traceLine(5000, 3));
        CHECK(log.traceBuffered() == 0);
        CHECK(linesOnDisk(file, id) == 4);
    }
}

TEST_CASE("closing the store writes the buffered trace lines") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    GameId id;
    {
        GameStore log(file, GameStore::Access::CreateIfMissing);
        id = newGame(log);
        log.appendTrace(id, 10, traceLine(10, 0));
        log.appendTrace(id, 20, traceLine(20, 1));
        log.appendTrace(id, 30, traceLine(30, 2));
        CHECK(linesOnDisk(file, id) == 0);
    }
    CHECK(linesOnDisk(file, id) == 3);
}

TEST_CASE(
    "buffered trace lines meeting a full disk wait in memory and lose nothing; the refused event is not "
    "kept") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    GameStore log(file, GameStore::Access::CreateIfMissing);
    const auto id = newGame(log);
    std::vector<std::string> lines;
    for (int i = 0; i < 200; ++i) {
        lines.push_back(traceLine(i, i) + std::string(200, ' '));
        log.appendTrace(id, i, lines.back());
    }
    log.limitPagesForTesting(1);
    const auto refused = log.appendRefereeEvent(id, "pause", "{}", WallTime{});
    CHECK_FALSE(refused.durable);
    CHECK(log.traceBuffered() == 0);
    CHECK(log.waiting() == 200);         // the lines wait; the event was not kept
    CHECK(log.traceLines(id) == lines);  // still readable, in order
    lines.push_back(traceLine(300, 300));
    CHECK_FALSE(log.appendTrace(id, 300, lines.back()).durable);  // says the disk still refuses
    log.limitPagesForTesting(1'000'000);
    CHECK(log.flush().durable);
    CHECK(log.waiting() == 0);
    GameStore reader(file, GameStore::Access::MustExist);
    CHECK(reader.traceLines(id) == lines);
    CHECK(reader.events(id).back().kind != "pause");
}

namespace {

// Before the event of sequence number L the child appends this many trace
// lines tagged L (the parent recomputes them).
std::int64_t linesBefore(std::int64_t seq) { return seq % 3 + 1; }

[[noreturn]] void writeWithTraceUntilKilled(const std::filesystem::path& file, std::uint64_t seed) {
    try {
        GameStore log(file, GameStore::Access::CreateIfMissing);
        std::int64_t t = 0;
        for (std::uint64_t s = seed;; ++s)
            writeRandomGame(log, randomSpec(s), s, [&](const WriteStatus&, GameId id, std::int64_t lines) {
                // `lines` events are written (setup included): the next has seq `lines`.
                for (std::int64_t i = 0; i < linesBefore(lines); ++i) {
                    t += 7;
                    log.appendTrace(id, t, traceLine(t, lines));
                }
                return true;
            });
    } catch (...) {
        _exit(2);
    }
}

int killRounds() {
    const char* text = std::getenv("VIVAREF_STORE_KILL_ROUNDS");
    return text ? std::max(1, std::atoi(text) / 10) : 20;
}

}  // namespace

TEST_CASE("a writer killed with SIGKILL never leaves an event without the trace lines before it") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    engine::Rng rng(20261122);
    std::int64_t eventsChecked = 0;
    // The log exists before the first writer starts: a writer killed before
    // it could create it (a loaded machine, an emulator) is not a lost log.
    { GameStore created(file, GameStore::Access::CreateIfMissing); }
    for (int round = 0; round < killRounds(); ++round) {
        CAPTURE(round);
        const pid_t child = fork();
        REQUIRE(child >= 0);
        if (child == 0) writeWithTraceUntilKilled(file, 5000 * static_cast<std::uint64_t>(round + 1));
        usleep(2'000 + rng.below(40'000));
        kill(child, SIGKILL);
        int status = 0;
        waitpid(child, &status, 0);
        CHECK_MESSAGE(WIFSIGNALED(status), "the writer stopped by itself, status " << status);

        GameStore log(file, GameStore::Access::MustExist);
        REQUIRE(log.integrityCheck() == "ok");
        for (const auto& summary : log.games()) {
            CAPTURE(summary.id.value);
            const auto events = log.events(summary.id);
            const auto trace = log.traceLines(summary.id);
            std::int64_t lastSeq = 0;  // the child's last event (the parent's abandon left out)
            for (const auto& e : events)
                if (e.kind != "abandon") lastSeq = e.seq;
            // Lines tagged 2..lastSeq were appended before event lastSeq (event 1 has none).
            std::int64_t needed = 0;
            for (std::int64_t seq = 2; seq <= lastSeq; ++seq) needed += linesBefore(seq);
            // The child's finished games: the lines after the last decision, before the end.
            if (summary.ended && !summary.abandoned) needed += linesBefore(lastSeq + 1);
            CHECK(static_cast<std::int64_t>(trace.size()) >= needed);
            eventsChecked += lastSeq;
        }
        // The games cut short are closed so the next round starts new ones.
        for (auto id : log.unfinishedGames()) log.abandonGame(id, WallTime{});
    }
    MESSAGE(killRounds() << " kills, " << eventsChecked << " events checked");
}
