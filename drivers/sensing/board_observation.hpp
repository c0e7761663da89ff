// What the readers say about the board, once the noise is filtered out: the
// sensing pipeline's output. No rules here: a character on two places at once
// or on a full floor is reported as seen; the referee judges.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "drivers/rfid/tag_uid.hpp"
#include "drivers/sensing/sensing_types.hpp"

namespace vivaref::drivers {

// Where one character's tag is, stably.
struct TagLocation {
    enum class Kind {
        Absent,     // not on the board (never seen, or gone longer than the in-hand grace)
        OnPlace,    // `place` is where it stands
        InHand,     // vanished from `place` less than the grace ago: being moved
        Ambiguous,  // read just as well on each of `candidates`
    };
    Kind kind = Kind::Absent;
    std::optional<PlaceName> place;     // OnPlace: where; InHand: lifted from (if known)
    std::vector<PlaceName> candidates;  // Ambiguous only, sorted

    friend bool operator==(const TagLocation&, const TagLocation&) = default;

    static TagLocation absent() { return {}; }
    static TagLocation onPlace(PlaceName p) { return {Kind::OnPlace, std::move(p), {}}; }
    static TagLocation inHand(std::optional<PlaceName> from) { return {Kind::InHand, std::move(from), {}}; }
    static TagLocation ambiguous(std::vector<PlaceName> c) {
        return {Kind::Ambiguous, std::nullopt, std::move(c)};
    }
};

const char* locationKindName(TagLocation::Kind kind);
// "on 3", "in hand from 3", "absent", "ambiguous 2|3": for logs and test messages.
std::string describe(const TagLocation& location);

struct PlacedCharacter {
    PlaceName place;
    // Its place's reader is faulty: it is where we last saw it, but we cannot see it now.
    bool uncertain = false;
};

struct CharacterInHand {
    std::optional<PlaceName> liftedFrom;
    Timestamp since;  // when it vanished
};

struct UnknownTagSighting {
    TagUid uid;
    ReaderId reader;
    Timestamp lastSeen;
};

struct BoardObservation {
    Timestamp at{0};
    std::map<CharacterSlug, PlacedCharacter> onBoard;
    std::map<CharacterSlug, CharacterInHand> inHand;
    std::map<CharacterSlug, std::vector<PlaceName>> ambiguous;
    std::vector<UnknownTagSighting> unknownTags;  // in any reader's recent scans
    std::vector<ReaderId> faultyReaders;
    // Readers that failed a scan lately (ReaderQuality::failing; the faulty
    // ones too): a piece put on or lifted from their places meanwhile may
    // not show yet.
    std::vector<ReaderId> failingReaders;
};

// One character's stable location changed.
struct ObservationChange {
    CharacterSlug character;
    TagUid uid;
    TagLocation from;
    TagLocation to;
    Timestamp seenAt;    // when the readers first showed the new location
    Timestamp stableAt;  // when it became stable (seenAt + window, or the grace's end)
};

std::string describe(const ObservationChange& change);

// What one SensingPipeline::update() returns.
struct SensingUpdate {
    BoardObservation observation;
    std::vector<ObservationChange> changes;  // since the previous update, by stableAt
};

}  // namespace vivaref::drivers
