// `vivaref serve` itself, as systemd runs it: started on the simulated
// castle with a fake notify socket, asked over HTTP, stopped by SIGTERM
// (exit status 0, the game saved and resumed by the next start). Every wait
// is bounded: poll() on the process's output, its pidfd and the socket.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "fake_systemd.hpp"
#include "test_client.hpp"

extern char** environ;

using namespace vivaref::server::testing;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

class TempDirectory {
public:
    TempDirectory() {
        std::string pattern = (std::filesystem::temp_directory_path() / "vivaref-serve-XXXXXX").string();
        path_ = ::mkdtemp(pattern.data());
    }
    ~TempDirectory() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    std::filesystem::path operator/(const char* name) const { return path_ / name; }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// `vivaref serve ARGS` with its stdout on a pipe and its stderr in a file.
class ServeProcess {
public:
    ServeProcess(std::vector<std::string> args, const std::filesystem::path& stderrFile,
                 std::vector<std::string> extraEnvironment = {}) {
        int out[2];
        REQUIRE(::pipe2(out, O_CLOEXEC) == 0);
        stdout_ = out[0];
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderrFile.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
        std::vector<std::string> words = {VIVAREF_BINARY, "serve"};
        words.insert(words.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& w : words) argv.push_back(w.data());
        argv.push_back(nullptr);
        std::vector<std::string> env;
        for (char** e = environ; *e; ++e) {
            const std::string entry = *e;
            if (entry.starts_with("NOTIFY_SOCKET=") || entry.starts_with("WATCHDOG_")) continue;
            env.push_back(entry);
        }
        env.insert(env.end(), extraEnvironment.begin(), extraEnvironment.end());
        std::vector<char*> envp;
        for (auto& e : env) envp.push_back(e.data());
        envp.push_back(nullptr);
        const int spawned = ::posix_spawn(&pid_, VIVAREF_BINARY, &actions, nullptr, argv.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        ::close(out[1]);
        REQUIRE(spawned == 0);
        pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
        REQUIRE(pidfd_ >= 0);
    }
    ~ServeProcess() {
        if (pid_ > 0 && !status_) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        ::close(stdout_);
        if (pidfd_ >= 0) ::close(pidfd_);
    }

    // The port from "listening on http://127.0.0.1:PORT/", or 0 when serve
    // says nothing of the kind within the deadline.
    std::uint16_t waitForPort(std::chrono::milliseconds timeout) {
        const auto deadline = Clock::now() + timeout;
        constexpr std::string_view kListening = "listening on http://127.0.0.1:";
        for (;;) {
            if (auto at = output_.find(kListening); at != std::string::npos) {
                const auto digits = at + kListening.size();
                const auto end = output_.find('/', digits);
                if (end != std::string::npos)
                    return static_cast<std::uint16_t>(std::stoi(output_.substr(digits, end - digits)));
            }
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) return 0;
            pollfd p{stdout_, POLLIN, 0};
            if (::poll(&p, 1, static_cast<int>(left)) <= 0) return 0;
            char chunk[1024];
            const ssize_t n = ::read(stdout_, chunk, sizeof chunk);
            if (n <= 0) return 0;
            output_.append(chunk, static_cast<std::size_t>(n));
        }
    }

