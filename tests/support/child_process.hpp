// A program the tests start (`vivaref serve`, `vivaref verify`...), which
// never outlives the test: the destructor kills it with SIGKILL and reaps it
// (a failed REQUIRE, an exception, a timeout all unwind through it), and the
// child asks the kernel for SIGKILL when the thread that started it dies
// (PR_SET_PDEATHSIG), which covers the test itself being killed, by ctest's
// timeout or by hand. So start children from the thread that lives as long
// as they should (the test's main thread). Every wait is bounded.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace vivaref::testsupport {

class ChildProcess {
public:
    struct Options {
        // stderr appended to this file; empty: the test's own stderr.
        std::filesystem::path stderrFile;
        // NAME=VALUE added to the test's environment (replacing the test's
        // own NAME). NOTIFY_SOCKET and
        // WATCHDOG_* are never passed on: a child must not talk to the
        // systemd that may be running the tests.
        std::vector<std::string> environment;
        // Input written to the child's stdin, then closed; without it stdin
        // is an empty pipe. Small inputs only (the pipe's buffer holds them).
        std::string input;
    };

    // Starts `argv[0]` (a path) with `argv`; stdout on a pipe read by
    // readOutput(). Throws std::runtime_error when it cannot start, after
    // killing and reaping whatever it started.
    ChildProcess(std::vector<std::string> argv, Options options);
    ~ChildProcess();  // SIGKILL and reap, if it still runs or was not reaped
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const { return pid_; }
    // What it wrote to stdout so far.
    const std::string& output() const { return output_; }
    // Reads what stdout has until the deadline; false once stdout is closed
    // (the child ended or closed it) or the deadline passed.
    bool readOutput(std::chrono::steady_clock::time_point deadline);

    // Sends `signal` (unless it was reaped already).
    void signal(int signal);
    // Waits for the end and reaps it: the exit status, or nothing (killed by
    // a signal, or still running at the deadline).
    std::optional<int> waitExit(std::chrono::milliseconds timeout);
    // SIGKILL and the wait: true when it died of SIGKILL (false when it had
    // ended otherwise, or did not end in 10 s).
    bool killNow();
    // True once reaped; then the raw wait status.
    bool reaped() const { return waitStatus_.has_value(); }
    std::optional<int> waitStatus() const { return waitStatus_; }

private:
    void killAndReap();

    pid_t pid_ = -1;
    int pidfd_ = -1;
    int stdout_ = -1;
    std::string output_;
    std::optional<int> waitStatus_;
};

// Runs `binary ARGS` to its end, for at most `timeout` (then SIGKILL); its
// exit status (-1 after a signal or the timeout), its standard output, what
// it wrote to `stderrFile` (when one is given) and how long it took.
struct CommandResult {
    int status = -1;
    std::string out;
    std::string err;
    std::chrono::milliseconds took{};
};
struct CommandOptions {
    std::string input;                     // written to stdin (small inputs only)
    std::vector<std::string> environment;  // NAME=VALUE added to the test's (replacing its NAME)
    std::filesystem::path stderrFile;      // empty: the test's own stderr
};
CommandResult runCommand(const std::string& binary, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout, CommandOptions options);
inline CommandResult runCommand(const std::string& binary, const std::vector<std::string>& args,
                                std::chrono::milliseconds timeout, const std::string& stdinText = {}) {
    return runCommand(binary, args, timeout, CommandOptions{stdinText, {}, {}});
}

}  // namespace vivaref::testsupport
