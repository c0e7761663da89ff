// The file as text: what is not INI, unknown sections and keys, keys given
// twice, binary and unreadable files. Each problem names file, line and key.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>
#include <sys/stat.h>

#include "config_test_helpers.hpp"

namespace vivaref::config {
namespace {

using testing::check;
using testing::classicReaders;
using testing::problemTexts;
using Strings = std::vector<std::string>;

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "vivaref-config-XXXXXX").string();
        path = ::mkdtemp(pattern.data());
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::permissions(path, std::filesystem::perms::owner_all, ec);
        std::filesystem::remove_all(path, ec);
    }
    std::filesystem::path write(const std::string& name, const std::string& text) const {
        std::ofstream(path / name, std::ios::binary) << text;
        return path / name;
    }
};

TEST_CASE("a valid file has no problem, and comments, blank lines, CRLF and a byte order mark are fine") {
    const auto c =
        check("\xEF\xBB\xBF# a castle\r\n\r\n[castle]   # the board\r\nedition = classic # inline\r\n" +
              classicReaders());
    CHECK(c.problems.empty());
    CHECK(c.status == ConfigCheck::Status::Valid);
    CHECK(c.config.edition == CastleEdition::Classic);
    CHECK(c.config.readers.size() == 7);
    CHECK(c.config.lineOf("castle.edition") == 4);
}

