#include "daemon/server/host_setup.hpp"

#include <algorithm>
#include <string>

#include "daemon/config/config_file.hpp"
#include "daemon/config/config_writer.hpp"
#include "daemon/config/example_castle.hpp"
#include "daemon/setup/walk_words.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"

namespace vivaref::server {

using nlohmann::json;
using Outcome = ServiceAnswer::Outcome;
namespace say = engine::say;

namespace {

// A tag is taken this long after a reader first sees it: the readers that see it meanwhile.
constexpr drivers::Timestamp kSetupTagSettle{600};

ServiceAnswer setupRefused(Outcome outcome, std::string_view code, const engine::Message& says) {
    ServiceAnswer answer = ServiceAnswer::failed(outcome, code, words::inEnglish(says));
    answer.body["says"] = words::messageJson(says);
    return answer;
}

json setupSaid(const engine::Message& m) {
    return {{"text", words::inEnglish(m)}, {"says", words::messageJson(m)}};
}

engine::MessageValue setupPlace(const std::string& place) {
    engine::MessageValue v;
    v.kind = engine::MessageValue::Kind::Place;
    v.text = place;
    return v;
}

}  // namespace

config::CastleConfig exampleProfile(const config::CastleConfig& inForce) {
    config::ConfigProblems problems;
    const config::CastleConfig example = config::readCastleConfig(
        config::exampleCastleText(), std::string(config::kExampleCastleName), problems);
    // The castle's sections are the example's; the rest ([daemon], [club], [voice]) stays the table's.
    config::CastleConfig profile = inForce;
    profile.edition = example.edition;
    profile.readers = example.readers;
    profile.stations = example.stations;
    profile.placeLeds = example.placeLeds;
    profile.turnLeds = example.turnLeds;
    profile.buttonDebounce = example.buttonDebounce;
    profile.sensing = example.sensing;
    profile.backoff = example.backoff;
    profile.scanInterval = example.scanInterval;
    profile.fieldRule = example.fieldRule;
    profile.maxFieldsOn = example.maxFieldsOn;
    profile.keyLines = {};
    return profile;
}

config::CastleConfig realProfile(const config::CastleConfig& inForce) {
    config::CastleConfig profile = inForce.readers.empty() ? exampleProfile(inForce) : inForce;
    profile.daemon.hardware = config::Hardware::Real;
    profile.daemon.simBench.clear();  // the simulated castle's faults: nothing to do with real readers
    return profile;
}

config::CastleConfig setupResult(const config::CastleConfig& profile,
                                 const std::map<std::string, std::string>& places,
                                 const std::vector<setup::KeyCheck>& keys) {
    config::CastleConfig out = profile;
    for (auto& reader : out.readers)
        if (const auto seen = places.find(reader.name); seen != places.end()) reader.place = seen->second;
    // A key that answered as another: the asked key's wire is the other's line.
    auto pinOf = [&profile](const setup::WalkKey& key) -> std::optional<config::GpioPin> {
        for (const auto& s : profile.stations) {
            if (s.seat != static_cast<int>(key.station.number)) continue;
            switch (key.key) {
                case drivers::VoteKey::Yes:
                    return s.yes;
                case drivers::VoteKey::No:
                    return s.no;
                case drivers::VoteKey::Stomachache:
                    return s.stomachache;
            }
        }
        return std::nullopt;
    };
    for (const auto& check : keys) {
        if (!check.answered || *check.answered == check.asked) continue;
        const auto line = pinOf(*check.answered);
        if (!line) continue;
        for (auto& s : out.stations) {
            if (s.seat != static_cast<int>(check.asked.station.number)) continue;
            switch (check.asked.key) {
                case drivers::VoteKey::Yes:
                    s.yes = line;
                    break;
                case drivers::VoteKey::No:
                    s.no = line;
                    break;
                case drivers::VoteKey::Stomachache:
                    s.stomachache = line;
                    break;
            }
        }
    }
    return out;
}

HostSetup::HostSetup(HostSetupHooks hooks, const drivers::LoopClock& clock)
    : hooks_(std::move(hooks)), clock_(clock) {}

ServiceAnswer HostSetup::request(std::string_view action, const json& body, bool gameInProgress) {
    if (action == "state") return ServiceAnswer::ok(state());
    if (action == "start") return start(body, gameInProgress);
    if (action == "use-real") return useReal(gameInProgress);
    if (action == "put-aside") return putAside(gameInProgress);
    if (action != "answer" && action != "stop")
        return ServiceAnswer::failed(Outcome::BadRequest, "bad-request",
                                     "a set-up request is start, answer, stop, use-real or put-aside");
    if (!running())
        return setupRefused(Outcome::Refused, "not-running", engine::Message("castle.setup.not-running"));
    if (action == "stop") {
        abandon(engine::Message("castle.setup.cancelled"));
        return ServiceAnswer::ok(state());
    }
    return answer(body);
}

std::optional<ServiceAnswer> HostSetup::refusedToBegin(bool gameInProgress) {
    if (gameInProgress)
        return setupRefused(Outcome::Refused, "game-in-progress",
                            engine::Message("castle.setup.refused-game"));
    if (running()) return setupRefused(Outcome::Refused, "running", engine::Message("castle.setup.running"));
    if (auto busy = hooks_.busy ? hooks_.busy() : std::nullopt)
        return setupRefused(Outcome::Refused, "busy", *busy);
    return std::nullopt;
}

ServiceAnswer HostSetup::useReal(bool gameInProgress) {
    if (auto refused = refusedToBegin(gameInProgress)) return *refused;
    const CastleInForce castle = hooks_.castleInForce();
    if (castle.hardwareFixed)
        return setupRefused(Outcome::Refused, "hardware-fixed",
                            engine::Message("castle.setup.hardware-fixed"));
    config::CastleConfig inForce;
    if (ServiceAnswer found = hooks_.inForce(inForce); found.outcome != Outcome::Ok) return found;
    if (inForce.daemon.hardware == config::Hardware::Real)
        return setupRefused(
            Outcome::Refused, "already-real",
            engine::Message("castle.setup.already-real", {{"file", say::text(castle.file.string())}}));
    // Saved, then applied (or, under systemd, the service restarted to reach the devices).
    ServiceAnswer answer = hooks_.saveAndApply(realProfile(inForce));
    answer.body["castle"] = castleState();
    return answer;
}

ServiceAnswer HostSetup::putAside(bool gameInProgress) {
    if (auto refused = refusedToBegin(gameInProgress)) return *refused;
    ServiceAnswer answer = hooks_.putAside();
    answer.body["castle"] = castleState();
    return answer;
}

json HostSetup::castleState() const {
    if (!hooks_.castleInForce) return nullptr;
    const CastleInForce castle = hooks_.castleInForce();
    json out = {{"file", castle.file.string()},
                {"given", castle.given.string()},
                {"saved", castle.saved},
                {"hardware", castle.real ? "real" : "sim"},
                {"hardwareFixed", castle.hardwareFixed}};
    if (castle.problem) out["problem"] = setupSaid(*castle.problem);
    return out;
}

ServiceAnswer HostSetup::start(const json& body, bool gameInProgress) {
    if (auto refused = refusedToBegin(gameInProgress)) return *refused;
    std::string from = "in-force";
    for (const auto& [key, value] : body.items()) {
        if (key == "action") continue;
        if (key == "from" && value.is_string() && (value == "in-force" || value == "example")) {
            from = value.get<std::string>();
        } else {
            return ServiceAnswer::failed(Outcome::BadRequest, "bad-request",
                                         "a set-up's start takes \"from\": \"in-force\" or \"example\"");
        }
    }
    config::CastleConfig inForce;
    if (ServiceAnswer found = hooks_.inForce(inForce); found.outcome != Outcome::Ok) return found;
    config::CastleConfig profile = from == "example" ? exampleProfile(inForce) : inForce;
    if (profile.readers.empty())
        return setupRefused(Outcome::Refused, "no-readers", engine::Message("castle.setup.no-readers"));
    ServiceAnswer tried = hooks_.tryOn(profile);
    if (tried.outcome != Outcome::Ok) return tried;
    profile_ = std::move(profile);
    from_ = from;
    const HostSelfTestSettings settings = hooks_.walkSettings(profile_);
    castle_ = settings.castle;
    places_.clear();
    claimedBy_.clear();
    skipped_.clear();
    walk_.reset();
    text_.clear();
    problems_.clear();
    ended_.reset();
    endedBody_ = json::object();
    lastTags_.assign(castle_.readers.size(), {});
    step_ = Step::Places;
    spot_ = 0;
    nextSpot(clock_.now());
    return ServiceAnswer::ok(state());
}

void HostSetup::nextSpot(drivers::Timestamp /*now*/) {
    outcome_ = SpotOutcome::Waiting;
    clearing_ = true;
    firstSeen_.reset();
    seenBy_.clear();
    claimedReader_.clear();
}

bool HostSetup::castleEmpty() const {
    return std::all_of(lastTags_.begin(), lastTags_.end(), [](const auto& tags) { return tags.empty(); });
}

void HostSetup::rawScan(drivers::ReaderIndex reader, const drivers::ScanResult& result,
                        drivers::Timestamp at) {
    if (!running()) return;
    if (step_ == Step::Checks && walk_) {
        walk_->scanned(reader, result, at);
        if (walk_->done()) startReview();
        return;
    }
    if (step_ != Step::Places || reader >= lastTags_.size() || !result.ok()) return;
    lastTags_[reader] = result.tags();
    advance(at);
    if (outcome_ == SpotOutcome::Waiting && !clearing_ && !result.tags().empty()) {
        if (!firstSeen_) firstSeen_ = at;
        seenBy_.insert(reader);
    }
}

void HostSetup::inputTaken(const trace::TraceLine& line, std::optional<store::GameId> /*game*/) {
    if (!running()) return;
    if (const auto* button = std::get_if<trace::ButtonLine>(&line.input)) {
        if (step_ == Step::Checks && walk_) walk_->pressed(button->station, button->key, clock_.now());
    }
}

void HostSetup::advance(drivers::Timestamp now) {
    if (step_ == Step::Checks && walk_) {
        walk_->advance(now);
        if (walk_->done()) startReview();
        return;
    }
    if (step_ != Step::Places || outcome_ != SpotOutcome::Waiting) return;
    if (clearing_) {
        if (castleEmpty()) clearing_ = false;
        return;
    }
    if (firstSeen_ && now - *firstSeen_ >= kSetupTagSettle) settleSpot();
}

// The readers that saw the tag over the spot asked: what it comes to.
void HostSetup::settleSpot() {
    if (seenBy_.size() >= 2) {
        outcome_ = SpotOutcome::Coupled;
        return;
    }
    const std::string& reader = castle_.readers[*seenBy_.begin()].name;
    if (const auto claimed = claimedBy_.find(reader);
        claimed != claimedBy_.end() && claimed->second != spot_) {
        outcome_ = SpotOutcome::Claimed;
        claimedReader_ = reader;
        return;
    }
    assign(reader);
}

void HostSetup::assign(const std::string& reader) {
    places_[reader] = castle_.readers[spot_].place;
    claimedBy_[reader] = spot_;
    ++spot_;
    if (spot_ >= castle_.readers.size()) {
        startChecks();
        return;
    }
    nextSpot(clock_.now());
}

void HostSetup::startChecks() {
    step_ = Step::Checks;
    HostSelfTestSettings settings = hooks_.walkSettings(profile_);
    setup::WalkOptions options = settings.options;
    options.full = false;
    walk_.emplace(settings.castle, options, settings.chipOf, clock_.now());
    walk_->setKeysDown(settings.keysDown);
}

config::CastleConfig HostSetup::result() const {
    return setupResult(profile_, places_, walk_ ? walk_->results().keys : std::vector<setup::KeyCheck>{});
}

void HostSetup::startReview() {
    step_ = Step::Review;
    auto [text, problems] = hooks_.preview(result());
    text_ = std::move(text);
    problems_ = std::move(problems);
}

ServiceAnswer HostSetup::answer(const json& body) {
    const auto given = body.find("answer");
    if (given == body.end() || !given->is_string())
        return ServiceAnswer::failed(Outcome::BadRequest, "bad-request",
                                     "an answer is {\"answer\": NAME} (and \"reader\" for choose)");
    const std::string name = given->get<std::string>();
    for (const auto& [key, value] : body.items())
        if (key != "answer" && !(key == "reader" && name == "choose" && value.is_string()))
            return ServiceAnswer::failed(Outcome::BadRequest, "bad-request",
                                         "an answer takes \"answer\" (and \"reader\" for choose) only");
    const auto offered = answers();
    if (std::find(offered.begin(), offered.end(), name) == offered.end())
        return setupRefused(Outcome::Refused, "not-asked", engine::Message("castle.setup.not-asked"));
    const drivers::Timestamp now = clock_.now();
    switch (step_) {
        case Step::Places:
            if (name == "skip") {
                skipped_.push_back(spot_);
                ++spot_;
                if (spot_ >= castle_.readers.size())
                    startChecks();
                else
                    nextSpot(now);
            } else if (name == "retry") {
                nextSpot(now);
            } else if (name == "nothing") {
                outcome_ = SpotOutcome::Unseen;
            } else if (name == "choose") {
                const auto reader = body.find("reader");
                const std::string chosen = reader == body.end() ? "" : reader->get<std::string>();
                const bool among = std::any_of(seenBy_.begin(), seenBy_.end(), [&](drivers::ReaderIndex r) {
                    return castle_.readers[r].name == chosen;
                });
                if (!among)
                    return ServiceAnswer::failed(Outcome::BadRequest, "bad-request",
                                                 "choose one of the readers that saw the tag");
                if (const auto claimed = claimedBy_.find(chosen); claimed != claimedBy_.end()) {
                    outcome_ = SpotOutcome::Claimed;
                    claimedReader_ = chosen;
                    return setupRefused(Outcome::Refused, "claimed", prompt());
                }
                assign(chosen);
            }
            break;
        case Step::Checks: {
            const auto walkAnswer = setup::walkAnswerFromName(name);
            if (!walkAnswer || !walk_->answer(*walkAnswer, now))
                return setupRefused(Outcome::Refused, "not-asked", engine::Message("castle.setup.not-asked"));
            if (walk_->done()) startReview();
            break;
        }
        case Step::Review: {
            if (!problems_.empty())
                return setupRefused(Outcome::Refused, "problems",
                                    engine::Message("castle.setup.has-problems"));
            ServiceAnswer saved = hooks_.saveAndApply(result());
            if (saved.outcome != Outcome::Ok && saved.body.contains("save")) {
                // Saved, but its castle did not open: serve is back on the castle it had.
                step_ = Step::Finished;
                walk_.reset();
                ended_ = engine::Message("castle.setup.not-applied");
                endedBody_ = saved.body;
                saved.body["setup"] = state();
                return saved;
            }
            if (saved.outcome != Outcome::Ok) {
                // The previous configuration stays in force; the castle goes back on it.
                abandon(engine::Message("castle.setup.not-saved"));
                saved.body["setup"] = state();
                return saved;
            }
            step_ = Step::Finished;
            ended_ = engine::Message(saved.body.value("restarting", false) ? "castle.setup.saved-restarting"
                                                                           : "castle.setup.saved");
            endedBody_ = saved.body;
            break;
        }
        case Step::Idle:
        case Step::Finished:
            break;
    }
    return ServiceAnswer::ok(state());
}

void HostSetup::abandon(engine::Message why) {
    if (!running()) return;
    step_ = Step::Finished;
    walk_.reset();
    ended_ = std::move(why);
    endedBody_ = {{"abandoned", true}};
    hooks_.backToInForce();
}

void HostSetup::abandonForGame() { abandon(engine::Message("castle.setup.stopped-game")); }

std::optional<drivers::LedStates> HostSetup::leds() const {
    if (!running() || step_ != Step::Checks || !walk_ || walk_->done()) return std::nullopt;
    return walk_->leds();
}

std::vector<std::string> HostSetup::answers() const {
    switch (step_) {
        case Step::Places:
            switch (outcome_) {
                case SpotOutcome::Waiting:
                    return clearing_ ? std::vector<std::string>{"skip"}
                                     : std::vector<std::string>{"nothing", "skip"};
                case SpotOutcome::Unseen:
                case SpotOutcome::Claimed:
                    return {"retry", "skip"};
                case SpotOutcome::Coupled:
                    return {"choose", "retry", "skip"};
                case SpotOutcome::None:
                    return {};
            }
            return {};
        case Step::Checks:
            return walk_ ? walk_->answers() : std::vector<std::string>{};
        case Step::Review:
            return {"save"};
        case Step::Idle:
        case Step::Finished:
            return {};
    }
    return {};
}

engine::Message HostSetup::prompt() const {
    switch (step_) {
        case Step::Idle:
            return engine::Message("castle.setup.idle");
        case Step::Finished:
            return ended_.value_or(engine::Message("castle.setup.idle"));
        case Step::Review:
            if (!problems_.empty())
                return engine::Message("castle.setup.review-problems",
                                       {{"n", say::number(static_cast<std::int64_t>(problems_.size()))}});
            return engine::Message("castle.setup.review");
        case Step::Checks:
            return walk_->prompt();
        case Step::Places:
            break;
    }
    const setup::WalkReader& over = castle_.readers[spot_];
    switch (outcome_) {
        case SpotOutcome::Unseen:
            return engine::Message("castle.setup.unseen",
                                   {{"p", setupPlace(over.place)}, {"reader", say::text(over.name)}});
        case SpotOutcome::Coupled: {
            std::vector<std::string> names;
            for (auto r : seenBy_) names.push_back(castle_.readers[r].name);
            return engine::Message(
                "castle.setup.coupled",
                {{"p", setupPlace(over.place)}, {"a", say::text(names[0])}, {"b", say::text(names[1])}});
        }
        case SpotOutcome::Claimed: {
            const std::string& other = castle_.readers[claimedBy_.at(claimedReader_)].place;
            return engine::Message("castle.setup.claimed", {{"reader", say::text(claimedReader_)},
                                                            {"p", setupPlace(over.place)},
                                                            {"q", setupPlace(other)}});
        }
        case SpotOutcome::Waiting:
        case SpotOutcome::None:
            break;
    }
    if (clearing_) return engine::Message("castle.walk.tag-lift");
    int spot = 0, spots = 0;
    for (std::size_t r = 0; r < castle_.readers.size(); ++r) {
        if (castle_.readers[r].place != over.place) continue;
        ++spots;
        if (r <= spot_) ++spot;
    }
    return setup::words::tagPrompt(over, spot, spots);
}

json HostSetup::state() {
    if (step_ == Step::Idle) return {{"running", false}, {"started", false}, {"castle", castleState()}};
    advance(clock_.now());
    json out = {{"running", running()},
                {"started", true},
                {"from", from_},
                {"answers", answers()},
                {"readers", castle_.readers.size()},
                {"assigned", json::object()},
                {"skipped", json::array()}};
    const char* step = "done";
    switch (step_) {
        case Step::Places:
            step = "places";
            break;
        case Step::Checks:
            step = "checks";
            break;
        case Step::Review:
            step = "review";
            break;
        default:
            break;
    }
    out["step"] = step;
    out["castle"] = castleState();
    out["prompt"] = setupSaid(prompt());
    for (const auto& [reader, place] : places_) out["assigned"][reader] = place;
    for (auto s : skipped_) out["skipped"].push_back(castle_.readers[s].name);
    if (step_ == Step::Places) {
        out["spot"] = {{"item", spot_},
                       {"reader", castle_.readers[spot_].name},
                       {"place", castle_.readers[spot_].place},
                       {"outcome", outcome_ == SpotOutcome::Coupled   ? "coupled"
                                   : outcome_ == SpotOutcome::Claimed ? "claimed"
                                   : outcome_ == SpotOutcome::Unseen  ? "unseen"
                                   : clearing_                        ? "clearing"
                                                                      : "waiting"}};
        json seen = json::array();
        for (auto r : seenBy_) seen.push_back(castle_.readers[r].name);
        out["spot"]["seenBy"] = seen;
        if (outcome_ == SpotOutcome::Coupled) {
            std::vector<std::string> names;
            for (auto r : seenBy_) names.push_back(castle_.readers[r].name);
            out["fix"] = setupSaid(engine::Message("castle.fix.coupled",
                                                   {{"a", say::text(names[0])}, {"b", say::text(names[1])}}));
        }
    }
    if (walk_) {
        out["checks"] = {{"step", setup::walkStepName(walk_->step())},
                         {"item", walk_->item()},
                         {"items", walk_->items()},
                         {"findings", json::array()}};
        for (const auto& f : walk_->findings())
            out["checks"]["findings"].push_back(
                {{"finding", setupSaid(f.finding)}, {"fix", setupSaid(f.fix)}, {"note", f.note}});
    }
    if (step_ == Step::Review) {
        out["ini"] = config::withSecretsHidden(text_);  // the file keeps them; a screen does not show them
        out["problems"] = json::array();
        for (const auto& p : problems_)
            out["problems"].push_back(
                {{"line", p.line}, {"key", p.key}, {"reason", p.reason}, {"text", p.text()}});
    }
    if (step_ == Step::Finished) out["ended"] = endedBody_;
    return out;
}

}  // namespace vivaref::server
