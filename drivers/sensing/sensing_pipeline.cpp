#include "drivers/sensing/sensing_pipeline.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>

namespace vivaref::drivers {

using Kind = TagLocation::Kind;

SensingPipeline::SensingPipeline(BoardLayout layout, TagRegistry registry, SensingConfig config)
    : layout_(std::move(layout)), registry_(std::move(registry)), config_(config) {
    config_.validate();
    if (layout_.readerCount() == 0) throw std::invalid_argument("sensing: the board layout has no reader");
    readers_.reserve(layout_.readerCount());
    for (std::size_t i = 0; i < layout_.readerCount(); ++i) {
        readers_.push_back({ReaderWindow(config_.majorityScans, config_.stickyPresence,
                                         config_.lostAfterMisses, config_.stabilityWindow, registry_.size()),
                            {}});
    }
    tags_.resize(registry_.size());
    touched_.assign(registry_.size(), 0);
}

bool SensingPipeline::addScan(const ReaderId& reader, const ScanResult& result, Timestamp at) {
    const auto index = layout_.findReader(reader);
    if (!index) return false;
    addScan(*index, result, at);
    return true;
}

void SensingPipeline::addScan(ReaderIndex reader, const ScanResult& result, Timestamp at) {
    assert(reader < readers_.size() && "a reader index from another layout");
    now_ = std::max(now_, at);
    ReaderQuality& quality = readers_[reader].quality;
    ++quality.scans;
    if (result.ok()) {
        recordSuccess(reader, result.tags(), now_);
    } else {
        recordFailure(reader, result.error(), now_);
    }
}

void SensingPipeline::recordFailure(ReaderIndex reader, const ScanError& error, Timestamp at) {
    ReaderQuality& quality = readers_[reader].quality;
    ++quality.consecutiveFailures;
    quality.failing = true;
    quality.successesSinceFailure = 0;
    quality.lastError = error;
    quality.lastErrorAt = at;
    if (!quality.faulty && quality.consecutiveFailures >= config_.faultyAfterFailures) {
        quality.faulty = true;
        // Its tags are now held where they were; every tag may be affected.
        for (TagIndex tag = 0; tag < tags_.size(); ++tag) refreshSeen(tag, at);
    }
}

void SensingPipeline::recordSuccess(ReaderIndex reader, const TagSet& tags, Timestamp at) {
    ReaderState& state = readers_[reader];
    ++state.quality.successes;
    state.quality.consecutiveFailures = 0;
    state.quality.lastSuccessAt = at;
    if (state.quality.failing && ++state.quality.successesSinceFailure >= config_.majorityScans)
        state.quality.failing = false;
    const bool recovering = state.quality.faulty;
    if (recovering) {
        state.quality.faulty = false;
        state.window.clear();
    }

    scanTags_.clear();
    std::vector<TagUid> unknown;
    for (const TagUid& uid : tags) {
        if (auto tag = registry_.find(uid)) {
            scanTags_.push_back(*tag);
        } else {
            unknown.push_back(uid);
            ++state.quality.unknownTagReads;
        }
    }
    std::sort(scanTags_.begin(), scanTags_.end());

    // Which tags' votes may change: those this reader held before or holds
    // now (the majority threshold moves with the number of scans held).
    for (TagIndex tag = 0; tag < tags_.size(); ++tag) touched_[tag] = state.window.hits(tag) > 0;
    state.window.add(scanTags_, std::move(unknown), at);
    for (TagIndex tag : scanTags_) touched_[tag] = 1;
    for (TagIndex tag = 0; tag < tags_.size(); ++tag) {
        if (touched_[tag] || recovering) refreshSeen(tag, at);
    }
}

bool SensingPipeline::placeHasFaultyReader(PlaceIndex place) const {
    const auto& readers = layout_.readersOf(place);
    return std::any_of(readers.begin(), readers.end(),
                       [&](ReaderIndex r) { return readers_[r].quality.faulty; });
}

void SensingPipeline::computeSeen(TagIndex tag, Spot& spot, bool& uncertain) const {
    spot.kind = Kind::Absent;
    spot.place.reset();
    spot.candidates.clear();
    uncertain = false;

    const std::optional<PlaceIndex> stablePlace =
        tags_[tag].stable.kind == Kind::OnPlace ? tags_[tag].stable.place : std::nullopt;
    bool stableStillSees = false;
    // The best read of this tag on each place, and which place reads it best.
    std::uint32_t bestHits = 0;
    std::size_t bestScans = 1;
    for (ReaderIndex r = 0; r < readers_.size(); ++r) {
        const ReaderState& state = readers_[r];
        if (state.quality.faulty) continue;
        const std::uint32_t hits = state.window.hits(tag);
        const PlaceIndex place = layout_.placeOf(r);
        // The place it stably is on keeps it while one of its readers holds it.
        if (stablePlace && place == *stablePlace && state.window.holds(tag)) stableStillSees = true;
        if (!state.window.sees(tag)) continue;
        const std::size_t scans = state.window.scansHeld();
        if (spot.candidates.empty() || readsBetter(hits, scans, bestHits, bestScans)) {
            spot.candidates.assign(1, place);
            bestHits = hits;
            bestScans = scans;
        } else if (!readsBetter(bestHits, bestScans, hits, scans) &&
                   std::find(spot.candidates.begin(), spot.candidates.end(), place) ==
                       spot.candidates.end()) {
            spot.candidates.push_back(place);  // a tie with another place
        }
    }

    // Where the tag stably is keeps it while any of that place's readers
    // still sees it: a neighbour picking it up for a few scans is not a move.
    // A real move shows once the old reader has lost it (lostAfterMisses
    // scans in a row without it); a lift has long lost it by the landing.
    if (stableStillSees) spot.candidates.assign(1, *stablePlace);

    if (spot.candidates.size() == 1) {
        spot.kind = Kind::OnPlace;
        spot.place = spot.candidates.front();
        spot.candidates.clear();
    } else if (spot.candidates.size() > 1) {
        spot.kind = Kind::Ambiguous;
        std::sort(spot.candidates.begin(), spot.candidates.end());
    } else {
        // Nobody healthy sees it. If its place's reader is down, that says
        // nothing about the tag: hold it where it was, uncertain.
        if (stablePlace && placeHasFaultyReader(*stablePlace)) {
            spot.kind = Kind::OnPlace;
            spot.place = stablePlace;
            uncertain = true;
        }
    }
}

void SensingPipeline::refreshSeen(TagIndex tag, Timestamp at) {
    TagTrack& track = tags_[tag];
    // Bring the stable location up to `at` first: the old reading may have
    // held long enough, and computeSeen() holds a faulty reader's tags where
    // they stably are.
    settle(tag, at);
    bool uncertain = false;
    computeSeen(tag, scratchSpot_, uncertain);
    track.seenUncertain = uncertain;
    if (scratchSpot_ == track.seen) return;
    std::swap(track.seen, scratchSpot_);
    track.seenSince = at;
}

SensingPipeline::Spot SensingPipeline::target(const TagTrack& track) const {
    if (track.seen.kind != Kind::Absent) return track.seen;
    switch (track.stable.kind) {
        case Kind::OnPlace:
            return {Kind::InHand, track.stable.place, {}};
        case Kind::Ambiguous:
            return {Kind::InHand, std::nullopt, {}};
        case Kind::InHand:
        case Kind::Absent:
            break;
    }
    return track.stable;
}

void SensingPipeline::settle(TagIndex tag, Timestamp now) {
    TagTrack& track = tags_[tag];
    if (const auto stableAt = dueAt(tag); stableAt && *stableAt <= now) {
        Spot to = target(track);
        if (to.kind == Kind::InHand) track.inHandSince = track.seenSince;
        commit(tag, std::move(to), track.seenSince, *stableAt);
    }
    if (track.stable.kind == Kind::InHand && track.seen.kind == Kind::Absent &&
        now - track.inHandSince >= config_.inHandGrace) {
        // Seen again within the grace and lost again: it is gone from its last loss, not before.
        const Timestamp goneAt = std::max(track.inHandSince + config_.inHandGrace, track.seenSince);
        commit(tag, Spot{}, track.inHandSince, goneAt);
    }
}

std::optional<Timestamp> SensingPipeline::dueAt(TagIndex tag) const {
    const TagTrack& track = tags_[tag];
    const Spot to = target(track);
    if (to == track.stable) return std::nullopt;
    // A piece lifted is in hand at once: the readers have already lost it
    // for lostAfterMisses scans, and "in hand" decides nothing by itself.
    const bool lifted = config_.inHandAtOnce && track.seen.kind == Kind::Absent &&
                        track.stable.kind != Kind::InHand && track.stable.kind != Kind::Absent;
    if (lifted) return track.seenSince;
    if (to.kind != Kind::OnPlace || track.seenUncertain) return track.seenSince + config_.stabilityWindow;
    // A new place: once one of its readers has read the tag in every scan
    // for the window, the read that spans it decides (a hand brushing past is
    // read once or twice within the window, then missed).
    // And no other place's reader read it in its last scan: a neighbour's
    // cross-read, or the true place read a little later than a neighbour.
    std::optional<Timestamp> spanned;
    for (ReaderIndex r = 0; r < readers_.size(); ++r) {
        const ReaderState& state = readers_[r];
        if (state.quality.faulty) continue;
        if (layout_.placeOf(r) != *to.place) {
            if (state.window.readLast(tag)) return std::nullopt;  // its next scan may say otherwise
            continue;
        }
        // A reader whose last scan failed has not read the board since: its
        // run may be a neighbour's cross-reads of a tag lifted meanwhile.
        if (!state.window.sees(tag) || state.quality.consecutiveFailures > 0) continue;
        if (const auto at = state.window.spannedAt(tag); at && (!spanned || *at < *spanned)) spanned = at;
    }
    if (!spanned) return std::nullopt;  // the next scan may span it
    Timestamp due = std::max(track.seenSince, *spanned);
    // Leaving a place whose reader does not answer: its next scan may still
    // read the tag there (SensingConfig::blindLeaveWait).
    if (track.stable.kind == Kind::OnPlace && track.stable.place != to.place) {
        for (ReaderIndex r = 0; r < readers_.size(); ++r) {
            const ReaderQuality& quality = readers_[r].quality;
            if (layout_.placeOf(r) != *track.stable.place || quality.consecutiveFailures == 0) continue;
            due = std::max(due, quality.lastSuccessAt.value_or(Timestamp{0}) + config_.blindLeaveWait);
        }
    }
    return due;
}

void SensingPipeline::commit(TagIndex tag, Spot to, Timestamp seenAt, Timestamp stableAt) {
    TagTrack& track = tags_[tag];
    pending_.push_back({registry_.character(tag), registry_.uid(tag), toLocation(track.stable),
                        toLocation(to), seenAt, stableAt});
    track.stable = std::move(to);
}

TagLocation SensingPipeline::toLocation(const Spot& spot) const {
    TagLocation location;
    location.kind = spot.kind;
    if (spot.place) location.place = layout_.place(*spot.place);
    for (PlaceIndex p : spot.candidates) location.candidates.push_back(layout_.place(p));
    std::sort(location.candidates.begin(), location.candidates.end());
    return location;
}

SensingUpdate SensingPipeline::update(Timestamp now) {
    now_ = std::max(now_, now);
    for (TagIndex tag = 0; tag < tags_.size(); ++tag) settle(tag, now_);
    SensingUpdate result{observe(now_), std::move(pending_)};
    pending_.clear();
    std::stable_sort(
        result.changes.begin(), result.changes.end(),
        [](const ObservationChange& a, const ObservationChange& b) { return a.stableAt < b.stableAt; });
    return result;
}

std::optional<Timestamp> SensingPipeline::nextDeadline() const {
    std::optional<Timestamp> next;
    auto consider = [&](Timestamp at) {
        if (!next || at < *next) next = at;
    };
    for (TagIndex tag = 0; tag < tags_.size(); ++tag) {
        const TagTrack& track = tags_[tag];
        // settle()'s two rules, without committing anything.
        if (target(track) != track.stable) {
            if (const auto at = dueAt(tag)) consider(*at);
        } else if (track.stable.kind == Kind::InHand && track.seen.kind == Kind::Absent) {
            consider(track.inHandSince + config_.inHandGrace);
        }
    }
    return next;
}

BoardObservation SensingPipeline::observe(Timestamp now) const {
    BoardObservation observation;
    observation.at = now;
    for (TagIndex tag = 0; tag < tags_.size(); ++tag) {
        const TagTrack& track = tags_[tag];
        const CharacterSlug& character = registry_.character(tag);
        switch (track.stable.kind) {
            case Kind::OnPlace: {
                const bool held = track.seenUncertain && track.seen.place == track.stable.place;
                observation.onBoard.emplace(character,
                                            PlacedCharacter{layout_.place(*track.stable.place), held});
                break;
            }
            case Kind::InHand: {
                std::optional<PlaceName> from;
                if (track.stable.place) from = layout_.place(*track.stable.place);
                observation.inHand.emplace(character, CharacterInHand{std::move(from), track.inHandSince});
                break;
            }
            case Kind::Ambiguous:
                observation.ambiguous.emplace(character, toLocation(track.stable).candidates);
                break;
            case Kind::Absent:
                break;
        }
    }
    for (ReaderIndex r = 0; r < readers_.size(); ++r) {
        if (readers_[r].quality.failing) observation.failingReaders.push_back(layout_.reader(r));
        if (readers_[r].quality.faulty) {
            observation.faultyReaders.push_back(layout_.reader(r));
            continue;  // its held scans are stale
        }
        for (const auto& unknown : readers_[r].window.unknownTags()) {
            observation.unknownTags.push_back({unknown.uid, layout_.reader(r), unknown.at});
        }
    }
    return observation;
}

std::vector<ReaderStatus> SensingPipeline::readerStatus() const {
    std::vector<ReaderStatus> status;
    for (ReaderIndex r = 0; r < readers_.size(); ++r) {
        status.push_back({layout_.reader(r), layout_.place(layout_.placeOf(r)), readers_[r].quality});
    }
    return status;
}

}  // namespace vivaref::drivers
