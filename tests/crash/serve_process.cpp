#include "tests/crash/serve_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include <stdexcept>

#include <sys/syscall.h>
#include <sys/wait.h>

extern char** environ;

namespace vivaref::crashtest {

using Clock = std::chrono::steady_clock;

namespace {

std::vector<char*> argvOf(std::vector<std::string>& words) {
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    return argv;
}

int remainingMs(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left > 0 ? static_cast<int>(left) : 0;
}

}  // namespace

ServeProcess::ServeProcess(const std::string& binary, const std::vector<std::string>& args,
                           const std::filesystem::path& stderrFile) {
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
    stdout_ = out[0];
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderrFile.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0644);
    std::vector<std::string> words = {binary, "serve"};
    words.insert(words.end(), args.begin(), args.end());
    auto argv = argvOf(words);
    const int spawned = ::posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    if (spawned != 0) throw std::runtime_error("cannot start " + binary);
    pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
    if (pidfd_ < 0) throw std::runtime_error("pidfd_open failed");
}

ServeProcess::~ServeProcess() {
    if (!reaped_) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
    ::close(stdout_);
    ::close(pidfd_);
}

std::uint16_t ServeProcess::waitForPort(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    constexpr std::string_view kListening = "listening on http://127.0.0.1:";
    for (;;) {
        if (auto at = output_.find(kListening); at != std::string::npos) {
            const auto digits = at + kListening.size();
            if (const auto end = output_.find('/', digits); end != std::string::npos)
                return static_cast<std::uint16_t>(std::stoi(output_.substr(digits, end - digits)));
        }
        pollfd p{stdout_, POLLIN, 0};
        if (::poll(&p, 1, remainingMs(deadline)) <= 0) return 0;
        char chunk[512];
        const ssize_t n = ::read(stdout_, chunk, sizeof chunk);
        if (n <= 0) return 0;
        output_.append(chunk, static_cast<std::size_t>(n));
    }
}

std::optional<int> ServeProcess::waitExit(std::chrono::milliseconds timeout, bool& signalled) {
    signalled = false;
    pollfd p{pidfd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return std::nullopt;
    int status = 0;
    if (::waitpid(pid_, &status, 0) != pid_) return std::nullopt;
    reaped_ = true;
    signalled = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    if (!WIFEXITED(status)) return std::nullopt;
    return WEXITSTATUS(status);
}

bool ServeProcess::killNow() {
    ::kill(pid_, SIGKILL);
    bool signalled = false;
    (void)waitExit(std::chrono::milliseconds(10'000), signalled);
    return signalled;
}

std::optional<int> ServeProcess::stop(std::chrono::milliseconds timeout) {
    ::kill(pid_, SIGTERM);
    bool signalled = false;
    return waitExit(timeout, signalled);
}

CommandResult runCommand(const std::string& binary, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout, const std::string& stdinText) {
    int out[2], in[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    std::vector<std::string> words = {binary};
    words.insert(words.end(), args.begin(), args.end());
    auto argv = argvOf(words);
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    ::close(in[0]);
    if (spawned != 0) throw std::runtime_error("cannot start " + binary);
    // Small inputs only (a game record): the pipe's buffer holds them.
    if (!stdinText.empty() && ::write(in[1], stdinText.data(), stdinText.size()) < 0)
        throw std::runtime_error("cannot write to " + binary);
    ::close(in[1]);
    CommandResult result;
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        pollfd p{out[0], POLLIN, 0};
        if (::poll(&p, 1, remainingMs(deadline)) <= 0) break;
        char chunk[4096];
        const ssize_t n = ::read(out[0], chunk, sizeof chunk);
        if (n <= 0) break;
        result.out.append(chunk, static_cast<std::size_t>(n));
    }
    ::close(out[0]);
    if (Clock::now() >= deadline) ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

}  // namespace vivaref::crashtest
