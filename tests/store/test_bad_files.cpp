// A log that cannot be used is refused with a sentence naming the file and
// what to do, never a crash and never a silently new database.
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include <doctest/doctest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "daemon/store/game_verifier.hpp"
#include "daemon/store/schema.hpp"
#include "tests/store/random_game_writer.hpp"

using namespace vivaref;
using namespace vivaref::store;
using namespace vivaref::store::testing;

namespace {

// The message opening `file` gives, or "" if it opens.
std::string openError(const std::filesystem::path& file, GameStore::Access access) {
    try {
        GameStore log(file, access);
    } catch (const StoreError& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a missing log is an error for the reading commands, a new log for the daemon") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    const auto error = openError(file, GameStore::Access::MustExist);
    CHECK(contains(error, file.string()));
    CHECK(contains(error, "does not exist"));
    CHECK_FALSE(std::filesystem::exists(file));
    CHECK(openError(file, GameStore::Access::CreateIfMissing).empty());
    CHECK(openError(file, GameStore::Access::MustExist).empty());
}

TEST_CASE("a file that is not a database is refused as damaged") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    {
        std::ofstream out(file, std::ios::binary);
        for (int i = 0; i < 4096; ++i) out << static_cast<char>(i * 31 + 7);
    }
    const auto error = openError(file, GameStore::Access::MustExist);
    CAPTURE(error);
    CHECK(contains(error, file.string()));
    CHECK(contains(error, "damaged"));
    CHECK(contains(error, "backup"));
}

TEST_CASE("a log with damaged pages fails its integrity check or refuses to open") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    {
        GameStore log(file, GameStore::Access::CreateIfMissing);
        for (std::uint64_t seed = 1; seed <= 5; ++seed) writeRandomGame(log, randomSpec(seed), seed);
    }  // closing checkpoints the WAL into the file
    {
        std::fstream io(file, std::ios::in | std::ios::out | std::ios::binary);
        io.seekp(4096 + 100);
        for (int i = 0; i < 3000; ++i) io.put(static_cast<char>(0xA5));
    }
    try {
        GameStore log(file, GameStore::Access::MustExist);
        std::string check;
        try {
            check = log.integrityCheck();
        } catch (const SqliteError& e) {
            check = e.what();
        }
        CHECK(check != "ok");
        // What verify and serve run first: both find it, and say what to do.
        const auto full = log.damage(GameStore::Check::Full);
        const auto quick = log.damage(GameStore::Check::Quick, 3);
        CHECK_FALSE(full.empty());
        CHECK_FALSE(quick.empty());
        CHECK(quick.size() <= 3);
        const auto advice = damagedLogAdvice(file, quick);
        CHECK(contains(advice, file.string() + " is damaged (SQLite's check says: " + quick.front()));
        CHECK(contains(advice, ".recover"));
    } catch (const StoreError& e) {
        CHECK(contains(e.what(), "damaged"));
    }
}

TEST_CASE("a log from a newer vivaref is refused and left untouched") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    { GameStore log(file, GameStore::Access::CreateIfMissing); }
    {
        Database db(file, Database::Mode::ReadWrite);
        db.exec("PRAGMA user_version = " + std::to_string(schemaVersion() + 1));
    }
    const auto error = openError(file, GameStore::Access::MustExist);
    CAPTURE(error);
    CHECK(contains(error, file.string()));
    CHECK(contains(error, "newer vivaref"));
    Database db(file, Database::Mode::ReadWrite);
    CHECK(db.queryInteger("PRAGMA user_version") == schemaVersion() + 1);
}

TEST_CASE("an older log is migrated forward at start-up") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    { Database db(file, Database::Mode::ReadWriteCreate); }  // version 0: empty
    GameStore log(file, GameStore::Access::MustExist);
    CHECK(log.games().empty());
    Database db(file, Database::Mode::ReadWrite);
    CHECK(db.queryInteger("PRAGMA user_version") == schemaVersion());
}

TEST_CASE("an unknown game id is an error naming the log") {
    ScratchDir dir;
    GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
    writeRandomGame(log, randomSpec(1), 1);
    CHECK_FALSE(log.game(GameId{42}));
    CHECK_THROWS_WITH_AS(log.events(GameId{42}), doctest::Contains("no game 42"), StoreError);
    CHECK_THROWS_AS(log.exportRecord(GameId{42}), StoreError);
    CHECK_THROWS_AS(verifyGame(log, GameId{42}), StoreError);
    CHECK_THROWS_AS(log.appendUndo(GameId{42}, WallTime{}), StoreError);
}

