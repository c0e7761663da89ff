// From per-reader scans to a stable board observation. Four filters, in order:
//   1. per reader, a tag is seen once it is in a majority of the reader's last
//      K scans, and stays seen until it is in none of them (one missed or one
//      phantom read changes nothing);
//   2. per tag, the readers that see it vote for a place: the place it stably
//      stands on keeps it while one of its readers still reads it; otherwise
//      the place where it reads most consistently wins, and a tie is "ambiguous";
//   3. a new location must hold for the stability window before it is stable:
//      a new place once one of its readers has read the tag in every scan
//      across the window (the read that spans it decides), any other change
//      once nothing contradicted it for the window;
//   4. a tag that vanishes from its place is "in hand" for a grace time, then gone.
// Unknown UIDs are reported, never placed. A faulty reader's tags stay where
// they were last seen, marked uncertain. No rules, no clocks: time comes in
// with every call, so the pipeline runs the same in virtual time.
#pragma once

#include <optional>
#include <vector>

#include "drivers/rfid/tag_reader.hpp"
#include "drivers/sensing/board_layout.hpp"
#include "drivers/sensing/board_observation.hpp"
#include "drivers/sensing/reader_quality.hpp"
#include "drivers/sensing/reader_window.hpp"
#include "drivers/sensing/sensing_config.hpp"
#include "drivers/sensing/tag_registry.hpp"

namespace vivaref::drivers {

struct ReaderStatus {
    ReaderId reader;
    PlaceName place;
    ReaderQuality quality;
};

class SensingPipeline {
public:
    // Throws std::invalid_argument on a contradictory config or an empty layout.
    SensingPipeline(BoardLayout layout, TagRegistry registry, SensingConfig config = {});

    // One scan of one reader, at `at` on the caller's clock. A time earlier
    // than the last one seen is taken as the last one (time never goes back).
    // False, and nothing changes, when the layout has no such reader.
    [[nodiscard]] bool addScan(const ReaderId& reader, const ScanResult& result, Timestamp at);
    void addScan(ReaderIndex reader, const ScanResult& result, Timestamp at);

    // The stable observation at `now`, and what changed since the last update.
    SensingUpdate update(Timestamp now);

    // The earliest time at which update() would commit something with no
    // new scan: a location that will have held its stability window, or a
    // piece in hand whose grace ends. A caller that updates at every scan it
    // adds and at every such deadline sees each change exactly when it is
    // due, however rarely its scans come. None: nothing pending.
    std::optional<Timestamp> nextDeadline() const;

    const BoardLayout& layout() const { return layout_; }
    const TagRegistry& registry() const { return registry_; }
    const ReaderQuality& quality(ReaderIndex reader) const { return readers_[reader].quality; }
    std::vector<ReaderStatus> readerStatus() const;

private:
    // A location in indices; converted to names only for the output.
    struct Spot {
        TagLocation::Kind kind = TagLocation::Kind::Absent;
        std::optional<PlaceIndex> place;
        std::vector<PlaceIndex> candidates;  // Ambiguous only, sorted
        friend bool operator==(const Spot&, const Spot&) = default;
    };
    struct TagTrack {
        Spot stable;
        Spot seen;  // what the readers say now; Absent means "nowhere"
        bool seenUncertain = false;
        Timestamp seenSince{0};
        Timestamp inHandSince{0};
    };
    struct ReaderState {
        ReaderWindow window;
        ReaderQuality quality;
    };

    void recordFailure(ReaderIndex reader, const ScanError& error, Timestamp at);
    void recordSuccess(ReaderIndex reader, const TagSet& tags, Timestamp at);
    void refreshSeen(TagIndex tag, Timestamp at);
    void computeSeen(TagIndex tag, Spot& spot, bool& uncertain) const;
    Spot target(const TagTrack& track) const;
    void settle(TagIndex tag, Timestamp now);
    // When the tag's stable location becomes its target, if nothing new is
    // read: none when that waits for a scan (a new place not yet spanned).
    std::optional<Timestamp> dueAt(TagIndex tag) const;
    void commit(TagIndex tag, Spot to, Timestamp seenAt, Timestamp stableAt);
    bool placeHasFaultyReader(PlaceIndex place) const;
    TagLocation toLocation(const Spot& spot) const;
    BoardObservation observe(Timestamp now) const;

    BoardLayout layout_;
    TagRegistry registry_;
    SensingConfig config_;
    std::vector<ReaderState> readers_;
    std::vector<TagTrack> tags_;
    std::vector<ObservationChange> pending_;
    Timestamp now_{0};
    // Scratch space reused by every scan, so a warm pipeline does not allocate per scan.
    std::vector<TagIndex> scanTags_;
    std::vector<char> touched_;
    Spot scratchSpot_;
};

}  // namespace vivaref::drivers
