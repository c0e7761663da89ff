// The machine's load average (1, 5 and 15 minutes) as /proc/loadavg gives
// it, printed beside a benchmark's figures: on a shared machine they mean
// little without it. Empty where /proc is missing.
#pragma once

#include <fstream>
#include <string>

namespace vivaref::test {

inline std::string loadAverage() {
    std::ifstream in("/proc/loadavg");
    std::string one, five, fifteen;
    in >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

}  // namespace vivaref::test
