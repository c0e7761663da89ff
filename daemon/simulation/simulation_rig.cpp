#include "daemon/simulation/simulation_rig.hpp"

#include <algorithm>

#include "daemon/trace/trace_check.hpp"
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
        case trace::HostKind::NewGame: {
            referee::NewGameRequest request{host.payload,
                                            host.players,
                                            host.favourites == "physical" ? referee::FavouritesMode::Physical
                                                                          : referee::FavouritesMode::Dealt,
                                            {},
                                            {}};
            // The trace reader checked the form already.
            if (host.bots.is_array())
                if (auto bots = referee::readBotSeats(host.bots);
                    auto* seats = std::get_if<std::vector<referee::BotSeatRequest>>(&bots))
                    request.bots = std::move(*seats);
            if (host.members.is_array())
                for (const auto& m : host.members)
                    request.members.push_back(m.is_number_integer()
                                                  ? std::optional<std::int64_t>(m.get<std::int64_t>())
                                                  : std::nullopt);
            return request;
        }
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
        case trace::HostKind::Reveal:
            return referee::RevealRequest{host.payload};
        case trace::HostKind::Abandon:
            break;
    }
    return referee::AbandonRequest{};
}

// The referee judges on the castle's layout, whatever the options said: it
// finds a failing or faulty reader's place by the reader's name there.
RigOptions onCastleLayout(RigOptions options) {
    if (!options.layout) options.layout = drivers::standardBoardLayout();
    options.referee.layout = options.layout;
    return options;
}

// The trace castle's board model and its options: the castle model's on the rig's board.
castle::BoardModel boardModel(const RigOptions& options) {
    return options.castleModel ? castle::BoardModel::SimulatedCastle : castle::BoardModel::RoundRobin;
}
castle::SimulatedCastleOptions traceCastleOptions(const RigOptions& options) {
    castle::SimulatedCastleOptions out = options.castleModel.value_or(castle::SimulatedCastleOptions{});
    out.board = options.board;
    return out;
}

}  // namespace

SimulationRig::SimulationRig(RigOptions options, store::GameStore* store)
    : options_(onCastleLayout(std::move(options))),
      castle_(*options_.layout, castleClock_, boardModel(options_), traceCastleOptions(options_)),
      referee_(options_.referee, store),
      castleMode_(options_.castleScans),
      runs_(castle_.layout().readerCount(), options_.sensing) {
    options_.sensing.validate();
    castle_.start(*this);
    if (!options_.registry)
        for (const auto* roster : {&engine::classicRoster(), &engine::roster2024()})
            for (const auto& c : roster->characters()) enrolled_.insert(c.id);
    buildPipeline();
}

void SimulationRig::buildPipeline() {
    drivers::TagRegistry registry = options_.registry ? *options_.registry : drivers::TagRegistry{};
    for (const auto& slug : enrolled_) registry.enrol(drivers::simulatedTagUid(slug), {slug});
    pipeline_ = std::make_unique<drivers::SensingPipeline>(layout(), std::move(registry), options_.sensing);
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
        if (options_.registry && options_.registry->findCharacter({slug})) continue;  // enrolled for real
        // Two slugs whose simulated UIDs collide cannot both be enrolled: the later one stays a stray tag.
        const auto uid = drivers::simulatedTagUid(slug);
        bool clash = options_.registry && options_.registry->find(uid);
        for (const auto& other : enrolled_) clash = clash || drivers::simulatedTagUid(other) == uid;
        if (clash) continue;
        enrolled_.insert(slug);
        added = true;
    }
    if (added) buildPipeline();
}

namespace {

// A `once` scan or reader-fault line: one inventory of a castle that scans on its own.
bool isOnce(const trace::TraceInput& input) {
    if (const auto* scan = std::get_if<trace::ScanLine>(&input)) return scan->once;
    if (const auto* fault = std::get_if<trace::ReaderFaultLine>(&input)) return fault->once;
    return false;
}

// What the trace castle's board stands in for: puts, lifts, and readers' holdings.
bool needsBoard(const trace::TraceInput& input) {
    return std::holds_alternative<trace::PutLine>(input) || std::holds_alternative<trace::LiftLine>(input) ||
           ((std::holds_alternative<trace::ScanLine>(input) ||
             std::holds_alternative<trace::ReaderFaultLine>(input)) &&
            !isOnce(input));
}

}  // namespace

std::optional<std::string> SimulationRig::consume(const trace::TraceLine& line) {
    lastHostAnswer_.reset();
    if (auto problem = trace::lineProblem(layout(), line)) return problem;
    if (castleMode_ && needsBoard(line.input))
        return "this trace records a castle's own scans (\"once\" lines): a put, a lift or a scan "
               "without \"once\" needs the simulated board, which no longer scans";
    // From the first `once` line on the trace speaks for every reader: the
    // board scans nothing more, not even before the line.
    const bool once = isOnce(line.input);
    if (once) castleMode_ = true;
    const Timestamp t{line.t};
    runUntil(t);
    clock_ = std::max(clock_, t);
    if (once) {
        // One scan: scan() tells the observers and counts the line, unless it only repeats the last ones.
        apply(line);
        return std::nullopt;
    }
    // Told before it acts, so that a log writes it in the same transaction
    // as any decision it leads to (a vote is never on disk without its key
    // press). A new game's line belongs to the game it makes: told once that
    // exists.
    const auto* host = std::get_if<trace::HostLine>(&line.input);
    const bool newGame = host != nullptr && host->kind == trace::HostKind::NewGame;
    if (!newGame) {
        const auto game = gameNow();
        for (auto* observer : observers_) observer->lineConsumed(line, game);
    }
    apply(line);
    drain();
    if (newGame) {
        const auto game = gameNow();
        for (auto* observer : observers_) observer->lineConsumed(line, game);
    }
    ++counters_.linesConsumed;
    return std::nullopt;
}

