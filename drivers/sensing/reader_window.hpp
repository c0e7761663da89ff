// One reader's last K successful scans, and which enrolled tags it sees by
// majority over them. Failed scans are not evidence either way: they count
// against the reader's quality, not against its tags.
// With `sticky`, a tag once seen stays seen until it is missing from
// `lostAfter` scans in a row (at most K): entering takes a majority, leaving
// takes silence. A still tag that is missed once never looks lifted, and a
// real lift shows after `lostAfter` scans.
// It also keeps, per tag, the run of scans in a row that read it: a new place
// is believed only once a run spans the stability window (spannedAt), so a
// hand brushing past, read twice in quick succession, never makes a move.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "drivers/rfid/tag_uid.hpp"
#include "drivers/sensing/sensing_types.hpp"
#include "drivers/sensing/tag_registry.hpp"

namespace vivaref::drivers {

class ReaderWindow {
public:
    ReaderWindow(std::size_t majorityScans, bool sticky, std::size_t lostAfter, Timestamp span,
                 std::size_t tagCount);

    // One successful scan, already split into enrolled tags (sorted, no
    // duplicates) and unknown UIDs.
    void add(const std::vector<TagIndex>& tags, std::vector<TagUid> unknown, Timestamp at);
    // Forget everything: the old scans say nothing about a board that may
    // have changed while the reader was down.
    void clear();

    bool sees(TagIndex tag) const { return seen_[tag] != 0; }
    // Read in one of its last `lostAfter` scans: enough for the place a tag
    // stably stands on to keep it (a majority may not be there yet after the
    // reader's window was cleared).
    bool holds(TagIndex tag) const { return hits_[tag] > 0 && missesInARow_[tag] < lostAfter_; }
    // How consistently it reads `tag`: hits over scans, as a fraction compared
    // by cross-multiplication (see readsBetter).
    std::uint32_t hits(TagIndex tag) const { return hits_[tag]; }
    std::size_t scansHeld() const { return filled_; }
    // Its last scan read `tag`.
    bool readLast(TagIndex tag) const { return inRun_[tag] != 0; }
    // When the run of scans in a row that read `tag`, up to the last scan,
    // first reached `span` after its first read: the scan that did it. None
    // when the last scan missed it, or the run is shorter than the span.
    std::optional<Timestamp> spannedAt(TagIndex tag) const {
        return inRun_[tag] ? spannedAt_[tag] : std::nullopt;
    }

    struct Unknown {
        TagUid uid;
        Timestamp at;
    };
    // Every unknown UID in the scans held, each once with its latest sighting.
    std::vector<Unknown> unknownTags() const;

private:
    struct Scan {
        std::vector<TagIndex> tags;
        std::vector<TagUid> unknown;
        Timestamp at{0};
    };
    std::vector<Scan> ring_;
    std::size_t next_ = 0;
    std::size_t filled_ = 0;
    std::vector<std::uint32_t> hits_;
    std::vector<char> seen_;
    std::vector<std::uint32_t> missesInARow_;
    std::vector<char> inRun_;                          // the last scan read it
    std::vector<Timestamp> runStart_;                  // the first read of the run of reads in a row
    std::vector<std::optional<Timestamp>> spannedAt_;  // the read that made the run span `span_`
    bool sticky_;
    Timestamp span_;
    std::size_t lostAfter_;
};

// True when `a` (hitsA of scansA) reads more consistently than `b`.
inline bool readsBetter(std::uint32_t hitsA, std::size_t scansA, std::uint32_t hitsB, std::size_t scansB) {
    return static_cast<std::uint64_t>(hitsA) * scansB > static_cast<std::uint64_t>(hitsB) * scansA;
}

}  // namespace vivaref::drivers
