// The configuration in force (config_in_force.hpp): castle.ini in the state
// directory replaces the given file while it is valid; saving checks the
// text to be written as check-config does, keeps the previous file as
// castle.ini.bak, and on any failure (problems, a value the file cannot
// hold, a disk that refuses the write) leaves the previous one in force.
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <doctest/doctest.h>
#include <sys/resource.h>

#include "daemon/config/config_in_force.hpp"
#include "daemon/config/config_writer.hpp"
#include "tests/config/castle_difference.hpp"

namespace vivaref::config {
namespace {

struct SaveDir {
    std::filesystem::path path;
    SaveDir() {
        path = std::filesystem::temp_directory_path() / ("vivaref-in-force-" + std::to_string(::getpid()) +
                                                         "-" + std::to_string(std::random_device{}()));
        std::filesystem::create_directories(path / "state");
    }
    ~SaveDir() {
        std::error_code ec;
        std::filesystem::permissions(path / "state", std::filesystem::perms::owner_all, ec);
        std::filesystem::remove_all(path, ec);
    }
    std::filesystem::path given() const { return path / "vivaref.ini"; }
    std::filesystem::path saved() const { return path / "state" / "castle.ini"; }
    // F: the simulated standard castle, its state here, a voice section to carry.
    void writeGiven() const {
        write(given(),
              "[castle]\nedition = 2024\n\n[daemon]\nhardware = sim\nhttp_address = 127.0.0.1\n"
              "# the table's own port\nhttp_port = 8123\nstate_dir = " +
                  (path / "state").string() + "\n\n[voice]\nenabled = true\nvolume = 35\n");
    }
    static void write(const std::filesystem::path& file, const std::string& text) {
        std::ofstream(file, std::ios::trunc) << text;
    }
    static std::string read(const std::filesystem::path& file) {
        std::ifstream in(file);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }
};

// A castle of mfrc522 readers, one per 2024 place and two under floor 3,
// each selected by its own line, as the set-up would write it.
CastleConfig setUpCastle(CastleConfig c) {
    c.readers.clear();
    unsigned line = 5;
    for (const auto& place : castlePlaces(CastleEdition::Vive2024)) {
        ReaderConfig r;
        r.name = "spot-" + place;
        r.place = place;
        r.bus = "/dev/spidev0.1";
        r.chipSelect = GpioLine{"gpiochip0", line++};
        c.readers.push_back(r);
    }
    ReaderConfig extra = c.readers[3];
    extra.name = "spot-3b";
    extra.chipSelect = GpioLine{"gpiochip0", line++};
    c.readers.push_back(extra);
    return c;
}

TEST_CASE("in force: the given file until the set-up saves castle.ini; a castle.ini with problems is not") {
    SaveDir dir;
    dir.writeGiven();
    auto inForce = configInForce(dir.given());
    CHECK_FALSE(inForce.usesSaved);
    CHECK(inForce.file() == dir.given());
    CHECK(inForce.saved == dir.saved());
    CHECK(inForce.check.status == ConfigCheck::Status::Valid);
    CHECK(inForce.why.find("no castle saved by the set-up") != std::string::npos);

    const auto saved = saveCastleConfig(setUpCastle(inForce.check.config), inForce);
    INFO(saved.why);
    REQUIRE(saved.saved);
    CHECK(saved.message.code == "castle.config.saved");
    inForce = configInForce(dir.given());
    CHECK(inForce.usesSaved);
    CHECK(inForce.file() == dir.saved());
    CHECK(inForce.check.config.readers.size() == 13);
    CHECK(inForce.why.find("instead of " + dir.given().string()) != std::string::npos);
    // The given file's other sections came along: its port, its voice, its comment.
    CHECK(inForce.check.config.daemon.httpPort == 8123);
    CHECK(inForce.check.config.voice.settings.volume == 35);
    CHECK(SaveDir::read(dir.saved()).find("# the table's own port\n") != std::string::npos);

    // Broken by hand: the given file is in force again, and why says the line.
    SaveDir::write(dir.saved(), SaveDir::read(dir.saved()) + "\n[reader.bad]\nplace = 9\n");
    inForce = configInForce(dir.given());
    CHECK_FALSE(inForce.usesSaved);
    CHECK(inForce.file() == dir.given());
    CHECK(inForce.check.config.readers.empty());
    REQUIRE_FALSE(inForce.savedProblems.empty());
    CHECK(inForce.why.find(dir.saved().string() + ":") != std::string::npos);
    CHECK(inForce.why.find("the configuration in force is " + dir.given().string()) != std::string::npos);
}

TEST_CASE(
    "put aside: castle.ini becomes castle.ini.bak and the given file is in force; never the given file "
    "itself") {
    SaveDir dir;
    dir.writeGiven();
    CHECK(putAsideSavedConfig(configInForce(dir.given())).message.code == "castle.config.nothing-saved");
    REQUIRE(saveCastleConfig(setUpCastle(configInForce(dir.given()).check.config), configInForce(dir.given()))
                .saved);
    const std::string savedText = SaveDir::read(dir.saved());
    const auto put = putAsideSavedConfig(configInForce(dir.given()));
    INFO(put.why);
    REQUIRE(put.saved);
    CHECK(put.message.code == "castle.config.put-aside");
    CHECK_FALSE(std::filesystem::exists(dir.saved()));
    CHECK(SaveDir::read(dir.path / "state" / "castle.ini.bak") == savedText);
    const auto after = configInForce(dir.given());
    CHECK_FALSE(after.usesSaved);
    CHECK(after.check.config.readers.empty());
    // A castle.ini with problems (not in force) may be put aside too.
    SaveDir::write(dir.saved(), "[reader.bad]\nplace = 9\n");
    CHECK(putAsideSavedConfig(configInForce(dir.given())).saved);
    CHECK_FALSE(std::filesystem::exists(dir.saved()));

    // Given the state directory's castle.ini itself: it is the given file, in force as such, never put aside.
    SaveDir::write(dir.saved(), SaveDir::read(dir.given()));
    const auto itself = configInForce(dir.saved());
    CHECK_FALSE(itself.usesSaved);
    CHECK(itself.file() == dir.saved());
    CHECK(itself.check.status == ConfigCheck::Status::Valid);
    CHECK(putAsideSavedConfig(itself).message.code == "castle.config.nothing-saved");
    CHECK(std::filesystem::exists(dir.saved()));
}

TEST_CASE("saving: the previous castle.ini kept as castle.ini.bak; what is saved reads back the same") {
    SaveDir dir;
    dir.writeGiven();
    const CastleConfig first = setUpCastle(configInForce(dir.given()).check.config);
    REQUIRE(saveCastleConfig(first, configInForce(dir.given())).saved);
    const std::string firstText = SaveDir::read(dir.saved());
    CHECK_FALSE(std::filesystem::exists(dir.path / "state" / "castle.ini.bak"));

    CastleConfig second = first;
    std::swap(second.readers[0].place, second.readers[1].place);  // two readers swapped under the board
    const auto result = saveCastleConfig(second, configInForce(dir.given()));
    REQUIRE(result.saved);
    CHECK(SaveDir::read(dir.path / "state" / "castle.ini.bak") == firstText);
    CHECK_FALSE(std::filesystem::exists(dir.path / "state" / "castle.ini.new"));
    const auto again = configInForce(dir.given());
    REQUIRE(again.usesSaved);
    CHECK(testing::castleDifference(second, again.check.config) == "");
    // Saved over castle.ini itself, its own [daemon] is what is kept (the given file's, once).
    CHECK(again.check.config.daemon.httpPort == 8123);
}

TEST_CASE(
    "saving a castle with problems: refused with check-config's problems, by the lines of the file to be "
    "written") {
    SaveDir dir;
    dir.writeGiven();
    const auto inForce = configInForce(dir.given());
    REQUIRE(saveCastleConfig(setUpCastle(inForce.check.config), inForce).saved);
    const std::string before = SaveDir::read(dir.saved());

    CastleConfig bad = setUpCastle(inForce.check.config);
    bad.readers[4].chipSelect = bad.readers[2].chipSelect;  // one line selects two readers
    bad.readers.erase(bad.readers.begin() + 6);             // and a place without a reader
    const auto result = saveCastleConfig(bad, configInForce(dir.given()));
    CHECK_FALSE(result.saved);
    CHECK(result.message.code == "castle.config.problems");
    REQUIRE(result.problems.size() == 2);
    // Named as check-config names them, in the file that would have been written.
    const auto& line = result.problems[0];
    CHECK(line.file == dir.saved().string());
    CHECK(line.key == "reader.spot-4.chip_select");
    const std::string written = writeCastleConfig(bad, before).text;
    std::istringstream lines(written);
    std::string text;
    for (int n = 0; n < line.line; ++n) std::getline(lines, text);
    CHECK(text == "chip_select = gpiochip0:7");
    CHECK(result.problems[1].line == 0);
    CHECK(result.problems[1].reason.find("place 6 (the throne) has no reader") == 0);
    CHECK(result.message.arg("first")->text == line.text());
    // Nothing moved.
    CHECK(SaveDir::read(dir.saved()) == before);
    CHECK_FALSE(std::filesystem::exists(dir.path / "state" / "castle.ini.new"));
    CHECK(configInForce(dir.given()).usesSaved);

    // Two places claiming one reader (the same name twice): refused, the section named twice.
    CastleConfig twice = setUpCastle(inForce.check.config);
    twice.readers[5].name = twice.readers[4].name;
    const auto claimed = saveCastleConfig(twice, configInForce(dir.given()));
    CHECK_FALSE(claimed.saved);
    REQUIRE_FALSE(claimed.problems.empty());
    CHECK(claimed.problems[0].key == "[reader.spot-4]");
    CHECK(claimed.problems[0].reason.find("the section appears twice") == 0);
    CHECK(SaveDir::read(dir.saved()) == before);

    CastleConfig hash = setUpCastle(inForce.check.config);
    hash.readers[0].bus = "/dev/spidev0.1 # the fast one";
    const auto unwritable = saveCastleConfig(hash, configInForce(dir.given()));
    CHECK_FALSE(unwritable.saved);
    CHECK(unwritable.message.code == "castle.config.unwritable");
    CHECK(unwritable.message.arg("key")->text == "reader.spot-0.bus");
    CHECK(SaveDir::read(dir.saved()) == before);
}

TEST_CASE("a disk that refuses the write: not saved, the previous configuration still in force") {
    SaveDir dir;
    dir.writeGiven();
    const auto inForce = configInForce(dir.given());
    REQUIRE(saveCastleConfig(setUpCastle(inForce.check.config), inForce).saved);
    const std::string before = SaveDir::read(dir.saved());
    CastleConfig next = setUpCastle(inForce.check.config);
    next.readers.pop_back();

    SUBCASE("a full disk: the file may grow no larger than 100 bytes") {
        // RLIMIT_FSIZE cuts the write short (EFBIG) as a full disk would, for root too.
        rlimit old{};
        REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
        const auto oldHandler = ::signal(SIGXFSZ, SIG_IGN);
        rlimit small = old;
        small.rlim_cur = 100;
        REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
        const auto result = saveCastleConfig(next, configInForce(dir.given()));
        ::setrlimit(RLIMIT_FSIZE, &old);
        ::signal(SIGXFSZ, oldHandler);
        CHECK_FALSE(result.saved);
        CHECK(result.message.code == "castle.config.not-saved");
        CHECK(result.why.find("cannot write") != std::string::npos);
        CHECK(result.why.find("the configuration in force is unchanged") != std::string::npos);
    }
    SUBCASE("a state directory that cannot be made (a file in its way)") {
        CastleConfig elsewhere = next;
        SaveDir::write(dir.path / "blocked", "a file\n");
        const auto result = saveCastleConfig(elsewhere, before, dir.path / "blocked" / "castle.ini");
        CHECK_FALSE(result.saved);
        CHECK(result.message.code == "castle.config.not-saved");
        CHECK(result.message.arg("why")->text.find("cannot make") == 0);
    }
    SUBCASE("a directory that is not writable (not for root, whom permissions do not stop)") {
        if (::geteuid() == 0) return;
        std::filesystem::permissions(dir.path / "state",
                                     std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
        const auto result = saveCastleConfig(next, configInForce(dir.given()));
        CHECK_FALSE(result.saved);
        CHECK(result.why.find("cannot create") != std::string::npos);
    }
    CHECK(SaveDir::read(dir.saved()) == before);
    CHECK_FALSE(std::filesystem::exists(dir.path / "state" / "castle.ini.new"));
    const auto still = configInForce(dir.given());
    CHECK(still.usesSaved);
    CHECK(still.check.config.readers.size() == 13);
}

}  // namespace
}  // namespace vivaref::config