TEST_CASE("a directory given as the log is refused") {
    ScratchDir dir;
    const auto error = openError(dir.path(), GameStore::Access::CreateIfMissing);
    CHECK(contains(error, "is a directory"));
}

namespace {

// The errors opening an existing log and making a new one in `sub` once it is
// read-only, separated by a NUL.
std::string readOnlyErrors(const std::filesystem::path& sub) {
    { GameStore log(sub / "games.sqlite", GameStore::Access::CreateIfMissing); }
    std::filesystem::permissions(sub,
                                 std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    auto errors = openError(sub / "games.sqlite", GameStore::Access::MustExist);
    errors += '\0';
    errors += openError(sub / "other.sqlite", GameStore::Access::CreateIfMissing);
    std::filesystem::permissions(sub, std::filesystem::perms::owner_all);
    return errors;
}

// Root writes into read-only directories, so as root the check runs in a
// child process that has become the unprivileged user "nobody".
std::string readOnlyErrorsAsNonRoot(const std::filesystem::path& scratch, const std::filesystem::path& sub) {
    if (geteuid() != 0) return readOnlyErrors(sub);
    // Under qemu-user (CI's arm64 stage) a forked child that changes its
    // user never returns; the amd64 run checks this.
    if (const char* emulated = std::getenv("VIVAREF_UNDER_EMULATOR"); emulated && *emulated == '1') {
        MESSAGE("skipped under an emulator: becoming nobody in a forked child hangs qemu-user");
        return {};
    }
    constexpr uid_t kNobody = 65534;
    std::filesystem::permissions(scratch,
                                 std::filesystem::perms::owner_all | std::filesystem::perms::others_exec);
    REQUIRE(chown(sub.c_str(), kNobody, kNobody) == 0);
    int out[2];
    REQUIRE(pipe(out) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        close(out[0]);
        int status = 3;
        if (setgid(kNobody) == 0 && setuid(kNobody) == 0) {
            const auto errors = readOnlyErrors(sub);
            status =
                write(out[1], errors.data(), errors.size()) == static_cast<ssize_t>(errors.size()) ? 0 : 4;
        }
        _exit(status);
    }
    close(out[1]);
    std::string errors;
    char buffer[512];
    for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;)
        errors.append(buffer, static_cast<std::size_t>(n));
    close(out[0]);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK_MESSAGE(WIFEXITED(status), "the child running as nobody did not exit normally");
    CHECK_MESSAGE(WEXITSTATUS(status) == 0,
                  "the child could not become nobody or report (status " << status << ")");
    return errors;
}

}  // namespace

TEST_CASE("a read-only directory is refused with what to do") {
    ScratchDir dir;
    const auto sub = dir.path() / "state";
    std::filesystem::create_directory(sub);
    const auto errors = readOnlyErrorsAsNonRoot(dir.path(), sub);
    if (errors.empty()) return;  // skipped (see readOnlyErrorsAsNonRoot)
    const auto split = errors.find('\0');
    REQUIRE(split != std::string::npos);
    const auto existing = errors.substr(0, split);
    const auto fresh = errors.substr(split + 1);
    CAPTURE(existing);
    CAPTURE(fresh);
    CHECK(contains(existing, "read-only"));
    CHECK(contains(existing, "--db"));
    CHECK(contains(fresh, "read-only"));
}

namespace {

unsigned modeOf(const std::filesystem::path& file) {
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    return st.st_mode & 0777;
}

}  // namespace

TEST_CASE("the log is its owner's alone, whatever the umask: hands and seeds are in it") {
    ScratchDir dir;
    const auto file = dir.file("games.sqlite");
    const mode_t before = ::umask(022);
    {
        GameStore log(file, GameStore::Access::CreateIfMissing);
        (void)writeRandomGame(log, randomSpec(7), 7);
        CHECK(modeOf(file) == 0600);
        CHECK(modeOf(file.string() + "-wal") == 0600);
        CHECK(modeOf(file.string() + "-shm") == 0600);
    }
    // A log made readable by others (an older vivaref, a copy by hand) is
    // made private again when serve opens it; a reading command leaves it.
    REQUIRE(::chmod(file.c_str(), 0644) == 0);
    { GameStore reader(file, GameStore::Access::MustExist); }
    CHECK(modeOf(file) == 0644);
    { GameStore log(file, GameStore::Access::CreateIfMissing); }
    CHECK(modeOf(file) == 0600);
    ::umask(before);
}