TEST_CASE("an empty file is the simulated standard castle with every default") {
    const auto c = check("");
    CHECK(c.status == ConfigCheck::Status::Valid);
    CHECK(c.config.daemon.hardware == Hardware::Sim);
    CHECK(c.config.layout().readerCount() == 12);
    CHECK(c.config.daemon.httpAddress == "0.0.0.0");
    CHECK(c.config.daemon.httpPort == 8080);
    CHECK(c.config.sensing.majorityScans == 3);
    CHECK(c.config.rawScansKept == 100'000);
}

TEST_CASE("an unknown key names its line, its section and the keys the section has") {
    CHECK(problemTexts("[castle]\nedition = classic\ncolour = red\n") ==
          Strings{"castle.ini:3: castle.colour: unknown key in [castle]; its keys are edition, fields, "
                  "max_fields_on"});
}

TEST_CASE("an unknown section is named once, not each of its keys") {
    CHECK(
        problemTexts("[castle]\n[readers.floor3]\nplace = 3\nbus = /dev/spidev0.0\n") ==
        Strings{
            "castle.ini:2: [readers.floor3]: unknown section; the sections are [castle], [daemon], [store], "
            "[sensing], [buttons], [leds], [club], [voice], [reader.NAME] and [station.SEAT]"});
}

TEST_CASE("lines that are not INI are named, and the rest of the file is still read") {
    const auto p = problemTexts(
        "edition = 2024\n"
        "[castle\n"
        "this is not a setting\n"
        "[daemon]\n"
        "= 8080\n"
        "http port = 8080\n"
        "[ spaced ]\n"
        "[daemon]\n"
        "http_port = 80800\n");
    CHECK(
        p ==
        Strings{
            "castle.ini:1: edition: a key before any [section]: every key belongs to a section",
            "castle.ini:2: '[castle' is not a section header: write [name] with letters, digits, '-', '_' "
            "and '.'",
            "castle.ini:3: 'this is not a setting' is not a section header, a 'key = value' line or a "
            "comment",
            "castle.ini:5: a value without a key: write key = value",
            "castle.ini:6: 'http port' is not a key: use letters, digits, '-', '_' and '.'",
            "castle.ini:7: '[ spaced ]' is not a section header: write [name] with letters, digits, '-', '_' "
            "and '.'",
            "castle.ini:8: [daemon]: the section appears twice (first on line 4): give each section once",
            "castle.ini:9: daemon.http_port: 80800 is out of range: from 1 to 65535",
        });
}

TEST_CASE("a key given twice is a problem on its second line; the first value is kept") {
    const auto c = check("[daemon]\nhttp_port = 8080\nhttp_port = 9090\n");
    REQUIRE(c.problems.size() == 1);
    CHECK(c.problems[0].text() ==
          "castle.ini:3: daemon.http_port: given twice (first on line 2): give each key once");
    CHECK(c.config.daemon.httpPort == 8080);
}

TEST_CASE("every problem of a file is reported, in line order, whole-file problems last") {
    const auto c = check(
        "[castle]\nedition = 2025\n"
        "[reader.a]\nplace = 9\ntype = rc522\nbus = spidev0.0\n"
        "[station.0]\nyes = gpiochip0:4\n"
        "[daemon]\nhttp_port = -1\n");
    Strings lines;
    for (const auto& p : c.problems) lines.push_back(std::to_string(p.line) + " " + p.key);
    CHECK(lines == Strings{"2 castle.edition", "4 reader.a.place", "5 reader.a.type", "6 reader.a.bus",
                           "7 station.0.no", "10 daemon.http_port", "0 ", "0 ", "0 ", "0 ", "0 ", "0 ",
                           "0 "});
    CHECK(c.status == ConfigCheck::Status::Problems);
}

TEST_CASE("a binary file is one problem, not thousands") {
    std::string elf =
        "\x7F"
        "ELF\x02\x01\x01";
    elf += std::string(64, '\0');
    CHECK(problemTexts(elf) == Strings{"castle.ini:1: this is not a text file (it holds the byte 0x7F): is "
                                       "it the castle configuration?"});
    CHECK(problemTexts("[castle]\nedition = classic\n\x01\x02") ==
          Strings{"castle.ini:3: this is not a text file (it holds the byte 0x01): is it the castle "
                  "configuration?"});
}

TEST_CASE("text that is not UTF-8 and overlong lines are named") {
    CHECK(problemTexts("[castle]\n# caf\xE9\n") ==
          Strings{"castle.ini:2: not UTF-8 text (column 6): save the file as UTF-8"});
    CHECK(problemTexts("[castle]\nedition = " + std::string(5000, 'x') + "\n") ==
          Strings{"castle.ini:2: the line is 5010 characters long; a configuration line is at most 4096"});
}

TEST_CASE("garbage text is a problem per line, each named") {
    const auto c = check("lorem ipsum\ndolor sit amet\n{\"json\": true}\n");
    CHECK(c.problems.size() == 3);
    for (const auto& p : c.problems) CHECK(p.reason.find("is not a section header") != std::string::npos);
}

TEST_CASE("a missing file, a directory and an unreadable file cannot be read") {
    TempDir dir;
    auto missing = checkCastleConfigFile(dir.path / "nope.ini");
    CHECK(missing.status == ConfigCheck::Status::Unreadable);
    CHECK(missing.problems.at(0).text() == (dir.path / "nope.ini").string() + ": no such file");

    auto directory = checkCastleConfigFile(dir.path);
    CHECK(directory.status == ConfigCheck::Status::Unreadable);
    CHECK(directory.problems.at(0).reason == "this is a directory, not a configuration file");

    const auto locked = dir.write("locked.ini", "[castle]\n");
    ::chmod(locked.c_str(), 0);
    if (::geteuid() == 0) {
        MESSAGE("running as root: permissions do not stop us, the unreadable case is not checked");
    } else {
        auto unreadable = checkCastleConfigFile(locked);
        CHECK(unreadable.status == ConfigCheck::Status::Unreadable);
        CHECK(unreadable.problems.at(0).reason == "cannot open it: Permission denied");
    }

    const auto big = dir.write("big.ini", std::string(kMaxConfigBytes + 10, '#'));
    auto tooBig = checkCastleConfigFile(big);
    CHECK(tooBig.status == ConfigCheck::Status::Problems);
    CHECK(tooBig.problems.at(0).reason == "larger than 1024 KiB: this is not a castle configuration");

    const auto good = dir.write("good.ini", "[castle]\nedition = classic\n" + classicReaders());
    auto ok = checkCastleConfigFile(good);
    CHECK(ok.status == ConfigCheck::Status::Valid);
    CHECK(ok.config.sourceFile == good);
}

TEST_CASE("start-up throws every problem at once") {
    TempDir dir;
    const auto file = dir.write("bad.ini", "[castle]\nedition = 1999\n[daemon]\nhttp_port = x\n");
    try {
        (void)loadCastleConfig(file);
        FAIL("no ConfigError");
    } catch (const ConfigError& e) {
        CHECK(e.problems().size() == 2);
        const std::string what = e.what();
        CHECK(what.find(file.string() + ":2: castle.edition: '1999' is not an edition: classic or 2024") !=
              std::string::npos);
        CHECK(what.find(file.string() + ":4: daemon.http_port: 'x' is not a whole number") !=
              std::string::npos);
    }
    CHECK_THROWS_AS((void)loadCastleConfig(dir.path / "missing.ini"), ConfigError);
}

}  // namespace
}  // namespace vivaref::config