    // Sends `signal` and waits for the exit; its exit status, or nullopt
    // (killed, or still running at the deadline).
    std::optional<int> stop(int signal, std::chrono::milliseconds timeout) {
        ::kill(pid_, signal);
        return waitExit(timeout);
    }
    std::optional<int> waitExit(std::chrono::milliseconds timeout) {
        pollfd p{pidfd_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return std::nullopt;
        int status = 0;
        if (::waitpid(pid_, &status, 0) != pid_) return std::nullopt;
        status_ = status;
        if (!WIFEXITED(status)) return std::nullopt;
        return WEXITSTATUS(status);
    }

private:
    pid_t pid_ = -1;
    int pidfd_ = -1;
    int stdout_ = -1;
    std::string output_;
    std::optional<int> status_;
};

std::string readFile(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The next notification that is not a watchdog pet.
std::optional<std::string> nextState(FakeSystemd& systemd) {
    for (;;) {
        auto message = systemd.receive(10000ms);
        if (!message || *message != "WATCHDOG=1") return message;
    }
}

}  // namespace

TEST_CASE(
    "serve: READY=1 once listening, watchdog pets, answers, SIGTERM saves and exits 0, restart resumes") {
    TempDirectory dir;
    FakeSystemd systemd;
    REQUIRE(systemd.ok());
    const std::vector<std::string> args = {
        "--hardware=sim", "--listen", "127.0.0.1:0", "--db", (dir / "games.sqlite").string(), "--seed", "7"};
    const std::vector<std::string> env = {"NOTIFY_SOCKET=" + systemd.path(), "WATCHDOG_USEC=200000"};
    {
        ServeProcess serve(args, dir / "stderr-1", env);
        const auto port = serve.waitForPort(30000ms);
        CAPTURE(readFile(dir / "stderr-1"));
        REQUIRE(port != 0);

        auto ready = nextState(systemd);
        REQUIRE(ready);
        CHECK(ready->starts_with("READY=1\nSTATUS=listening on http://127.0.0.1:"));
        bool petted = false;
        for (int i = 0; i < 5 && !petted; ++i) {
            auto message = systemd.receive(10000ms);
            REQUIRE(message);
            petted = *message == "WATCHDOG=1";
        }
        CHECK(petted);

        auto status = get(port, "/api/status");
        REQUIRE(status);
        CHECK(status->status == 200);
        CHECK(status->json()["state"] == "no-game");
        auto info = get(port, "/api/info");
        REQUIRE(info);
        CHECK(info->json()["simulated"] == true);

        auto started =
            post(port, "/api/host/new-game",
                 R"({"setup": {"edition": "classic", "seats": 3}, "players": ["Ann", "Bob", "Cy"]})");
        REQUIRE(started);
        CHECK(started->status == 200);
        auto gameStatus = nextState(systemd);
        REQUIRE(gameStatus);
        CHECK(*gameStatus == "STATUS=game 1");

        CHECK(serve.stop(SIGTERM, 20000ms) == 0);
        auto stopping = nextState(systemd);
        REQUIRE(stopping);
        CHECK(*stopping == "STOPPING=1");
        CHECK(readFile(dir / "stderr-1").find("stopped (SIGTERM)") != std::string::npos);
    }
    {
        ServeProcess serve(args, dir / "stderr-2", env);
        const auto port = serve.waitForPort(30000ms);
        CAPTURE(readFile(dir / "stderr-2"));
        REQUIRE(port != 0);
        CHECK(readFile(dir / "stderr-2").find("resumed game 1") != std::string::npos);
        auto status = get(port, "/api/status");
        REQUIRE(status);
        CHECK(status->json()["game"] == 1);
        auto games = get(port, "/api/games");
        REQUIRE(games);
        CHECK(games->json()[0]["status"] == "in-progress");
        CHECK(serve.stop(SIGINT, 20000ms) == 0);
    }
}

TEST_CASE("serve with a configuration: the host token guards the host's routes") {
    TempDirectory dir;
    std::ofstream(dir / "castle.ini") << "[castle]\nedition = classic\n\n[daemon]\nhardware = sim\n"
                                         "host_token = serve-test-token\nstate_dir = "
                                      << dir.path().string() << "\n";
    ServeProcess serve({"--config", (dir / "castle.ini").string(), "--listen", "127.0.0.1:0"},
                       dir / "stderr");
    const auto port = serve.waitForPort(30000ms);
    CAPTURE(readFile(dir / "stderr"));
    REQUIRE(port != 0);
    auto refused = post(port, "/api/host/pause", "{}");
    REQUIRE(refused);
    CHECK(refused->status == 401);
    auto allowed = post(port, "/api/host/new-game", R"({"setup": {"edition": "classic", "seats": 4}})",
                        "Content-Type: application/json\r\nAuthorization: Bearer serve-test-token\r\n");
    REQUIRE(allowed);
    CHECK(allowed->status == 200);
    CHECK(serve.stop(SIGTERM, 20000ms) == 0);
    // The game log went where the configuration said.
    CHECK(std::filesystem::exists(dir / "games.sqlite"));
}

TEST_CASE("serve refuses to start on a bad configuration, a bad address or a taken port") {
    TempDirectory dir;
    std::ofstream(dir / "bad.ini") << "[castle]\nedition = chess\n";
    {
        ServeProcess serve({"--config", (dir / "bad.ini").string()}, dir / "stderr-config");
        CHECK(serve.waitExit(30000ms) == 1);
        const auto text = readFile(dir / "stderr-config");
        CHECK(text.find("bad.ini:2") != std::string::npos);
        CHECK(text.find("not starting") != std::string::npos);
    }
    {
        ServeProcess serve({"--listen", "localhost:80x"}, dir / "stderr-listen");
        CHECK(serve.waitExit(30000ms) == 2);
        CHECK(readFile(dir / "stderr-listen").find("listen address") != std::string::npos);
    }
    {
        ServeProcess first({"--listen", "127.0.0.1:0", "--db", (dir / "a.sqlite").string()},
                           dir / "stderr-a");
        const auto port = first.waitForPort(30000ms);
        REQUIRE(port != 0);
        ServeProcess second(
            {"--listen", "127.0.0.1:" + std::to_string(port), "--db", (dir / "b.sqlite").string()},
            dir / "stderr-b");
        CHECK(second.waitExit(30000ms) == 2);
        CHECK(readFile(dir / "stderr-b").find("cannot bind") != std::string::npos);
        CHECK(first.stop(SIGTERM, 20000ms) == 0);
    }
}
