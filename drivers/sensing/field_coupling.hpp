// Which readers may not have their RF fields on at the same time. Two
// antennas close together couple: a tag between them is powered by both, and
// one reader's carrier fills the other's modulation pauses, so neither reads
// it. Far-apart readers do not disturb each other and may be on together.
// Where the antennas are is the castle's business (its configuration says
// which readers couple); here it is only a graph over reader indices.
//
// fieldGroups() colours that graph greedily: each group is a set of readers
// whose fields may all be on together. "One antenna at a time" is the graph
// where every pair couples: one reader per group.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "drivers/sensing/board_layout.hpp"

namespace vivaref::drivers {

class FieldCoupling {
public:
    // `readerCount` readers, none coupled yet.
    explicit FieldCoupling(std::size_t readerCount);
    // Every pair coupled: one field at a time.
    static FieldCoupling oneAtATime(std::size_t readerCount);

    // Throws std::invalid_argument for an index out of range or a == b.
    void couple(ReaderIndex a, ReaderIndex b);

    std::size_t readerCount() const { return neighbours_.size(); }
    bool coupled(ReaderIndex a, ReaderIndex b) const;
    // The readers coupled with `reader`, in increasing order.
    const std::vector<ReaderIndex>& neighboursOf(ReaderIndex reader) const { return neighbours_[reader]; }
    std::size_t pairCount() const;

private:
    std::vector<std::vector<ReaderIndex>> neighbours_;
};

// Readers stacked in levels (the floors of a tower): a reader couples with
// every reader one level above or below it, and with SameOrAdjacentLevels
// also with every other reader of its own level. A reader without a level
// (beside the board) couples with none.
enum class LevelCoupling { AdjacentLevels, SameOrAdjacentLevels };
FieldCoupling couplingByLevel(const std::vector<std::optional<int>>& levels, LevelCoupling rule);

// Greedy colouring in reader order: each reader joins the first group that
// holds no reader it couples with. Groups in the order they were opened, each
// in reader order; every reader in exactly one.
std::vector<std::vector<ReaderIndex>> fieldGroups(const FieldCoupling& coupling);

}  // namespace vivaref::drivers
