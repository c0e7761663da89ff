// `vivaref_scratch_postgres`: a scratch PostgreSQL server (ScratchPostgres)
// for the tests that are not C++ (the browser and two-table tests in Node.js).
// It prints one JSON line, {"dir", "socket_dir", "port", "super_user",
// "super_password", "super_conninfo"}, then reads commands, one a line, and
// answers each with "ok" or "failed": `stop fast`, `stop immediate`,
// `start`. At the end of its input, or on SIGTERM/SIGINT, it stops the
// server and removes the directory. Exit 77 (and why, on stderr) where no
// server can be started here, as the tests skip.
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/scratch_postgres.hpp"

namespace {

volatile std::sig_atomic_t gStop = 0;
void onSignal(int) { gStop = 1; }

}  // namespace

int main() {
    std::string whyNot;
    auto pg = vivaref::testsupport::ScratchPostgres::start(whyNot);
    if (!pg) {
        std::fprintf(stderr, "no scratch PostgreSQL: %s\n", whyNot.c_str());
        return 77;
    }
    // Signals only end the command loop (no SA_RESTART: the read is
    // interrupted), so the destructor still stops the server.
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    const nlohmann::json hello = {{"dir", pg->directory().string()},
                                  {"socket_dir", pg->directory().string()},
                                  {"port", 5432},
                                  {"super_user", "postgres"},
                                  {"super_password", vivaref::testsupport::ScratchPostgres::superPassword()},
                                  {"super_conninfo", pg->superConninfo("postgres")}};
    std::cout << hello.dump() << std::endl;
    std::string line;
    while (!gStop && std::getline(std::cin, line)) {
        bool ok = false;
        if (line == "stop fast" || line == "stop immediate")
            ok = pg->stop(line.substr(5));
        else if (line == "start")
            ok = pg->startAgain();
        std::cout << (ok ? "ok" : "failed") << std::endl;
    }
    return 0;
}
