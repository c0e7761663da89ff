// libFuzzer target: any byte string is the daemon's tag registry, tags.json
// (drivers/sensing/tag_registry_file). Reading it must give either the
// registries, which write back as text that reads back the same, or a
// TagRegistryFileError naming the file and a line inside the text; never
// another exception or a crash.
// Run by `.ci/dev test`; by hand: build/fuzz/tests/fuzz/tags_fuzzer -dict=tests/fuzz/tags.dict CORPUS_DIR.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "drivers/sensing/tag_registry_file.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {

using namespace vivaref;

constexpr const char* kFileName = "/state/tags.json";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const int physicalLines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;

    drivers::TagRegistries registries;
    try {
        registries = drivers::parseTagRegistries(text, kFileName);
    } catch (const drivers::TagRegistryFileError& e) {
        const std::string said = e.what();
        if (said.find(std::string("tag registry ") + kFileName) != 0)
            fuzz::broken("an error that does not name the file: " + said);
        if (e.line() < 0 || e.line() > physicalLines)
            fuzz::broken("an error at line " + std::to_string(e.line()) + " of " +
                         std::to_string(physicalLines) + ": " + said);
        return 0;
    } catch (const std::exception& e) {
        fuzz::broken(std::string("an exception other than TagRegistryFileError: ") + e.what());
    }

    // What was read writes back, and reads back the same.
    const std::string written = drivers::tagRegistriesText(registries);
    std::string again;
    try {
        again = drivers::tagRegistriesText(drivers::parseTagRegistries(written, kFileName));
    } catch (const std::exception& e) {
        fuzz::broken(std::string("the registries written back do not read: ") + e.what() + "\n" + written);
    }
    if (again != written)
        fuzz::broken("the registries written back read differently:\n" + written + "\n" + again);
    return 0;
}
