#include "daemon/server/host_self_test.hpp"

#include <string>

#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"

namespace vivaref::server {

using nlohmann::json;
using Outcome = ServiceAnswer::Outcome;

namespace {

// A refusal with its sentence in words beside the English one.
ServiceAnswer refusedSaying(Outcome outcome, std::string_view code, const engine::Message& says) {
    ServiceAnswer answer = ServiceAnswer::failed(outcome, code, words::inEnglish(says));
    answer.body["says"] = words::messageJson(says);
    return answer;
}

json said(const engine::Message& m) {
    return {{"text", words::inEnglish(m)}, {"says", words::messageJson(m)}};
}

}  // namespace

HostSelfTestSettings selfTestSettingsFor(const config::CastleConfig& config, const castle::Castle& castle) {
    return {setup::walkCastleOf(config, castle.layout()),
            [&castle](drivers::ReaderIndex r) { return castle.chipOf(r); },
            [&castle] { return castle.keysDown(); },
            {}};
}

HostSelfTest::HostSelfTest(HostSelfTestSettings settings, const drivers::LoopClock& clock)
    : settings_(std::move(settings)), clock_(clock) {}

void HostSelfTest::reset(HostSelfTestSettings settings) {
    settings_ = std::move(settings);
    walk_.reset();
    stopped_ = false;
}

void HostSelfTest::rawScan(drivers::ReaderIndex reader, const drivers::ScanResult& result,
                           drivers::Timestamp at) {
    if (running()) walk_->scanned(reader, result, at);
}

void HostSelfTest::inputTaken(const trace::TraceLine& line, std::optional<store::GameId> /*game*/) {
    if (!running()) return;
    if (const auto* button = std::get_if<trace::ButtonLine>(&line.input)) {
        walk_->pressed(button->station, button->key, clock_.now());
    } else if (const auto* host = std::get_if<trace::HostLine>(&line.input);
               host && host->kind == trace::HostKind::NewGame) {
        // A game takes the castle back: its LEDs, its keys.
        stopped_ = true;
        stoppedBecause_ = engine::Message("castle.walk.stopped-game");
    }
}

std::optional<drivers::LedStates> HostSelfTest::leds() const {
    if (!running()) return std::nullopt;
    return walk_->leds();
}

ServiceAnswer HostSelfTest::start(const json& body, bool gameInProgress) {
    if (gameInProgress)
        return refusedSaying(Outcome::Refused, "game-in-progress",
                             engine::Message("castle.walk.refused-game"));
    bool full = false;
    for (const auto& [key, value] : body.items()) {
        if (key == "action") continue;
        if (key == "full" && value.is_boolean()) {
            full = value.get<bool>();
        } else {
            return ServiceAnswer::failed(
                Outcome::BadRequest, "bad-request",
                "a self-test's start takes \"full\" (true or false), not \"" + key + "\" as sent");
        }
    }
    setup::WalkOptions options = settings_.options;
    options.full = full;
    walk_.emplace(settings_.castle, options, settings_.chipOf, clock_.now());
    walk_->setKeysDown(settings_.keysDown);
    full_ = full;
    stopped_ = false;
    return ServiceAnswer::ok(state());
}

ServiceAnswer HostSelfTest::request(std::string_view action, const json& body, bool gameInProgress) {
    if (action == "state") return ServiceAnswer::ok(state());
    if (action == "start") return start(body, gameInProgress);
    if (action != "answer" && action != "stop")
        return ServiceAnswer::failed(Outcome::BadRequest, "bad-request",
                                     "a self-test request is start, answer or stop");
    if (!running())
        return refusedSaying(Outcome::Refused, "not-running", engine::Message("castle.walk.not-running"));
    if (action == "stop") {
        stopped_ = true;
        stoppedBecause_ = engine::Message("castle.walk.stopped");
        return ServiceAnswer::ok(state());
    }
    const auto given = body.find("answer");
    const auto answer = given != body.end() && given->is_string()
                            ? setup::walkAnswerFromName(given->get<std::string>())
                            : std::nullopt;
    if (!answer || body.size() > 1)
        return ServiceAnswer::failed(
            Outcome::BadRequest, "bad-request",
            "an answer is {\"answer\": \"lit\" | \"not-lit\" | \"skip\" | \"done\"}");
    if (!walk_->answer(*answer, clock_.now()))
        return refusedSaying(Outcome::Refused, "not-asked", engine::Message("castle.walk.not-asked"));
    return ServiceAnswer::ok(state());
}

json HostSelfTest::state() {
    if (!walk_) return {{"running", false}, {"started", false}};
    if (running()) walk_->advance(clock_.now());
    const setup::CastleWalk& walk = *walk_;
    json out = {{"running", running()},
                {"started", true},
                {"full", full_},
                {"step", setup::walkStepName(walk.step())},
                {"item", walk.item()},
                {"items", walk.items()},
                {"answers", running() ? walk.answers() : std::vector<std::string>{}},
                {"faults", walk.faults()},
                {"findings", json::array()}};
    const engine::Message prompt = stopped_ ? stoppedBecause_ : walk.prompt();
    out["prompt"] = said(prompt);
    if (stopped_) out["stopped"] = true;
    for (const auto& f : walk.findings())
        out["findings"].push_back({{"finding", said(f.finding)}, {"fix", said(f.fix)}, {"note", f.note}});
    return out;
}

}  // namespace vivaref::server
