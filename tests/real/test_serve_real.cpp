// The real binary: `vivaref serve --hardware=real` on this machine, which has
// no SPI device, must stop at once with a message naming the device and the
// configuration's line; a configuration with problems stops it as
// check-config would.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include <sys/wait.h>

#include "tests/simulation/sim_helpers.hpp"

namespace vivaref::realtest {
namespace {

struct Run {
    int status = -1;
    std::string err;
};

Run serve(const std::string& args, const simtest::TempDir& dir) {
    const auto errFile = dir / "stderr.txt";
    const std::string command = std::string(VIVAREF_BINARY) + " serve " + args + " --db '" +
                                (dir / "games.sqlite").string() +
                                "' --listen 127.0.0.1:0 </dev/null >/dev/null 2>'" + errFile.string() + "'";
    // Started without a timeout: every case here ends before the loop would start.
    const int raw = std::system(command.c_str());
    Run run;
    run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    std::ifstream in(errFile);
    std::ostringstream text;
    text << in.rdbuf();
    run.err = text.str();
    return run;
}

int lineOf(const std::filesystem::path& file, const std::string& text) {
    std::ifstream in(file);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (line.starts_with(text)) return n;
    return 0;
}

TEST_CASE(
    "serve --hardware=real: a missing SPI device stops it (exit 2), naming the device and the file line") {
    if (std::filesystem::exists("/dev/spidev0.0")) {
        MESSAGE("this machine has /dev/spidev0.0: nothing to test");
        return;
    }
    simtest::TempDir dir;
    const std::filesystem::path config =
        std::filesystem::path(VIVAREF_SOURCE_DIR) / "daemon/config/examples/castle-2024.ini";
    const Run run = serve("--hardware=real --config '" + config.string() + "'", dir);
    CAPTURE(run.err);
    CHECK(run.status == 2);
    const int line = lineOf(config, "[reader.floor0-a]");
    REQUIRE(line > 0);
    CHECK(run.err.find(config.string() + ":" + std::to_string(line) + ": reader floor0-a: ") !=
          std::string::npos);
    CHECK(run.err.find("/dev/spidev0.0") != std::string::npos);
}

TEST_CASE("serve --hardware=real: a configuration with problems stops it as check-config says (exit 1)") {
    simtest::TempDir dir;
    const auto config = dir / "bad.ini";
    std::ofstream(config) << "[castle]\nedition = classic\n[reader.floor0]\nplace = 0\nbus = /dev/spidev0.0\n"
                             "colour = blue\n";
    const Run run = serve("--hardware=real --config '" + config.string() + "'", dir);
    CAPTURE(run.err);
    CHECK(run.status == 1);
    CHECK(run.err.find(config.string() + ":6: ") != std::string::npos);
}

TEST_CASE("serve --hardware=real without a configuration is a usage error (exit 2)") {
    simtest::TempDir dir;
    const Run run = serve("--hardware=real", dir);
    CHECK(run.status == 2);
    CHECK(run.err.find("--config") != std::string::npos);
}

}  // namespace
}  // namespace vivaref::realtest
