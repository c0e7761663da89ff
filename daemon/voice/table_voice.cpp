#include "daemon/voice/table_voice.hpp"

#include <algorithm>
#include <stdexcept>

#include "daemon/words/message_json.hpp"
#include "engine/roster.hpp"

namespace vivaref::voice {

using nlohmann::json;
namespace say = engine::say;

bool holdsSecret(const engine::Message& message) {
    auto secret = [](const auto& self, const engine::MessageValue& v) -> bool {
        using Kind = engine::MessageValue::Kind;
        if (v.kind == Kind::Vote || v.kind == Kind::Ambition) return true;
        for (const auto& item : v.items)
            if (self(self, item)) return true;
        for (const auto& inner : v.inner)
            if (holdsSecret(inner)) return true;
        return false;
    };
    return std::any_of(message.args.begin(), message.args.end(),
                       [&](const engine::MessageArg& a) { return secret(secret, a.value); });
}

TableVoice::TableVoice(const referee::Referee& referee, const drivers::LoopClock& clock,
                       drivers::SpeechOut* speaker, std::function<void()> later)
    : referee_(referee), clock_(clock), speaker_(speaker), later_(std::move(later)) {
    setSpeaker(speaker);
}

void TableVoice::setSpeaker(drivers::SpeechOut* speaker) {
    speaker_ = speaker;
    if (!speaker_) return;
    speaker_->setVolume(settings_.volume);
    speaker_->setEnabled(settings_.enabled);
}

void TableVoice::setLanguage(const std::string& language) { words_ = words::Words(language); }

void TableVoice::setSettings(const VoiceSettings& settings) {
    settings_ = settings;
    settings_.volume = std::clamp(settings_.volume, 0, 100);
    if (!settings_.enabled) pending_.clear();
    std::erase_if(pending_, [&](const Pending& p) { return !settings_.moments.has(p.moment); });
    if (speaker_) {
        speaker_->setVolume(settings_.volume);
        speaker_->setEnabled(settings_.enabled);
        // A moment turned off is not heard any more, even a line waiting.
        for (auto m : kAllMoments)
            if (!settings_.moments.has(m))
                speaker_->cancel(drivers::SpeechKey{std::string(voiceMomentName(m))});
    }
}

// Only a copy of the few notices spoken at, and a flush asked for: the
// words come later, off the decision's path.
void TableVoice::notice(const referee::Notice& notice) {
    if (notice.audience != referee::Notice::Audience::Public) return;
    const std::string& kind = notice.kind;
    if (kind == "recovered") return withdraw(VoiceMoment::Refusal);
    if (kind == "accepted") return withdraw(VoiceMoment::Bot);
    if (kind == "refused") return keep(VoiceMoment::Refusal, notice);
    if (kind == "election-opened" || kind == "crowned" || kind == "not-crowned")
        return keep(VoiceMoment::Election, notice);
    if (kind == "round-ended") return keep(VoiceMoment::Round, notice);
    if (kind == "game-over") return keep(VoiceMoment::Winner, notice);
    // A move chosen from afar is shown to the table as a bot's is.
    if (kind == "bot-plan" || kind == "remote-plan") return keep(VoiceMoment::Bot, notice);
    if (kind == "teach") return keep(VoiceMoment::Teach, notice);
    // The referee asks the host an order the readers missed (issue 35): the
    // table hears that it waits for the host; the question is on the host's page.
    if (kind == "order-question") {
        referee::Notice waits = notice;
        waits.says = engine::Message("order.waiting");
        return keep(VoiceMoment::Reader, waits);
    }
    if (kind == "reader-fault") {
        const bool silent = notice.says && notice.says->code == "notice.reader-silent";
        return silent ? keep(VoiceMoment::Reader, notice) : withdraw(VoiceMoment::Reader);
    }
}

void TableVoice::keep(VoiceMoment moment, const referee::Notice& notice) {
    if (!settings_.enabled || !settings_.moments.has(moment)) return;
    const bool first = pending_.empty();
    pending_.push_back(Pending{moment, notice.kind, notice.says, notice.detail, clock_.nowMicros()});
    if (first && later_) later_();
}

// A line made stale: not said if it still waits here, withdrawn from the
// speaker's queue (or stopped) if it went there, and the pages told.
void TableVoice::withdraw(VoiceMoment moment) {
    std::erase_if(pending_, [&](const Pending& p) { return p.moment == moment; });
    const std::string key(voiceMomentName(moment));
    const auto last =
        std::find_if(lines_.rbegin(), lines_.rend(), [&](const VoiceLine& l) { return l.key == key; });
    if (last == lines_.rend() || !last->says) return;  // nothing said, or already withdrawn
    if (speaker_) speaker_->cancel(drivers::SpeechKey{key});
    record(VoiceLine{0, moment, key, std::nullopt, {}, words_.language(), clock_.nowMicros()});
}

void TableVoice::flush() {
    auto batch = std::move(pending_);
    pending_.clear();
    for (const auto& p : batch) {
        auto message = lineFor(p);
        if (!message) continue;
        if (holdsSecret(*message)) {
            ++secretsWithheld_;
            continue;
        }
        VoiceLine line{0,
                       p.moment,
                       std::string(voiceMomentName(p.moment)),
                       *message,
                       words_.say(*message),
                       words_.language(),
                       p.at};
        if (speaker_)
            speaker_->say(drivers::SpeechLine{drivers::SpeechKey{line.key}, line.text, {line.language}});
        record(std::move(line));
    }
}

void TableVoice::record(VoiceLine line) {
    line.id = nextId_++;
    lines_.push_back(std::move(line));
    while (lines_.size() > kKept) lines_.pop_front();
}

json TableVoice::linesJson() const {
    json lines = json::array();
    for (const auto& l : lines_) {
        json entry = {{"id", l.id}, {"key", l.key}, {"language", l.language}};
        if (l.says)
            entry["says"] = words::messageJson(*l.says);
        else
            entry["cancel"] = true;
        lines.push_back(std::move(entry));
    }
    return json{{"id", nextId_ - 1}, {"lines", std::move(lines)}};
}

std::vector<drivers::SpeechReport> TableVoice::takeReports() {
    return speaker_ ? speaker_->takeReports() : std::vector<drivers::SpeechReport>{};
}

std::optional<engine::Message> TableVoice::lineFor(const Pending& p) const {
    switch (p.moment) {
        case VoiceMoment::Refusal:
            return refusalLine(p);
        case VoiceMoment::Round:
            return roundLine(p);
        case VoiceMoment::Bot:
            return botLine(p);
        case VoiceMoment::Election:
        case VoiceMoment::Winner:
        case VoiceMoment::Reader:
        case VoiceMoment::Teach:
            return p.says;
    }
    return std::nullopt;
}

engine::MessageValue TableVoice::characterNamed(const std::string& slug) const {
    if (const auto* state = referee_.state()) {
        const auto& roster = state->rules().roster();
        const auto id = roster.find(slug);
        if (id.index < roster.size() && roster[id].id == slug) return say::character(roster[id]);
    }
    return say::character(slug, slug);
}

// Why, and what to put back: the refusal's message and its restore list
// (each a character and where it goes, or off the board).
std::optional<engine::Message> TableVoice::refusalLine(const Pending& p) const {
    const auto says = p.detail.find("says");
    if (says == p.detail.end()) return p.says;
    std::optional<engine::Message> why;
    try {
        why = words::messageFromJson(*says);
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
    std::vector<engine::MessageValue> steps;
    for (const auto& r : p.detail.value("restore", json::array())) {
        if (!r.is_object() || !r.contains("character") || !r["character"].is_string()) continue;
        const auto who = characterNamed(r["character"].get<std::string>());
        const auto& to = r.value("expected", json());
        if (to.is_string())
            steps.push_back(say::message(engine::Message(
                "guide.put-back",
                {{"character", who}, {"to", say::place(engine::parsePlace(to.get<std::string>()))}})));
        else
            steps.push_back(say::message(engine::Message("guide.take-off", {{"character", who}})));
    }
    if (steps.empty()) return why;
    return engine::Message("referee.refusal-steps",
                           {{"why", say::message(std::move(*why))}, {"steps", say::list(std::move(steps))}});
}

// The round, and who leads with how many points (the totals are in the
// notice once the round's cards are known; without them only the round).
std::optional<engine::Message> TableVoice::roundLine(const Pending& p) const {
    const std::int64_t round = p.detail.value("round", 0);
    const auto totals = p.detail.find("totals");
    const auto* state = referee_.state();
    if (totals == p.detail.end() || !totals->is_array() || totals->empty() || !state) {
        if (p.says) return p.says;
        engine::Message ended("event.round-ended");
        ended.args.push_back({"round", say::number(round)});
        return ended;
    }
    std::int64_t best = (*totals)[0].get<std::int64_t>();
    for (const auto& t : *totals) best = std::max<std::int64_t>(best, t.get<std::int64_t>());
    const auto names = names_ ? names_() : std::vector<std::string>{};
    const auto& rules = state->rules();
    std::vector<engine::MessageValue> leaders;
    for (std::size_t i = 0; i < totals->size(); ++i) {
        if ((*totals)[i].get<std::int64_t>() != best || static_cast<int>(i) >= rules.players()) continue;
        if (i < names.size() && !names[i].empty()) {
            leaders.push_back(say::player(names[i]));
        } else {
            engine::Message seat("seat.numbered");
            seat.args.push_back(
                {"seat", say::seat(rules.seatOf(engine::PlayerId{static_cast<std::uint8_t>(i)}))});
            leaders.push_back(say::message(std::move(seat)));
        }
    }
    const auto count = static_cast<std::int64_t>(leaders.size());
    engine::Message line("voice.round-ended");
    line.args.push_back({"round", say::number(round)});
    line.args.push_back({"leaders", say::list(std::move(leaders))});
    line.args.push_back({"count", say::number(count)});
    line.args.push_back({"points", say::number(best)});
    return line;
}

// The bot's placement or move, or one chosen from afar, for someone at the
// table to make.
std::optional<engine::Message> TableVoice::botLine(const Pending& p) const {
    const auto& plan = p.detail;
    if (!plan.is_object() || !plan.contains("character") || !plan.contains("seat")) return std::nullopt;
    const auto seat = engine::Seat{static_cast<std::uint8_t>(plan.value("seat", 0))};
    const auto who = characterNamed(plan.value("character", ""));
    auto placeOf = [&](const char* key) {
        const auto& v = plan.value(key, json());
        return say::place(v.is_string() ? engine::parsePlace(v.get<std::string>()) : engine::Place::Unknown);
    };
    const auto seatWords = say::message(engine::Message("seat.numbered", {{"seat", say::seat(seat)}}));
    // A move chosen from afar is a person's: "(from afar)", never "(bot)".
    const bool afar = p.kind == "remote-plan";
    if (plan.value("action", "") == "place")
        return engine::Message(afar ? "referee.remote-places" : "referee.bot-places",
                               {{"seat", seatWords}, {"character", who}, {"to", placeOf("to")}});
    return engine::Message(
        afar ? "referee.remote-moves" : "referee.bot-moves",
        {{"seat", seatWords}, {"character", who}, {"from", placeOf("from")}, {"to", placeOf("to")}});
}

}  // namespace vivaref::voice