void SimulationRig::apply(const trace::TraceLine& line) {
    const Timestamp t = clock_;
    if (castle::TraceCastle::takes(line.input)) {
        // A put, a lift, what a reader holds (lineProblem() saw the place or the
        // reader), or one scan, which comes back through scanned() at once.
        castleClock_.set(t);
        castle_.take(line.input);
    } else if (const auto* host = std::get_if<trace::HostLine>(&line.input)) {
        if (host->kind == trace::HostKind::NewGame) enrolSetup(host->payload);
        lastHostAnswer_ = referee_.host(hostRequest(*host), t);
        if (!lastHostAnswer_->ok)
            ++counters_.hostRefusals[lastHostAnswer_->code.empty() ? "refused" : lastHostAnswer_->code];
    } else {
        const auto& button = std::get<trace::ButtonLine>(line.input);
        referee_.press(drivers::ButtonEvent{button.station, button.key, t});
    }
}

void SimulationRig::runUntil(Timestamp end) {
    using castle::Microseconds;
    // The castle model's board scans when it does, at whole microseconds:
    // everything is compared in microseconds (a millisecond's deadline at its start).
    const bool derived = derivedScans();
    const Microseconds never = Microseconds::max();
    for (;;) {
        Microseconds deadlineAt = never;
        if (const auto due = referee_.nextDeadline()) {
            const Timestamp at = std::max(*due, clock_);  // overdue: now
            if (at != lastTickAt_ || ticksAtSameTime_ < kMaxTicksAtSameTime) deadlineAt = at;
        }
        // The trace castle's board scans every scan interval (round robin),
        // and the pipeline is updated at each; a castle that scans on its
        // own, or the castle model, scans when it does, so the pipeline's own
        // deadlines (a stability window, an in-hand grace) are honoured
        // exactly when due.
        Microseconds sensingAt = never;
        if (castleMode_ || derived)
            if (const auto due = pipeline_->nextDeadline()) {
                const Timestamp at = std::max(*due, clock_);
                if (at > lastSenseAt_) sensingAt = at;  // already updated then: nothing is due
            }
        const Microseconds scanAt = castleMode_ ? never : castle_.nextDue().value_or(never);
        const Microseconds endAt(end);
        // At the same time: a scan (an input) first, then the pipeline, then the referee.
        if (scanAt < endAt && scanAt <= sensingAt && scanAt <= deadlineAt) {
            // Its scans come back through scanned().
            castleClock_.set(scanAt);
            (void)castle_.step();
        } else if (sensingAt < endAt && sensingAt <= deadlineAt) {
            sense(std::chrono::floor<Timestamp>(sensingAt));
        } else if (deadlineAt < endAt) {
            tick(std::chrono::floor<Timestamp>(deadlineAt));
        } else {
            break;
        }
    }
}

void SimulationRig::scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result) {
    scan(reader, result, castleClock_.now());
}

void SimulationRig::scan(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at) {
    const Timestamp t = std::max(at, clock_);
    runUntil(t);
    clock_ = t;
    if (options_.onRawScan) options_.onRawScan(reader, result, t);
    if (derivedScans()) {
        // The castle model's: taken as a castle's are, but the trace's puts
        // and lifts are the record (the observers hear nothing of it).
        lastDueAt_ = t;
        if (runs_.repeats(reader, result, t)) {
            ++counters_.repeatedScans;
            return;
        }
        pipeline_->addScan(reader, result, t);
        ++counters_.scans;
        lastSenseAt_ = t;
        observe(t);
        return;
    }
    if (!castleMode_) {
        // The board's: the trace's puts and lifts are the record, and the
        // pipeline is updated at each of its scans.
        pipeline_->addScan(reader, result, t);
        ++counters_.scans;
        lastDueAt_ = t;
        observe(t);
        return;
    }
    const bool taken = !runs_.repeats(reader, result, t);
    const auto game = taken ? gameNow() : referee_.game();
    for (auto* observer : observers_) observer->castleScanned(reader, result, t, taken, game);
    if (!taken) {
        ++counters_.repeatedScans;
        return;
    }
    ++counters_.linesConsumed;
    pipeline_->addScan(reader, result, t);
    ++counters_.scans;
    lastSenseAt_ = t;
    observe(t);
}

void SimulationRig::sense(Timestamp at) {
    clock_ = std::max(clock_, at);
    lastSenseAt_ = at;
    lastDueAt_ = at;
    observe(clock_);
}

void SimulationRig::tick(Timestamp at) {
    clock_ = std::max(clock_, at);
    ticksAtSameTime_ = at == lastTickAt_ ? ticksAtSameTime_ + 1 : 1;
    lastTickAt_ = at;
    lastDueAt_ = at;
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
        const auto game = gameNow();
        for (auto* observer : observers_) observer->ownChance(chance, game);
        ++counters_.ownChance;
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

std::optional<store::GameId> SimulationRig::gameNow() {
    const auto game = referee_.game();
    if (game) counters_.games.insert(game->value);
    return game;
}

}  // namespace vivaref::simulation
