#include "daemon/enrol/enrolment.hpp"

#include <algorithm>

namespace vivaref::enrol {

using drivers::CharacterSlug;
using drivers::TagUid;

const char* eventKindName(EnrolmentEventKind kind) {
    switch (kind) {
        case EnrolmentEventKind::Asking:
            return "asking";
        case EnrolmentEventKind::Enrolled:
            return "enrolled";
        case EnrolmentEventKind::Kept:
            return "kept";
        case EnrolmentEventKind::TagOfAnother:
            return "tag-of-another";
        case EnrolmentEventKind::OneAtATime:
            return "one-at-a-time";
        case EnrolmentEventKind::UnusableTag:
            return "unusable-tag";
        case EnrolmentEventKind::ReaderFault:
            return "reader-fault";
        case EnrolmentEventKind::ReaderBack:
            return "reader-back";
        case EnrolmentEventKind::Skipped:
            return "skipped";
        case EnrolmentEventKind::Done:
            return "done";
    }
    return "?";
}

std::optional<std::string> unusableUidReason(const TagUid& uid) {
    const auto bytes = uid.bytes();
    if (std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0x00; }))
        return "a UID of all zeros is what a broken read looks like, not a tag";
    if (std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0xFF; }))
        return "a UID of all FF is what a broken read looks like, not a tag";
    if (bytes[0] == 0x88) return "a UID cannot start with the cascade tag 88: the read was garbled";
    if (uid.size() == 4 && bytes[0] == 0x08)
        return "this tag draws a new random UID each time it is powered (it starts with 08): it cannot be "
               "recognised again, use another tag";
    return std::nullopt;
}

Enrolment::Enrolment(std::vector<EnrolCharacter> roster, const drivers::TagRegistry& existing,
                     EnrolmentConfig config)
    : roster_(std::move(roster)), config_(std::move(config)) {
    for (drivers::TagIndex i = 0; i < existing.size(); ++i) {
        existing_.emplace_back(existing.uid(i), existing.character(i));
        ownerOf_.emplace(existing.uid(i), existing.character(i));
        tagOf_.emplace(existing.character(i), existing.uid(i));
    }
}

std::string Enrolment::nameOf(const CharacterSlug& slug) const {
    for (const auto& c : roster_)
        if (c.slug == slug) return c.name;
    return slug.name;
}

EnrolmentEvent Enrolment::event(EnrolmentEventKind kind, std::string message) const {
    EnrolmentEvent e{kind, std::nullopt, std::nullopt, "", std::move(message)};
    if (!done()) e.character = roster_[next_].slug;
    return e;
}

EnrolmentEvents Enrolment::start() {
    EnrolmentEvents events;
    next_ = 0;
    if (done()) {
        events.push_back(event(EnrolmentEventKind::Done, "No character to enrol."));
    } else {
        events.push_back(
            event(EnrolmentEventKind::Asking, "Put " + roster_[next_].name + " " + config_.where + "."));
    }
    return events;
}

bool Enrolment::isPresent(const TagUid& tag) const {
    return std::any_of(readers_.begin(), readers_.end(),
                       [&](const auto& r) { return r.second.present.contains(tag); });
}

void Enrolment::update(const std::string& reader, const drivers::TagSet& tags, Timestamp at) {
    ReaderState& r = readers_[reader];
    for (const TagUid& t : tags) {
        r.misses.erase(t);
        if (++r.streak[t] < config_.confirmScans || r.present.contains(t)) continue;
        const bool elsewhere = isPresent(t);
        r.present.insert(t);
        if (!elsewhere) newcomers_.try_emplace(t, Newcomer{reader, at});
    }
    std::erase_if(r.streak, [&](const auto& s) { return !tags.contains(s.first); });
    for (auto it = r.present.begin(); it != r.present.end();) {
        const TagUid t = *it;
        if (tags.contains(t) || ++r.misses[t] < config_.goneAfterMisses) {
            ++it;
            continue;
        }
        it = r.present.erase(it);
        r.misses.erase(t);
        if (!isPresent(t)) {  // lifted: it may be considered again
            newcomers_.erase(t);
            refused_.erase(t);
        }
    }
}

EnrolmentEvents Enrolment::onScan(const std::string& reader, const drivers::ScanResult& result,
                                  Timestamp at) {
    EnrolmentEvents events;
    ReaderState& r = readers_[reader];
    if (!result.ok()) {
        // Its tags stay as they were: a fault says nothing about them.
        if (!r.faulty) {
            r.faulty = true;
            EnrolmentEvent e = event(EnrolmentEventKind::ReaderFault,
                                     "Reader " + reader + " does not answer (" + result.error().message +
                                         "); the other readers still work.");
            e.reader = reader;
            events.push_back(std::move(e));
        }
        return events;
    }
    if (r.faulty) {
        r.faulty = false;
        EnrolmentEvent e = event(EnrolmentEventKind::ReaderBack, "Reader " + reader + " answers again.");
        e.reader = reader;
        events.push_back(std::move(e));
    }
    update(reader, result.tags(), at);
    if (!done()) decide(at, events);
    return events;
}

