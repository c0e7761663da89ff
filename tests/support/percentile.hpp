// The p-th percentile (0 to 1) of a benchmark's figures, the nearest rank:
// what every bench prints as p50 / p90 / p99. 0 for no figures.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace vivaref::test {

inline double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

}  // namespace vivaref::test
