// ChildProcess's promise: a program a test starts never outlives the test,
// whichever way the test ends. /bin/sleep stands in for `vivaref serve`.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>

#include <doctest/doctest.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "tests/support/child_process.hpp"

using namespace std::chrono_literals;
using vivaref::testsupport::ChildProcess;

namespace {

// True when process `pid` (any process, not only a child of ours) has ended
// within the timeout; a pidfd is readable once it has.
bool endsWithin(pid_t pid, std::chrono::milliseconds timeout) {
    const int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    if (fd < 0) return errno == ESRCH;  // gone already
    pollfd p{fd, POLLIN, 0};
    const bool ended = ::poll(&p, 1, static_cast<int>(timeout.count())) == 1;
    ::close(fd);
    return ended;
}

ChildProcess sleeper() { return ChildProcess({"/bin/sleep", "600"}, {}); }

}  // namespace

TEST_CASE("a child still running when the test leaves its scope is killed and reaped") {
    pid_t pid = -1;
    {
        ChildProcess child({"/bin/sleep", "600"}, {});
        pid = child.pid();
        CHECK(!child.waitExit(50ms));  // still running
    }
    // Reaped: no zombie left, the pid is no longer ours to wait for.
    CHECK(::waitpid(pid, nullptr, WNOHANG) == -1);
    CHECK(errno == ECHILD);
}

TEST_CASE("an exception (a failed REQUIRE) unwinds through the child and kills it") {
    pid_t pid = -1;
    CHECK_THROWS_AS(
        [&] {
            ChildProcess child({"/bin/sleep", "600"}, {});
            pid = child.pid();
            throw std::runtime_error("the test failed");
        }(),
        std::runtime_error);
    CHECK(::waitpid(pid, nullptr, WNOHANG) == -1);
}

TEST_CASE("a test killed with SIGKILL takes its children with it (PR_SET_PDEATHSIG)") {
    int report[2];
    REQUIRE(::pipe(report) == 0);
    // The "test": starts a child, says its pid, and waits to be killed.
    const pid_t test = ::fork();
    REQUIRE(test >= 0);
    if (test == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // not left behind if this case fails
        ::close(report[0]);
        try {
            ChildProcess child({"/bin/sleep", "600"}, {});
            const pid_t pid = child.pid();
            if (::write(report[1], &pid, sizeof pid) != sizeof pid) ::_exit(1);
            for (;;) ::pause();
        } catch (...) {
            ::_exit(1);
        }
    }
    ::close(report[1]);
    pid_t grandchild = -1;
    pollfd p{report[0], POLLIN, 0};
    REQUIRE(::poll(&p, 1, 30'000) == 1);
    REQUIRE(::read(report[0], &grandchild, sizeof grandchild) == sizeof grandchild);
    ::close(report[0]);
    CHECK(!endsWithin(grandchild, 50ms));
    ::kill(test, SIGKILL);
    ::waitpid(test, nullptr, 0);
    CHECK(endsWithin(grandchild, 10'000ms));
}

TEST_CASE("runCommand: output and exit status; a command over its time is killed") {
    const auto echoed = vivaref::testsupport::runCommand("/bin/sh", {"-c", "cat; exit 3"}, 10s, "hello\n");
    CHECK(echoed.status == 3);
    CHECK(echoed.out == "hello\n");
    const auto started = std::chrono::steady_clock::now();
    const auto slow = vivaref::testsupport::runCommand("/bin/sleep", {"600"}, 200ms);
    CHECK(slow.status == -1);
    CHECK(std::chrono::steady_clock::now() - started < 10s);
}

TEST_CASE("killNow: SIGKILL and reaped; a program that cannot start ends with 127") {
    auto child = sleeper();
    CHECK(child.killNow());
    CHECK(child.reaped());
    ChildProcess missing({"/nonexistent/vivaref"}, {});
    CHECK(missing.waitExit(10s) == 127);
}
