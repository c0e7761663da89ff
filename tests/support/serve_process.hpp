// The real `vivaref serve` as a child of a test (tests/server, tests/crash):
// a ChildProcess, so it is killed and reaped on every way out of the test,
// with the port it listens on read from its stdout.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tests/support/child_process.hpp"

namespace vivaref::testsupport {

class ServeProcess : public ChildProcess {
public:
    // `binary serve ARGS`, stderr appended to `stderrFile`, `environment`
    // (NAME=VALUE) added to the test's.
    ServeProcess(const std::string& binary, const std::vector<std::string>& args,
                 const std::filesystem::path& stderrFile, std::vector<std::string> environment = {});

    // The port of "listening on http://127.0.0.1:PORT/" (or 0.0.0.0:PORT), or 0 when serve
    // does not say so within the timeout.
    std::uint16_t waitForPort(std::chrono::milliseconds timeout);
    // `signal` (SIGTERM, SIGINT), then the wait: the exit status, or nothing
    // (no exit within the timeout, or killed by a signal).
    std::optional<int> stop(int signal, std::chrono::milliseconds timeout);
};

}  // namespace vivaref::testsupport
