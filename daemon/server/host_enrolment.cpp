#include "daemon/server/host_enrolment.hpp"

#include <exception>

#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"
#include "engine/roster.hpp"

namespace vivaref::server {

using nlohmann::json;
using Outcome = ServiceAnswer::Outcome;

namespace {

bool isRefusal(enrol::EnrolmentEventKind kind) {
    return kind == enrol::EnrolmentEventKind::TagOfAnother || kind == enrol::EnrolmentEventKind::OneAtATime ||
           kind == enrol::EnrolmentEventKind::UnusableTag;
}

const engine::Roster& rosterOf(const std::string& edition) {
    return edition == "2024" ? engine::roster2024() : engine::classicRoster();
}

}  // namespace

HostEnrolment::HostEnrolment(HostEnrolmentSettings settings)
    : settings_(std::move(settings)), edition_(settings_.edition) {
    // For the count of tags the page shows; a bad file is reported when an enrolment starts.
    try {
        registries_ = drivers::loadTagRegistriesIfPresent(settings_.registry);
    } catch (const std::exception&) {
        registries_.clear();
    }
}

void HostEnrolment::onScan(const drivers::ReaderId& reader, const drivers::ScanResult& result,
                           drivers::Timestamp at) {
    if (!enrolment_) return;
    lastScanAt_ = at;
    take(enrolment_->onScan(reader.name, result, at), at);
}

void HostEnrolment::take(const enrol::EnrolmentEvents& events, drivers::Timestamp at) {
    bool enrolled = false;
    for (const auto& e : events) {
        json out = {{"n", ++eventCount_},
                    {"at", at.count()},
                    {"kind", enrol::eventKindName(e.kind)},
                    {"message", e.message},
                    {"says", words::messageJson(e.says)}};
        if (e.character) out["character"] = e.character->name;
        if (e.tag) out["tag"] = e.tag->toHex();
        if (!e.reader.empty()) out["reader"] = e.reader;
        events_.push_back(std::move(out));
        while (events_.size() > settings_.eventsKept) events_.pop_front();
        switch (e.kind) {
            case enrol::EnrolmentEventKind::Enrolled:
                ++enrolled_;
                enrolled = true;
                break;
            case enrol::EnrolmentEventKind::Kept:
                ++kept_;
                break;
            case enrol::EnrolmentEventKind::Skipped:
                ++skipped_;
                break;
            case enrol::EnrolmentEventKind::Done:
                finished_ = true;
                break;
            default:
                if (isRefusal(e.kind)) ++refused_;
        }
    }
    // Saved after each tag, as `vivaref enrol` does: a host who walks away keeps what was enrolled.
    if (enrolled) save();
    if (enrolment_ && enrolment_->done()) finish();
}

bool HostEnrolment::save() {
    if (!enrolment_) return true;
    registries_[edition_] = enrolment_->registry();
    try {
        drivers::saveTagRegistries(settings_.registry, registries_);
        saveProblem_.clear();
        return true;
    } catch (const std::exception& e) {
        saveProblem_ = e.what();
        return false;
    }
}

void HostEnrolment::finish() {
    save();
    enrolment_.reset();
}

ServiceAnswer HostEnrolment::start(const json& body, bool gameInProgress) {
    if (gameInProgress)
        return ServiceAnswer::failed(Outcome::Refused, "game-in-progress",
                                     "tags are enrolled between games: finish or abandon the game first");
    std::string edition = settings_.edition;
    bool onlyMissing = false;
    for (const auto& [key, value] : body.items()) {
        if (key == "action") continue;
        if (key == "edition" && value.is_string() &&
            (value.get<std::string>() == "classic" || value.get<std::string>() == "2024")) {
            edition = value.get<std::string>();
        } else if (key == "missing" && value.is_boolean()) {
            onlyMissing = value.get<bool>();
        } else {
            return ServiceAnswer::failed(
                Outcome::BadRequest, "bad-request",
                "a start takes \"edition\" (classic or 2024) and \"missing\" (true or "
                "false), not \"" +
                    key + "\" as sent");
        }
    }
    try {
        registries_ = drivers::loadTagRegistriesIfPresent(settings_.registry);
    } catch (const std::exception& e) {
        return ServiceAnswer::failed(Outcome::Refused, "bad-registry", e.what());
    }
    const drivers::TagRegistry& existing = registries_[edition];
    std::vector<enrol::EnrolCharacter> asked;
    for (const auto& c : rosterOf(edition).characters()) {
        const drivers::CharacterSlug slug{c.id};
        if (onlyMissing && existing.findCharacter(slug)) continue;
        asked.push_back({slug, c.name});
    }
    enrol::EnrolmentConfig config;
    config.where = settings_.where;
    enrolment_.emplace(std::move(asked), existing, config);
    edition_ = edition;
    events_.clear();
    enrolled_ = kept_ = skipped_ = refused_ = 0;
    finished_ = false;
    saveProblem_.clear();
    take(enrolment_->start(), lastScanAt_);
    return ServiceAnswer::ok(state());
}

ServiceAnswer HostEnrolment::request(std::string_view action, const json& body, bool gameInProgress) {
    if (action == "state") return ServiceAnswer::ok(state());
    if (action == "start") return start(body, gameInProgress);
    if (action != "skip" && action != "stop")
        return ServiceAnswer::failed(Outcome::BadRequest, "bad-request",
                                     "an enrolment request's \"action\" is start, skip or stop");
    if (body.size() > 1)
        return ServiceAnswer::failed(Outcome::BadRequest, "bad-request",
                                     "a " + std::string(action) + " takes nothing but its \"action\"");
    if (!enrolment_)
        return ServiceAnswer::failed(Outcome::Refused, "not-running", "no enrolment is running: start one");
    if (action == "skip") {
        take(enrolment_->skip(), lastScanAt_);
    } else {
        finish();
    }
    if (!saveProblem_.empty())
        return ServiceAnswer::failed(Outcome::Refused, "save-failed",
                                     "the tag registry could not be saved: " + saveProblem_);
    return ServiceAnswer::ok(state());
}

json HostEnrolment::state() const {
    json out = {{"running", running()},
                {"edition", edition_},
                {"registry", settings_.registry.string()},
                {"where", words::inEnglish(settings_.where)},
                {"where_says", words::messageJson(settings_.where)},
                {"finished", finished_},
                {"enrolled", enrolled_},
                {"kept", kept_},
                {"skipped", skipped_},
                {"refused", refused_},
                {"events", json::array()}};
    for (const auto& e : events_) out["events"].push_back(e);
    if (!settings_.demoPlace.empty()) out["demoPlace"] = settings_.demoPlace;
    if (enrolment_) {
        if (const auto* asking = enrolment_->asking())
            out["asking"] = {{"character", asking->slug.name}, {"name", asking->name}};
        out["tags"] = enrolment_->registry().size();
    } else if (auto it = registries_.find(edition_); it != registries_.end()) {
        out["tags"] = it->second.size();
    }
    if (!saveProblem_.empty()) out["saveProblem"] = saveProblem_;
    return out;
}

}  // namespace vivaref::server
