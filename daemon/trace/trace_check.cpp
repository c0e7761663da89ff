#include "daemon/trace/trace_check.hpp"

#include <vector>

namespace vivaref::trace {

namespace {

// "floor0, floor1, ..." for a message: the first few names of a layout.
std::string layoutNameList(const std::vector<std::string>& names) {
    constexpr std::size_t kShown = 12;
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < kShown; ++i) out += (i ? ", " : "") + names[i];
    if (names.size() > kShown) out += ", ... " + std::to_string(names.size()) + " in all";
    return out;
}

}  // namespace

std::optional<std::string> lineProblem(const drivers::BoardLayout& layout, const TraceLine& line) {
    const drivers::ReaderId* reader = nullptr;
    if (const auto* scan = std::get_if<ScanLine>(&line.input)) reader = &scan->reader;
    if (const auto* fault = std::get_if<ReaderFaultLine>(&line.input)) reader = &fault->reader;
    if (reader && !layout.findReader(*reader)) {
        std::vector<std::string> names;
        for (std::size_t r = 0; r < layout.readerCount(); ++r) names.push_back(layout.reader(r).name);
        return "the board has no reader \"" + reader->name + "\" (" + layoutNameList(names) + ")";
    }
    if (const auto* put = std::get_if<PutLine>(&line.input); put && !layout.findPlace(put->place)) {
        std::vector<std::string> names;
        for (std::size_t p = 0; p < layout.placeCount(); ++p) names.push_back(layout.place(p).name);
        return "the board has no place \"" + put->place.name + "\" (" + layoutNameList(names) + ")";
    }
    return std::nullopt;
}

}  // namespace vivaref::trace
