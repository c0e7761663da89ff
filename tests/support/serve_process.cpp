#include "tests/support/serve_process.hpp"

#include <string_view>

namespace vivaref::testsupport {

namespace {

std::vector<std::string> serveArgv(const std::string& binary, const std::vector<std::string>& args) {
    std::vector<std::string> argv = {binary, "serve"};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

ChildProcess::Options serveOptions(const std::filesystem::path& stderrFile,
                                   std::vector<std::string> environment) {
    ChildProcess::Options options;
    options.stderrFile = stderrFile;
    options.environment = std::move(environment);
    return options;
}

}  // namespace

ServeProcess::ServeProcess(const std::string& binary, const std::vector<std::string>& args,
                           const std::filesystem::path& stderrFile, std::vector<std::string> environment)
    : ChildProcess(serveArgv(binary, args), serveOptions(stderrFile, std::move(environment))) {}

std::uint16_t ServeProcess::waitForPort(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    // On 127.0.0.1, or on every interface (0.0.0.0): reached on 127.0.0.1 either way.
    for (;;) {
        const std::string& out = output();
        for (const std::string_view listening :
             {"listening on http://127.0.0.1:", "listening on http://0.0.0.0:"}) {
            if (auto at = out.find(listening); at != std::string::npos) {
                const auto digits = at + listening.size();
                if (const auto end = out.find('/', digits); end != std::string::npos)
                    return static_cast<std::uint16_t>(std::stoi(out.substr(digits, end - digits)));
            }
        }
        if (!readOutput(deadline)) return 0;
    }
}

std::optional<int> ServeProcess::stop(int signal, std::chrono::milliseconds timeout) {
    this->signal(signal);
    return waitExit(timeout);
}

}  // namespace vivaref::testsupport
