#include "daemon/enrol/enrolment.hpp"

#include <algorithm>

#include "daemon/words/words.hpp"

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

std::optional<engine::Message> unusableUidReason(const TagUid& uid) {
    const auto bytes = uid.bytes();
    if (std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0x00; }))
        return engine::Message("enrol.uid-zeros");
    if (std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0xFF; }))
        return engine::Message("enrol.uid-ff");
    if (bytes[0] == 0x88) return engine::Message("enrol.uid-cascade");
    if (uid.size() == 4 && bytes[0] == 0x08) return engine::Message("enrol.uid-random");
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

engine::MessageValue Enrolment::character(const CharacterSlug& slug) const {
    for (const auto& c : roster_)
        if (c.slug == slug) return engine::say::character(slug.name, c.name);
    return engine::say::character(slug.name, slug.name);
}

engine::Message Enrolment::question() const {
    return engine::Message("enrol.put",
                           {{"character", askedCharacter()}, {"where", engine::say::message(config_.where)}});
}

EnrolmentEvent Enrolment::event(EnrolmentEventKind kind, engine::Message message) const {
    std::string english = words::inEnglish(message);
    EnrolmentEvent e{kind, std::nullopt, std::nullopt, "", std::move(message), std::move(english)};
    if (!done()) e.character = roster_[next_].slug;
    return e;
}

EnrolmentEvents Enrolment::start() {
    EnrolmentEvents events;
    next_ = 0;
    if (done()) {
        events.push_back(event(EnrolmentEventKind::Done, engine::Message("enrol.none")));
    } else {
        events.push_back(event(EnrolmentEventKind::Asking, question()));
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
            // The driver's error stays as it says it (for whoever mends the reader).
            EnrolmentEvent e = event(
                EnrolmentEventKind::ReaderFault,
                engine::Message("enrol.reader-fault", {{"reader", engine::say::text(reader)},
                                                       {"why", engine::say::text(result.error().message)}}));
            e.reader = reader;
            events.push_back(std::move(e));
        }
        return events;
    }
    if (r.faulty) {
        r.faulty = false;
        EnrolmentEvent e =
            event(EnrolmentEventKind::ReaderBack,
                  engine::Message("enrol.reader-back", {{"reader", engine::say::text(reader)}}));
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
        std::vector<engine::MessageValue> which;
        for (const auto& [tag, n] : candidates) {
            which.push_back(engine::say::message(engine::Message(
                "enrol.tag-on",
                {{"tag", engine::say::text(tag.toHex())}, {"reader", engine::say::text(n.reader)}})));
            refused_.insert(tag);
        }
        EnrolmentEvent e = event(
            EnrolmentEventKind::OneAtATime,
            engine::Message("enrol.one-at-a-time",
                            {{"count", engine::say::number(static_cast<std::int64_t>(candidates.size()))},
                             {"tags", engine::say::list(std::move(which))},
                             {"character", askedCharacter()}}));
        events.push_back(std::move(e));
        return;
    }
    if (candidates.empty() || at - candidates.front().second.since < config_.settle) return;

    const auto& [tag, newcomer] = candidates.front();
    const CharacterSlug& asked = roster_[next_].slug;
    if (auto why = unusableUidReason(tag)) {
        refuse(EnrolmentEventKind::UnusableTag, tag, newcomer.reader,
               engine::Message("enrol.unusable", {{"tag", engine::say::text(tag.toHex())},
                                                  {"why", engine::say::message(*why)}}),
               events);
        return;
    }
    if (auto owner = ownerOf_.find(tag); owner != ownerOf_.end()) {
        if (owner->second != asked) {
            refuse(EnrolmentEventKind::TagOfAnother, tag, newcomer.reader,
                   engine::Message("enrol.tag-of-another", {{"tag", engine::say::text(tag.toHex())},
                                                            {"owner", character(owner->second)},
                                                            {"slug", engine::say::text(owner->second.name)},
                                                            {"character", askedCharacter()}}),
                   events);
            return;
        }
        EnrolmentEvent e = event(EnrolmentEventKind::Kept,
                                 engine::Message("enrol.kept", {{"character", askedCharacter()},
                                                                {"tag", engine::say::text(tag.toHex())}}));
        e.tag = tag;
        e.reader = newcomer.reader;
        events.push_back(std::move(e));
        advance(events);
        return;
    }
    record(tag, newcomer.reader, events);
}

void Enrolment::refuse(EnrolmentEventKind kind, const TagUid& tag, const std::string& reader,
                       engine::Message message, EnrolmentEvents& events) {
    refused_.insert(tag);
    EnrolmentEvent e = event(kind, std::move(message));
    e.tag = tag;
    e.reader = reader;
    events.push_back(std::move(e));
}

void Enrolment::record(const TagUid& tag, const std::string& reader, EnrolmentEvents& events) {
    const CharacterSlug& asked = roster_[next_].slug;
    std::optional<TagUid> replaced;
    if (auto old = tagOf_.find(asked); old != tagOf_.end()) {
        replaced = old->second;
        ownerOf_.erase(old->second);
    }
    ownerOf_.insert_or_assign(tag, asked);
    tagOf_.insert_or_assign(asked, tag);
    recorded_.push_back(tag);
    ++enrolled_;
    engine::Message said(replaced ? "enrol.enrolled-replacing" : "enrol.enrolled",
                         {{"character", askedCharacter()},
                          {"tag", engine::say::text(tag.toHex())},
                          {"reader", engine::say::text(reader)}});
    if (replaced) said.args.push_back({"old", engine::say::text(replaced->toHex())});
    EnrolmentEvent e = event(EnrolmentEventKind::Enrolled, std::move(said));
    e.tag = tag;
    e.reader = reader;
    events.push_back(std::move(e));
    advance(events);
}

EnrolmentEvents Enrolment::skip() {
    EnrolmentEvents events;
    if (done()) return events;
    ++skipped_;
    events.push_back(event(EnrolmentEventKind::Skipped,
                           engine::Message("enrol.skipped", {{"character", askedCharacter()}})));
    advance(events);
    return events;
}

void Enrolment::advance(EnrolmentEvents& events) {
    ++next_;
    newcomers_.clear();
    refused_.clear();
    if (done()) {
        events.push_back(event(EnrolmentEventKind::Done, engine::Message("enrol.done")));
    } else {
        events.push_back(event(EnrolmentEventKind::Asking, question()));
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
