// libFuzzer target: any byte string is a castle configuration file. Reading
// and checking it (daemon/config: ini_reader, config_file, config_check) must
// give either a valid configuration and no problem, or problems that each
// name the file, a line inside the text (0: the file as a whole) and a
// reason; never a crash, an exception or a hang (-timeout).
// Run by `.ci/dev test`; by hand: build/fuzz/tests/fuzz/config_fuzzer -dict=tests/fuzz/config.dict
// CORPUS_DIR.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "daemon/config/config_check.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {

using namespace vivaref;

constexpr const char* kFileName = "fuzz.ini";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const int physicalLines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;

    config::ConfigCheck check;
    try {
        check = config::checkCastleConfigText(text, kFileName);
    } catch (const std::exception& e) {
        fuzz::broken(std::string("checkCastleConfigText threw: ") + e.what());
    }
    switch (check.status) {
        case config::ConfigCheck::Status::Valid:
            if (!check.problems.empty()) fuzz::broken("valid, with problems");
            break;
        case config::ConfigCheck::Status::Problems:
            if (check.problems.empty()) fuzz::broken("problems, but none said");
            break;
        case config::ConfigCheck::Status::Unreadable:
            fuzz::broken("a text read as unreadable");
    }
    int lastLine = 0;
    bool wholeFileSeen = false;
    for (const auto& problem : check.problems) {
        const std::string said = problem.text();
        if (problem.file != kFileName) fuzz::broken("a problem naming another file: " + said);
        if (problem.line < 0 || problem.line > physicalLines)
            fuzz::broken("a problem at a line outside the text (" + std::to_string(physicalLines) +
                         " lines): " + said);
        if (problem.reason.empty()) fuzz::broken("a problem without a reason: " + said);
        if (said.find(kFileName) != 0) fuzz::broken("a problem's text does not start with the file: " + said);
        // Problems come in line order, those of the whole file (line 0) last.
        if (problem.line != 0 && (problem.line < lastLine || wholeFileSeen))
            fuzz::broken("problems out of line order: " + said);
        if (problem.line != 0) lastLine = problem.line;
        if (problem.line == 0) wholeFileSeen = true;
    }
    // A configuration found valid stays valid when checked as a whole again.
    if (check.status == config::ConfigCheck::Status::Valid) {
        config::ConfigProblems again;
        config::checkCastle(check.config, again);
        if (!again.empty())
            fuzz::broken("a valid configuration fails its second check: " + again.front().text());
    }
    return 0;
}
