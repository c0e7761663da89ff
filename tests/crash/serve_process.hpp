// The real `vivaref serve` as a child process for the crash test: started
// with its stdout on a pipe (to read the port it listens on) and its stderr
// in a file, then killed with SIGKILL or stopped with SIGTERM. Every wait is
// bounded (poll() on the pipe and on a pidfd).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace vivaref::crashtest {

class ServeProcess {
public:
    ServeProcess(const std::string& binary, const std::vector<std::string>& args,
                 const std::filesystem::path& stderrFile);
    ~ServeProcess();  // SIGKILL if still running
    ServeProcess(const ServeProcess&) = delete;
    ServeProcess& operator=(const ServeProcess&) = delete;

    // The port of "listening on http://127.0.0.1:PORT/", or 0 when serve
    // does not say it within the deadline.
    std::uint16_t waitForPort(std::chrono::milliseconds timeout);
    // SIGKILL, then the wait: true when it died of it.
    bool killNow();
    // SIGTERM; the exit status, or nullopt (no exit within the deadline, or a signal).
    std::optional<int> stop(std::chrono::milliseconds timeout);

private:
    std::optional<int> waitExit(std::chrono::milliseconds timeout, bool& signalled);

    int pid_ = -1;
    int pidfd_ = -1;
    int stdout_ = -1;
    bool reaped_ = false;
    std::string output_;
};

// Runs `binary ARGS` to its end (at most `timeout`); its exit status (-1 on
// a signal or a timeout) and its standard output.
struct CommandResult {
    int status = -1;
    std::string out;
};
CommandResult runCommand(const std::string& binary, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout, const std::string& stdinText = {});

}  // namespace vivaref::crashtest
