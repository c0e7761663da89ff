#include "daemon/simulation/simulation_rig.hpp"

#include <algorithm>

#include "daemon/trace/trace_reader.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "engine/roster.hpp"

namespace vivaref::simulation {

using namespace std::chrono_literals;

namespace {

// A deadline that stays at the same time after this many ticks is the
// referee's bug; the rig stops honouring it until time moves on, so that a
// trace always ends.
constexpr int kMaxTicksAtSameTime = 3;

referee::HostRequest hostRequest(const trace::HostLine& host) {
    switch (host.kind) {
        case trace::HostKind::NewGame:
            return referee::NewGameRequest{host.payload, host.players};
        case trace::HostKind::Deal:
            return referee::DealRequest{host.payload};
        case trace::HostKind::Keep:
            return referee::KeepRequest{host.payload};
        case trace::HostKind::Reshuffle:
            return referee::ReshuffleRequest{host.payload};
        case trace::HostKind::Undo:
            return referee::UndoRequest{};
        case trace::HostKind::Pause:
            return referee::PauseRequest{};
        case trace::HostKind::Resume:
            return referee::ResumeRequest{};
        case trace::HostKind::Abandon:
            break;
    }
    return referee::AbandonRequest{};
}

drivers::ScanErrorKind faultKind(const std::string& what) {
    return what.find("no answer") != std::string::npos ? drivers::ScanErrorKind::NoAnswer
                                                       : drivers::ScanErrorKind::Protocol;
}

}  // namespace

drivers::TagUid SimulationRig::tagUid(const trace::TagName& tag) {
    if (tag.isUid()) {
        std::string why;
        if (auto uid = drivers::TagUid::tryFromHex(tag.text, why)) return *uid;
    }
    return drivers::simulatedTagUid(tag.text);
}

SimulationRig::SimulationRig(RigOptions options, store::GameStore* store)
    : options_(std::move(options)),
      store_(store),
      board_(drivers::standardBoardLayout(), options_.board),
      referee_(options_.referee, store),
      traceDriven_(board_.layout().readerCount(), false) {
    options_.sensing.validate();
    for (const auto* roster : {&engine::classicRoster(), &engine::roster2024()})
        for (const auto& c : roster->characters()) enrolled_.insert(c.id);
    buildPipeline();
}

void SimulationRig::buildPipeline() {
    drivers::TagRegistry registry;
    for (const auto& slug : enrolled_) registry.enrol(drivers::simulatedTagUid(slug), {slug});
    pipeline_ =
        std::make_unique<drivers::SensingPipeline>(board_.layout(), std::move(registry), options_.sensing);
}

// A custom roster's characters get their simulated tags too. The pipeline is
// made anew with them: it learns where the tags already on the board stand
// within a scan cycle and a stability window.
void SimulationRig::enrolSetup(const nlohmann::json& setup) {
    auto roster = setup.find("roster");
    if (roster == setup.end() || !roster->is_array()) return;
    bool added = false;
    for (const auto& entry : *roster) {
        if (!entry.is_object()) continue;
        auto id = entry.find("id");
        if (id == entry.end() || !id->is_string()) continue;
        const std::string slug = id->get<std::string>();
        if (slug.empty() || enrolled_.contains(slug)) continue;
        // Two slugs whose simulated UIDs collide cannot both be enrolled: the later one stays a stray tag.
        const auto uid = drivers::simulatedTagUid(slug);
        bool clash = false;
        for (const auto& other : enrolled_) clash = clash || drivers::simulatedTagUid(other) == uid;
        if (clash) continue;
        enrolled_.insert(slug);
        added = true;
    }
    if (added) buildPipeline();
}

std::optional<std::string> SimulationRig::check(const drivers::BoardLayout& layout,
                                                const trace::TraceLine& line) {
    if (const auto* scan = std::get_if<trace::ScanLine>(&line.input)) {
        if (!layout.findReader(scan->reader))
            return "the board has no reader \"" + scan->reader.name +
                   "\" (floor0..floor5, throne, wc3, wc4, "
                   "dungeon1..dungeon3)";
    } else if (const auto* fault = std::get_if<trace::ReaderFaultLine>(&line.input)) {
        if (!layout.findReader(fault->reader))
            return "the board has no reader \"" + fault->reader.name +
                   "\" (floor0..floor5, throne, wc3, wc4, "
                   "dungeon1..dungeon3)";
    } else if (const auto* put = std::get_if<trace::PutLine>(&line.input)) {
        if (!layout.findPlace(put->place))
            return "the board has no place \"" + put->place.name + "\" (0..6, wc3, wc4, dungeon1..dungeon3)";
    }
    return std::nullopt;
}

std::optional<std::string> SimulationRig::consume(const trace::TraceLine& line) {
    lastHostAnswer_.reset();
    if (auto problem = check(line)) return problem;
    const Timestamp t{line.t};
    runUntil(t);
    clock_ = std::max(clock_, t);
    apply(line);
    drain();
    record(line.t, trace::writeTraceLine(line));
    ++counters_.linesConsumed;
    return std::nullopt;
}

void SimulationRig::apply(const trace::TraceLine& line) {
    const Timestamp t = clock_;
    std::visit(
        [&](const auto& input) {
            using T = std::decay_t<decltype(input)>;
            if constexpr (std::is_same_v<T, trace::HostLine>) {
                if (input.kind == trace::HostKind::NewGame) enrolSetup(input.payload);
                lastHostAnswer_ = referee_.host(hostRequest(input), t);
                if (!lastHostAnswer_->ok)
                    ++counters_
                          .hostRefusals[lastHostAnswer_->code.empty() ? "refused" : lastHostAnswer_->code];
            } else if constexpr (std::is_same_v<T, trace::ScanLine>) {
                const auto reader = *board_.layout().findReader(input.reader);
                traceDriven_[reader] = true;
                pipeline_->addScan(reader, drivers::TagSet(input.tags.begin(), input.tags.end()), t);
                ++counters_.scans;
                observe(t);
            } else if constexpr (std::is_same_v<T, trace::ReaderFaultLine>) {
                const auto reader = *board_.layout().findReader(input.reader);
                traceDriven_[reader] = true;
                pipeline_->addScan(reader,
                                   drivers::ScanError{faultKind(input.what),
                                                      "reader " + input.reader.name + ": " + input.what},
                                   t);
                ++counters_.scans;
                observe(t);
            } else if constexpr (std::is_same_v<T, trace::PutLine>) {
                (void)board_.put(tagUid(input.tag), input.place);  // check() saw the place
            } else if constexpr (std::is_same_v<T, trace::LiftLine>) {
                board_.lift(tagUid(input.tag));
            } else {
                referee_.press(drivers::ButtonEvent{input.station, input.key, t});
            }
        },
        line.input);
}

void SimulationRig::runUntil(Timestamp end) {
    for (;;) {
        std::optional<Timestamp> deadline = referee_.nextDeadline();
        if (deadline) {
            *deadline = std::max(*deadline, clock_);  // overdue: now
            if (*deadline == lastTickAt_ && ticksAtSameTime_ >= kMaxTicksAtSameTime) deadline.reset();
        }
        // A scan and a deadline at the same time: the scan (an input) first.
        if (nextScanAt_ < end && !(deadline && *deadline < nextScanAt_)) {
            scanOnce(nextScanAt_);
        } else if (deadline && *deadline < end) {
            tick(*deadline);
        } else {
            break;
        }
    }
}

void SimulationRig::scanOnce(Timestamp at) {
    clock_ = std::max(clock_, at);
    for (const auto& scan : board_.advanceTo(at)) {
        if (traceDriven_[scan.reader]) continue;  // the trace speaks for this reader
        pipeline_->addScan(scan.reader, scan.result, scan.at);
        ++counters_.scans;
    }
    nextScanAt_ = at + options_.board.scanInterval;
    observe(clock_);
}

void SimulationRig::tick(Timestamp at) {
    clock_ = std::max(clock_, at);
    ticksAtSameTime_ = at == lastTickAt_ ? ticksAtSameTime_ + 1 : 1;
    lastTickAt_ = at;
    referee_.tick(clock_);
    drain();
}

void SimulationRig::observe(Timestamp at) {
    drivers::SensingUpdate update = pipeline_->update(at);
    if (options_.onJudged && !update.changes.empty()) {
        const int acceptedBefore = referee_.counters().actionsAccepted;
        const auto start = std::chrono::steady_clock::now();
        referee_.observe(update, at);
        (void)referee_.leds(at);
        const auto took = std::chrono::steady_clock::now() - start;
        options_.onJudged(update, took, referee_.counters().actionsAccepted - acceptedBefore);
    } else {
        referee_.observe(update, at);
    }
    drain();
}

void SimulationRig::drain() {
    for (const auto& notice : referee_.takeNotices())
        if (options_.onNotice && notice.audience == referee::Notice::Audience::Public)
            options_.onNotice(notice);
    for (const auto& chance : referee_.takeOwnChance()) {
        // Written as the host line that would have made the same decision.
        nlohmann::json line = {{"t", chance.at.count()}, {"host", chance.host}};
        trace::LineParse parsed = trace::parseTraceLine(line.dump());
        record(chance.at.count(), parsed.line ? trace::writeTraceLine(*parsed.line) : line.dump());
        ++counters_.ownChanceLines;
    }
}

Timestamp SimulationRig::finish() {
    const Timestamp settled = clock_ + options_.settleFor;
    runUntil(settled);
    const Timestamp limit = settled + options_.finishLimit;
    while (auto deadline = referee_.nextDeadline()) {
        const Timestamp next = std::max(*deadline, clock_) + 1ms;
        if (next > limit || (*deadline == lastTickAt_ && ticksAtSameTime_ >= kMaxTicksAtSameTime)) break;
        runUntil(next);
    }
    return clock_;
}

void SimulationRig::record(std::int64_t t, const std::string& text) {
    const auto game = referee_.game();
    if (!game) {
        if (held_.size() >= options_.heldLinesLimit) held_.erase(held_.begin());
        held_.emplace_back(t, text);
        return;
    }
    counters_.games.insert(game->value);
    if (!store_) {
        held_.clear();
        return;
    }
    if (recordingGame_ != game) {
        recordingGame_ = game;
        for (const auto& [heldT, heldText] : held_) store_->appendTrace(*game, heldT, heldText);
        held_.clear();
    }
    store_->appendTrace(*game, t, text);
}

}  // namespace vivaref::simulation
