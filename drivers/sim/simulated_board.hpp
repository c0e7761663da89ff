// An in-memory castle: tests, the web UI and `vivaref simulate` put tags on
// places and lift them, and the board answers scans as the readers under it
// would, at the configured rate on the caller's clock, so it runs in virtual
// time. Faults can be injected: a reader that stops answering or fails now
// and then, garbage UIDs, a tag that flaps, a tag a neighbouring reader also
// picks up. All randomness comes from one seeded generator: the same seed and
// the same calls give the same scans.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "drivers/rfid/simulated_tag_reader.hpp"
#include "drivers/sensing/board_layout.hpp"
#include "drivers/sensing/tag_registry.hpp"  // simulatedTagUid

namespace vivaref::drivers {

struct SimulatedBoardConfig {
    // One reader is scanned every interval, round robin: a castle of 12
    // readers at 10 ms is a full cycle every 120 ms.
    Timestamp scanInterval{10};
    std::uint64_t seed = 1;
};

struct SimulatedScan {
    ReaderIndex reader;
    ScanResult result;
    Timestamp at;
};

class SimulatedBoard {
public:
    // By default the standard board (drivers/sensing/board_layout.hpp).
    explicit SimulatedBoard(BoardLayout layout = standardBoardLayout(), SimulatedBoardConfig config = {});

    const BoardLayout& layout() const { return layout_; }

    // The castle. put() on a place with several readers puts the tag where a
    // player would stand it: over the one holding the fewest tags
    // (standing_spot.hpp); putOver() chooses. A tag put again moves. False
    // when there is no such place or reader.
    [[nodiscard]] bool put(const TagUid& tag, const PlaceName& place);
    [[nodiscard]] bool putOver(const TagUid& tag, const ReaderId& reader);
    void lift(const TagUid& tag);
    void clear();
    std::optional<PlaceName> placeOf(const TagUid& tag) const;
    std::vector<TagUid> tagsOn(const PlaceName& place) const;

    // Faults, by reader index (layout().findReader() for a name).
    void silence(ReaderIndex reader, ScanErrorKind kind = ScanErrorKind::NoAnswer);
    // The same, saying why in the scan's message (a simulated bench's dead chip).
    void silence(ReaderIndex reader, ScanErrorKind kind, const std::string& why);
    // What reader `reader`'s field really covers (a simulated bench: a chip
    // under another spot, two antennas coupled): the tags over `spots`, by
    // default its own spot only. `chips` answer on its line at once: with
    // two or more, a scan with tags in the field fails as a protocol error
    // (one in four) or reads them with a garbled UID (an empty field reads
    // empty: both chips time out alike).
    void wire(ReaderIndex reader, std::vector<ReaderIndex> spots, std::size_t chips = 1);
    // Answers again, and forgets its failure and garbage rates.
    void restore(ReaderIndex reader);
    void setFailureRate(ReaderIndex reader, double probability);  // fails now and then
    void setGarbageRate(ReaderIndex reader, double probability);  // adds a mangled UID to a scan
    // Faults, by tag.
    void setMissRate(const TagUid& tag, double probability);  // its reader misses it now and then
    void setCrosstalk(const TagUid& tag, ReaderIndex alsoSeenBy, double probability);
    void clearTagFaults(const TagUid& tag);
    // Stacked antennas: every tag is also read, now and then, by the readers
    // just before and after its own in the layout's order (the standard
    // board lists its floors bottom to top, then the throne).
    void setNeighbourCrosstalk(double probability) { neighbourCrosstalk_ = probability; }

    // Every scan due after the previous call up to and including `now`.
    std::vector<SimulatedScan> advanceTo(Timestamp now);
    // One scan of one reader, outside the round robin (for a caller with its own scheduler).
    ScanResult scan(ReaderIndex reader);

private:
    struct TagFaults {
        double missRate = 0;
        std::optional<ReaderIndex> crosstalkReader;
        double crosstalkRate = 0;
    };
    struct ReaderFaults {
        double failureRate = 0;
        double garbageRate = 0;
    };
    struct ReaderWiring {
        std::optional<std::vector<ReaderIndex>> spots;  // none: its own
        std::size_t chips = 1;
    };

    bool chance(double probability);
    TagUid mangled(const TagSet& field);

    BoardLayout layout_;
    SimulatedBoardConfig config_;
    std::vector<SimulatedTagReader> readers_;
    std::vector<ReaderFaults> readerFaults_;
    std::vector<ReaderWiring> wiring_;
    std::map<TagUid, ReaderIndex> tagOver_;
    std::map<TagUid, TagFaults> tagFaults_;
    double neighbourCrosstalk_ = 0;
    std::mt19937_64 random_;
    Timestamp nextScanAt_{0};
    ReaderIndex nextReader_ = 0;
};

}  // namespace vivaref::drivers