void Enrolment::decide(Timestamp at, EnrolmentEvents& events) {
    std::vector<std::pair<TagUid, Newcomer>> candidates;
    for (const auto& [tag, n] : newcomers_)
        if (!refused_.contains(tag)) candidates.emplace_back(tag, n);
    if (candidates.size() > 1) {
        std::string which;
        for (const auto& [tag, n] : candidates) {
            which += (which.empty() ? "" : ", ") + tag.toHex() + " on " + n.reader;
            refused_.insert(tag);
        }
        EnrolmentEvent e =
            event(EnrolmentEventKind::OneAtATime, std::to_string(candidates.size()) + " new tags at once (" +
                                                      which + "): lift them and put " + roster_[next_].name +
                                                      " alone, one at a time.");
        events.push_back(std::move(e));
        return;
    }
    if (candidates.empty() || at - candidates.front().second.since < config_.settle) return;

    const auto& [tag, newcomer] = candidates.front();
    const CharacterSlug& asked = roster_[next_].slug;
    if (auto why = unusableUidReason(tag)) {
        refuse(EnrolmentEventKind::UnusableTag, tag, newcomer.reader,
               "Tag " + tag.toHex() + ": " + *why + ".", events);
        return;
    }
    if (auto owner = ownerOf_.find(tag); owner != ownerOf_.end()) {
        if (owner->second != asked) {
            refuse(EnrolmentEventKind::TagOfAnother, tag, newcomer.reader,
                   "Tag " + tag.toHex() + " is already " + nameOf(owner->second) + "'s (" +
                       owner->second.name + "): lift it and put " + roster_[next_].name + ".",
                   events);
            return;
        }
        EnrolmentEvent e = event(EnrolmentEventKind::Kept,
                                 roster_[next_].name + ": tag " + tag.toHex() + " is already theirs; kept.");
        e.tag = tag;
        e.reader = newcomer.reader;
        events.push_back(std::move(e));
        advance(events);
        return;
    }
    record(tag, newcomer.reader, events);
}

void Enrolment::refuse(EnrolmentEventKind kind, const TagUid& tag, const std::string& reader,
                       std::string message, EnrolmentEvents& events) {
    refused_.insert(tag);
    EnrolmentEvent e = event(kind, std::move(message));
    e.tag = tag;
    e.reader = reader;
    events.push_back(std::move(e));
}

void Enrolment::record(const TagUid& tag, const std::string& reader, EnrolmentEvents& events) {
    const CharacterSlug& asked = roster_[next_].slug;
    std::string replaced;
    if (auto old = tagOf_.find(asked); old != tagOf_.end()) {
        replaced = " (it replaces tag " + old->second.toHex() + ")";
        ownerOf_.erase(old->second);
    }
    ownerOf_.insert_or_assign(tag, asked);
    tagOf_.insert_or_assign(asked, tag);
    recorded_.push_back(tag);
    ++enrolled_;
    EnrolmentEvent e =
        event(EnrolmentEventKind::Enrolled, roster_[next_].name + ": tag " + tag.toHex() + " seen on " +
                                                reader + ", enrolled" + replaced + ".");
    e.tag = tag;
    e.reader = reader;
    events.push_back(std::move(e));
    advance(events);
}

EnrolmentEvents Enrolment::skip() {
    EnrolmentEvents events;
    if (done()) return events;
    ++skipped_;
    events.push_back(event(EnrolmentEventKind::Skipped, roster_[next_].name + ": skipped."));
    advance(events);
    return events;
}

void Enrolment::advance(EnrolmentEvents& events) {
    ++next_;
    newcomers_.clear();
    refused_.clear();
    if (done()) {
        events.push_back(event(EnrolmentEventKind::Done, "Every character has been asked for."));
    } else {
        events.push_back(
            event(EnrolmentEventKind::Asking, "Put " + roster_[next_].name + " " + config_.where + "."));
    }
}

drivers::TagRegistry Enrolment::registry() const {
    drivers::TagRegistry out;
    auto keep = [&](const TagUid& tag) {
        auto owner = ownerOf_.find(tag);
        if (owner != ownerOf_.end() && !out.find(tag)) out.enrol(tag, owner->second);
    };
    for (const auto& [tag, slug] : existing_) keep(tag);
    for (const auto& tag : recorded_) keep(tag);
    return out;
}

}  // namespace vivaref::enrol
