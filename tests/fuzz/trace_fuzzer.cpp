// libFuzzer target: any byte string is a referee trace (REFEREE-TRACE). The
// reader must answer it without crashing: either every line, in time order,
// each of which writes back (trace_writer) as text that reads back the same;
// or the first malformed line, named by a number inside the text, with a
// sentence. Each line on its own (parseTraceLine) holds to the same.
// Run by `.ci/dev test`; by hand: build/fuzz/tests/fuzz/trace_fuzzer -dict=tests/fuzz/trace.dict CORPUS_DIR.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "daemon/trace/trace_reader.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {

using namespace vivaref;

void checkWritesBack(const trace::TraceLine& line, const std::string& where) {
    const std::string written = trace::writeTraceLine(line);
    if (written.find('\n') != std::string::npos) fuzz::broken(where + " writes as more than one line");
    const trace::LineParse again = trace::parseTraceLine(written);
    if (!again.line) fuzz::broken(where + " writes as an unreadable line: " + again.error + "\n" + written);
    if (!(*again.line == line)) fuzz::broken(where + " does not read back the same:\n" + written);
    if (trace::writeTraceLine(*again.line) != written)
        fuzz::broken(where + " writes differently the second time");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const int physicalLines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;

    const trace::TraceRead read = trace::readTrace(text);
    if (read.error) {
        if (read.error->line < 1 || read.error->line > physicalLines)
            fuzz::broken("error at line " + std::to_string(read.error->line) + " of a text of " +
                         std::to_string(physicalLines) + " lines");
        if (read.error->what.empty()) fuzz::broken("an error without a sentence");
        if (!read.lines.empty()) fuzz::broken("lines returned with an error");
    }
    std::int64_t lastT = 0;
    int lastNumber = 0;
    for (const auto& [number, line] : read.lines) {
        const std::string where = "line " + std::to_string(number);
        if (number <= lastNumber || number > physicalLines)
            fuzz::broken(where + ": line numbers out of order");
        if (line.t < lastT || line.t < 0 || line.t > trace::kMaxTraceTime)
            fuzz::broken(where + ": t out of order");
        checkWritesBack(line, where);
        lastT = line.t;
        lastNumber = number;
    }

    // The first line alone, as a socket delivers it.
    const std::string_view first = text.substr(0, text.find('\n'));
    const trace::LineParse one = trace::parseTraceLine(first);
    if (one.line) {
        checkWritesBack(*one.line, "the first line alone");
    } else if (one.error.empty()) {
        fuzz::broken("the first line alone: neither a line nor an error");
    }
    return 0;
}
