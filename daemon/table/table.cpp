#include "daemon/table/table.hpp"

#include <algorithm>

#include "daemon/table/host_line.hpp"
#include "engine/roster.hpp"

namespace vivaref::table {

namespace {

// A deadline that stays at the same time after this many ticks is the
// referee's bug; the table stops honouring it until time moves on, so that a
// replay always ends and a live loop never spins.
constexpr int kMaxTicksAtSameTime = 3;

// The referee judges on the castle's layout, whatever the options said.
TableOptions onLayout(TableOptions options, const drivers::BoardLayout& layout) {
    options.referee.layout = layout;
    options.sensing.validate();
    return options;
}

}  // namespace

Table::Table(drivers::BoardLayout layout, TableOptions options, store::GameStore* store,
             const drivers::LoopClock& clock, ScanFeed feed)
    : layout_(std::move(layout)),
      options_(onLayout(std::move(options), layout_)),
      clock_(clock),
      referee_(options_.referee, store),
      feed_(feed),
      runs_(layout_.readerCount(), options_.sensing) {
    if (!options_.registry)
        for (const auto* roster : {&engine::classicRoster(), &engine::roster2024()})
            for (const auto& c : roster->characters()) enrolled_.insert(c.id);
    buildPipeline();
}

void Table::buildPipeline() {
    drivers::TagRegistry registry = options_.registry ? *options_.registry : drivers::TagRegistry{};
    for (const auto& slug : enrolled_) registry.enrol(drivers::simulatedTagUid(slug), {slug});
    pipeline_ = std::make_unique<drivers::SensingPipeline>(layout_, std::move(registry), options_.sensing);
}

// A custom roster's characters get their simulated tags too. The pipeline is
// made anew with them: it learns where the tags already on the board stand
// within a scan cycle and a stability window.
void Table::enrolSetup(const nlohmann::json& setup) {
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

// --- the castle's sink ----------------------------------------------------------

void Table::scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result) {
    scanAt(reader, result, stamp());
}

void Table::pressed(drivers::StationId station, drivers::VoteKey key) { pressAt(station, key, stamp()); }

void Table::problem(const std::string& message) {
    if (message == lastProblem_) return;
    lastProblem_ = message;
    if (options_.onProblem) options_.onProblem(message);
}

Timestamp Table::stamp() const {
    Timestamp at = std::max(clock_.now(), now_);
    if (lastDueAt_ && at <= *lastDueAt_) at = *lastDueAt_ + Timestamp(1);
    return at;
}

// --- inputs -------------------------------------------------------------------------

Timestamp Table::catchUp(Timestamp at) {
    const Timestamp t = std::max(at, now_);
    runUntil(t);
    now_ = t;
    return t;
}

void Table::scanAt(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at) {
    const Timestamp t = catchUp(at);
    for (auto* observer : observers_) observer->rawScan(reader, result, t);
    if (feed_ == ScanFeed::EveryScan) {
        // A replayed board's: the trace's puts and lifts are the record, and
        // the pipeline is updated at each of its scans.
        pipeline_->addScan(reader, result, t);
        ++counters_.scans;
        lastDueAt_ = t;
        observe(t);
        return;
    }
    if (feed_ == ScanFeed::OwnScansDerived) {
        // A replayed board scanned as a castle: taken as a castle's scans
        // are, but nobody is told (the trace's puts and lifts are the record).
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

void Table::pressAt(drivers::StationId station, drivers::VoteKey key, Timestamp at) {
    const Timestamp t = catchUp(at);
    // Told before it acts: a vote is never on disk without its key press.
    tell(trace::TraceLine{t.count(), trace::ButtonLine{station, key}});
    referee_.press(drivers::ButtonEvent{station, key, t});
    drain();
    ++counters_.linesConsumed;
    ++counters_.presses;
    tellChanged();
}

referee::HostAnswer Table::host(const trace::HostLine& request, Timestamp at) {
    const Timestamp t = catchUp(at);
    const trace::TraceLine line{t.count(), request};
    // A new game's line belongs to the game it makes: told once that exists.
    const bool newGame = request.kind == trace::HostKind::NewGame;
    if (!newGame) tell(line);
    if (newGame) enrolSetup(request.payload);
    auto answer = referee_.host(hostRequest(request), t);
    // A phone's vote not counted is private, as a key's is: its code (a card
    // not held) could tell about a hand.
    if (!answer.ok)
        ++counters_.hostRefusals[request.kind == trace::HostKind::Vote ? "vote-not-counted"
                                 : answer.code.empty()                 ? "refused"
                                                                       : answer.code];
    drain();
    if (newGame) tell(answer.ok ? withTableSeats(line) : line);
    ++counters_.linesConsumed;
    tellChanged();
    return answer;
}

// A new game's line as the trace keeps it: a seat the host said nothing of
// votes as this table decided (by phone where the castle has no station for
// it, issue 35), written out, so that the trace replays the same on any
// castle. Seats that vote with their station, the default of a trace, stay
// unwritten.
trace::TraceLine Table::withTableSeats(const trace::TraceLine& line) const {
    const auto& request = std::get<trace::HostLine>(line.input);
    const auto* state = referee_.state();
    if (!state) return line;
    nlohmann::json seats = request.seats.is_array() ? request.seats : nlohmann::json::array();
    bool added = false;
    for (int s = 0; s < state->rules().seats(); ++s) {
        const auto play = referee_.seatPlay(engine::Seat{static_cast<std::uint8_t>(s)});
        if (!play || !play->bot.empty() || play->remote || play->votes == referee::VoteSource::Station)
            continue;
        auto named = std::find_if(seats.begin(), seats.end(), [s](const nlohmann::json& seat) {
            return seat.is_object() && seat.value("seat", -1) == s;
        });
        if (named != seats.end() && named->contains("votes")) continue;
        if (named == seats.end()) named = seats.insert(seats.end(), nlohmann::json{{"seat", s}});
        (*named)["votes"] = referee::voteSourceName(play->votes);
        added = true;
    }
    if (!added) return line;
    trace::TraceLine told = line;
    std::get<trace::HostLine>(told.input).seats = std::move(seats);
    return told;
}

void Table::takeBoardLine(const trace::TraceLine& line) {
    tell(line);
    ++counters_.linesConsumed;
}

void Table::tell(const trace::TraceLine& line) {
    const auto game = gameNow();
    for (auto* observer : observers_) observer->inputTaken(line, game);
}

void Table::tellChanged() {
    for (auto* observer : observers_) observer->tableChanged();
}

// --- time ---------------------------------------------------------------------------

std::optional<Timestamp> Table::sensingDue() const {
    if (feed_ == ScanFeed::EveryScan) return std::nullopt;  // a round-robin board: updated at its scans
    auto due = pipeline_->nextDeadline();
    if (!due) return std::nullopt;
    *due = std::max(*due, now_);
    if (*due <= lastSenseAt_) return std::nullopt;  // already updated then: nothing is due
    return due;
}

std::optional<Timestamp> Table::refereeDue() const {
    auto due = referee_.nextDeadline();
    if (!due) return std::nullopt;
    *due = std::max(*due, now_);  // overdue: now
    if (*due == lastTickAt_ && ticksAtSameTime_ >= kMaxTicksAtSameTime) return std::nullopt;
    return due;
}

std::optional<Timestamp> Table::nextDue() const {
    const auto sensing = sensingDue();
    const auto referee = refereeDue();
    if (sensing && referee) return std::min(*sensing, *referee);
    return sensing ? sensing : referee;
}

void Table::runDue(Timestamp at) {
    // At the same time: the pipeline first, then the referee.
    if (const auto sensing = sensingDue(); sensing && *sensing <= at)
        sense(*sensing);
    else if (const auto referee = refereeDue(); referee && *referee <= at)
        tick(*referee);
}

void Table::runUntil(Timestamp end) {
    while (const auto due = nextDue()) {
        if (*due >= end) break;
        runDue(*due);
    }
}

std::optional<Timestamp> Table::pastNextDeadline() const {
    const auto deadline = referee_.nextDeadline();
    if (!deadline || (*deadline == lastTickAt_ && ticksAtSameTime_ >= kMaxTicksAtSameTime))
        return std::nullopt;
    return std::max(*deadline, now_) + Timestamp(1);
}

void Table::sense(Timestamp at) {
    now_ = std::max(now_, at);
    lastSenseAt_ = at;
    lastDueAt_ = at;
    observe(now_);
}

void Table::tick(Timestamp at) {
    now_ = std::max(now_, at);
    ticksAtSameTime_ = at == lastTickAt_ ? ticksAtSameTime_ + 1 : 1;
    lastTickAt_ = at;
    lastDueAt_ = at;
    referee_.tick(now_);
    drain();
}

void Table::observe(Timestamp at) {
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
    if (!update.changes.empty()) tellChanged();
}

void Table::drain() {
    for (const auto& notice : referee_.takeNotices()) {
        if (notice.audience != referee::Notice::Audience::Public) continue;
        for (auto* observer : observers_) observer->notice(notice);
        tellChanged();
    }
    for (const auto& chance : referee_.takeOwnChance()) {
        const auto game = gameNow();
        for (auto* observer : observers_) observer->ownChance(chance, game);
        ++counters_.ownChance;
    }
}

std::optional<store::GameId> Table::gameNow() {
    const auto game = referee_.game();
    if (game) counters_.games.insert(game->value);
    return game;
}

}  // namespace vivaref::table
