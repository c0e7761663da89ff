#include "tests/support/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

extern char** environ;

namespace vivaref::testsupport {

using Clock = std::chrono::steady_clock;

namespace {

// Linux's default pipe capacity: the input is written before the child
// starts, so it must fit.
constexpr std::size_t kMaxInput = 64 * 1024;

std::vector<char*> pointersTo(std::vector<std::string>& words) {
    std::vector<char*> out;
    for (auto& w : words) out.push_back(w.data());
    out.push_back(nullptr);
    return out;
}

std::vector<std::string> childEnvironment(const std::vector<std::string>& extra) {
    std::vector<std::string> env;
    // A variable given in `extra` replaces the inherited one (getenv reads the first).
    auto replaced = [&](std::string_view entry) {
        for (const auto& e : extra) {
            const auto name = std::string_view(e).substr(0, e.find('=') + 1);
            if (!name.empty() && name.back() == '=' && entry.starts_with(name)) return true;
        }
        return false;
    };
    for (char** e = environ; *e; ++e) {
        const std::string_view entry = *e;
        if (entry.starts_with("NOTIFY_SOCKET=") || entry.starts_with("WATCHDOG_") || replaced(entry))
            continue;
        env.emplace_back(entry);
    }
    env.insert(env.end(), extra.begin(), extra.end());
    return env;
}

int remainingMs(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left > 0 ? static_cast<int>(left) : 0;
}

void closeAll(std::initializer_list<int> fds) {
    for (int fd : fds)
        if (fd >= 0) ::close(fd);
}

// Closes `fds` and throws, naming what failed and errno's reason.
[[noreturn]] void failStart(const std::string& what, std::initializer_list<int> fds = {}) {
    const int saved = errno;
    closeAll(fds);
    throw std::runtime_error(what + ": " + std::strerror(saved));
}

}  // namespace

ChildProcess::ChildProcess(std::vector<std::string> argv, Options options) {
    if (argv.empty()) throw std::runtime_error("ChildProcess: no program");
    if (options.input.size() > kMaxInput) throw std::runtime_error("ChildProcess: input over 64 KiB");
    // Everything that can fail or allocate happens before fork(): the child
    // of a process with threads may only make system calls until execve.
    auto args = pointersTo(argv);
    auto env = childEnvironment(options.environment);
    auto envp = pointersTo(env);
    int out[2] = {-1, -1}, in[2] = {-1, -1};
    if (::pipe2(out, O_CLOEXEC) != 0) failStart("pipe2");
    if (::pipe2(in, O_CLOEXEC) != 0) failStart("pipe2", {out[0], out[1]});
    // Written before the child exists: no SIGPIPE if it ends without reading.
    if (!options.input.empty() && ::write(in[1], options.input.data(), options.input.size()) !=
                                      static_cast<ssize_t>(options.input.size()))
        failStart("writing the child's input", {out[0], out[1], in[0], in[1]});
    ::close(in[1]);
    int err = -1;
    if (!options.stderrFile.empty()) {
        err = ::open(options.stderrFile.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (err < 0) failStart("cannot open " + options.stderrFile.string(), {out[0], out[1], in[0]});
    }
    const pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ == 0) {
        // Killed with the thread that forked it, whatever way that ends. If
        // the parent died before this line, the signal will never come: leave.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);
        sigset_t none;
        ::sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        if (::dup2(in[0], STDIN_FILENO) < 0 || ::dup2(out[1], STDOUT_FILENO) < 0 ||
            (err >= 0 && ::dup2(err, STDERR_FILENO) < 0))
            ::_exit(127);
        ::execve(args[0], args.data(), envp.data());
        ::_exit(127);
    }
    closeAll({out[1], in[0], err});
    stdout_ = out[0];
    if (pid_ < 0) failStart("fork", {stdout_});
    pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
    if (pidfd_ < 0) {
        const int saved = errno;
        killAndReap();
        errno = saved;
        failStart("pidfd_open", {stdout_});
    }
}

ChildProcess::~ChildProcess() {
    killAndReap();
    closeAll({stdout_, pidfd_});
}

void ChildProcess::killAndReap() {
    if (pid_ <= 0 || waitStatus_) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    waitStatus_ = status;
}

bool ChildProcess::readOutput(Clock::time_point deadline) {
    pollfd p{stdout_, POLLIN, 0};
    if (::poll(&p, 1, remainingMs(deadline)) <= 0) return false;
    char chunk[4096];
    const ssize_t n = ::read(stdout_, chunk, sizeof chunk);
    if (n <= 0) return false;
    output_.append(chunk, static_cast<std::size_t>(n));
    return true;
}

void ChildProcess::signal(int signal) {
    // Once reaped, the pid may be another process's.
    if (!waitStatus_) ::kill(pid_, signal);
}

std::optional<int> ChildProcess::waitExit(std::chrono::milliseconds timeout) {
    if (!waitStatus_) {
        pollfd p{pidfd_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return std::nullopt;
        int status = 0;
        if (::waitpid(pid_, &status, 0) != pid_) return std::nullopt;
        waitStatus_ = status;
    }
    if (!WIFEXITED(*waitStatus_)) return std::nullopt;
    return WEXITSTATUS(*waitStatus_);
}

bool ChildProcess::killNow() {
    signal(SIGKILL);
    (void)waitExit(std::chrono::milliseconds(10'000));
    return waitStatus_ && WIFSIGNALED(*waitStatus_) && WTERMSIG(*waitStatus_) == SIGKILL;
}

CommandResult runCommand(const std::string& binary, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout, CommandOptions options) {
    std::vector<std::string> argv = {binary};
    argv.insert(argv.end(), args.begin(), args.end());
    // The stderr file may hold earlier runs' lines: only what this one appends.
    std::error_code missing;
    std::uintmax_t errBefore =
        options.stderrFile.empty() ? 0 : std::filesystem::file_size(options.stderrFile, missing);
    if (missing) errBefore = 0;
    const auto start = Clock::now();
    CommandResult result;
    {
        ChildProcess child(std::move(argv),
                           {options.stderrFile, std::move(options.environment), std::move(options.input)});
        const auto deadline = start + timeout;
        while (child.readOutput(deadline)) {
        }
        // Stdout closed: it is ending. At the deadline the destructor kills it.
        result.status = child.waitExit(std::chrono::milliseconds(remainingMs(deadline))).value_or(-1);
        result.out = child.output();
    }
    result.took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    if (!options.stderrFile.empty()) {
        std::ifstream in(options.stderrFile, std::ios::binary);
        in.seekg(static_cast<std::streamoff>(errBefore));
        std::ostringstream text;
        text << in.rdbuf();
        result.err = text.str();
    }
    return result;
}

}  // namespace vivaref::testsupport
