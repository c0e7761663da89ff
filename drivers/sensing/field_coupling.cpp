#include "drivers/sensing/field_coupling.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace vivaref::drivers {

FieldCoupling::FieldCoupling(std::size_t readerCount) : neighbours_(readerCount) {}

FieldCoupling FieldCoupling::oneAtATime(std::size_t readerCount) {
    FieldCoupling all(readerCount);
    for (ReaderIndex a = 0; a < readerCount; ++a) {
        auto& list = all.neighbours_[a];
        for (ReaderIndex b = 0; b < readerCount; ++b)
            if (b != a) list.push_back(b);
    }
    return all;
}

void FieldCoupling::couple(ReaderIndex a, ReaderIndex b) {
    if (a >= readerCount() || b >= readerCount())
        throw std::invalid_argument("field coupling: reader index out of range");
    if (a == b) throw std::invalid_argument("field coupling: a reader does not couple with itself");
    if (coupled(a, b)) return;
    for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
        auto& list = neighbours_[from];
        list.insert(std::lower_bound(list.begin(), list.end(), to), to);
    }
}

bool FieldCoupling::coupled(ReaderIndex a, ReaderIndex b) const {
    const auto& list = neighbours_[a];
    return std::binary_search(list.begin(), list.end(), b);
}

std::size_t FieldCoupling::pairCount() const {
    std::size_t ends = 0;
    for (const auto& list : neighbours_) ends += list.size();
    return ends / 2;
}

FieldCoupling couplingByLevel(const std::vector<std::optional<int>>& levels, LevelCoupling rule) {
    FieldCoupling coupling(levels.size());
    const int nearest = rule == LevelCoupling::SameOrAdjacentLevels ? 0 : 1;
    for (ReaderIndex a = 0; a < levels.size(); ++a) {
        for (ReaderIndex b = a + 1; b < levels.size(); ++b) {
            if (!levels[a] || !levels[b]) continue;
            const int apart = std::abs(*levels[a] - *levels[b]);
            if (apart >= nearest && apart <= 1) coupling.couple(a, b);
        }
    }
    return coupling;
}

std::vector<std::vector<ReaderIndex>> fieldGroups(const FieldCoupling& coupling) {
    std::vector<std::vector<ReaderIndex>> groups;
    for (ReaderIndex r = 0; r < coupling.readerCount(); ++r) {
        auto fits = [&](const std::vector<ReaderIndex>& group) {
            return std::none_of(group.begin(), group.end(),
                                [&](ReaderIndex other) { return coupling.coupled(r, other); });
        };
        auto group = std::find_if(groups.begin(), groups.end(), fits);
        if (group == groups.end()) group = groups.emplace(groups.end());
        group->push_back(r);
    }
    return groups;
}

}  // namespace vivaref::drivers
