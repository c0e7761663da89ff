#include "daemon/server/real_table.hpp"

#include <algorithm>
#include <stdexcept>
#include <system_error>

#include "daemon/referee/board_places.hpp"
#include "drivers/sensing/tag_registry_file.hpp"
#include "drivers/sim/simulated_board.hpp"

namespace vivaref::server {

namespace {

drivers::Bias driverBias(config::Bias bias) {
    switch (bias) {
        case config::Bias::PullUp:
            return drivers::Bias::PullUp;
        case config::Bias::PullDown:
            return drivers::Bias::PullDown;
        case config::Bias::Disabled:
            return drivers::Bias::Disabled;
        case config::Bias::AsIs:
            break;
    }
    return drivers::Bias::AsIs;
}

drivers::LineAddress address(const config::GpioPin& pin) { return {{pin.gpio.chip}, {pin.gpio.line}}; }

// A line the kernel refuses, named with the file line that asked for it.
[[noreturn]] void refuse(const config::CastleConfig& castle, int line, const std::string& what,
                         const std::exception& e) {
    throw std::runtime_error(castle.sourceFile.string() + ":" + std::to_string(line) + ": " + what + ": " +
                             e.what());
}

int sourceLineOf(const config::CastleConfig& castle, const drivers::LineAddress& line) {
    for (const auto& s : castle.stations)
        for (const auto* pin : {&s.yes, &s.no, &s.stomachache, &s.led})
            if (*pin && address(**pin) == line) return (*pin)->sourceLine;
    for (const auto& [place, pin] : castle.placeLeds)
        if (address(pin) == line) return pin.sourceLine;
    for (const auto& [seat, pin] : castle.turnLeds)
        if (address(pin) == line) return pin.sourceLine;
    return 0;
}

drivers::GpioButtonSource openKeys(const config::CastleConfig& castle, drivers::GpioLines* gpio) {
    const auto specs = keySpecs(castle);
    try {
        return gpio ? drivers::GpioButtonSource(specs, *gpio) : drivers::GpioButtonSource(specs);
    } catch (const std::system_error& e) {
        // The message names the line; the file line is the first key on it we find.
        int line = 0;
        for (const auto& spec : specs)
            if (std::string(e.what()).find(drivers::describeLine(spec.line)) != std::string::npos)
                line = sourceLineOf(castle, spec.line);
        refuse(castle, line, "vote key", e);
    }
}

drivers::GpioLedSink openLeds(const config::CastleConfig& castle, drivers::GpioLines* gpio) {
    const auto specs = ledSpecs(castle);
    try {
        return gpio ? drivers::GpioLedSink(specs, *gpio) : drivers::GpioLedSink(specs);
    } catch (const std::system_error& e) {
        int line = 0;
        for (const auto& spec : specs)
            if (std::string(e.what()).find(drivers::describeLine(spec.line)) != std::string::npos)
                line = sourceLineOf(castle, spec.line);
        refuse(castle, line, "LED", e);
    }
}

// The scheduler of a castle's readers: its coupling ([castle] fields and
// the readers' neighbours), the longest power-up any of its readers needs.
drivers::FieldScheduler fieldScheduler(const config::CastleConfig& castle,
                                       const hardware::RealReaders& readers) {
    drivers::FieldSchedulerConfig config;
    config.powerUpTime = std::chrono::microseconds(0);
    for (std::size_t r = 0; r < readers.size(); ++r)
        config.powerUpTime = std::max(config.powerUpTime, readers.powerUpTime(r));
    config.maxFieldsOn = castle.maxFieldsOn;
    config.backoff = castle.backoff;
    const auto layout = realBoardLayout(castle);
    return drivers::FieldScheduler(
        layout.readerCount() ? castle.fieldCoupling(layout) : drivers::FieldCoupling::oneAtATime(1), config);
}

}  // namespace

drivers::BoardLayout realBoardLayout(const config::CastleConfig& castle) {
    if (castle.readers.empty()) return drivers::standardBoardLayout();
    drivers::BoardLayout layout;
    for (const auto& r : castle.readers)
        if (!r.place.empty() && r.place != config::kEnrolmentPlace) layout.addReader({r.name}, {r.place});
    return layout;
}

simulation::RigOptions realRigOptions(const config::CastleConfig& castle, drivers::TagRegistry tags) {
    simulation::RigOptions options;
    options.layout = realBoardLayout(castle);
    options.registry = std::move(tags);
    options.sensing = castle.sensing;
    options.board.scanInterval = castle.scanInterval;
    return options;
}

drivers::TagRegistry enrolledTags(const config::CastleConfig& castle) {
    auto registries = drivers::loadTagRegistriesIfPresent(castle.tagRegistryPath());
    auto it = registries.find(std::string(config::castleEditionName(castle.edition)));
    return it == registries.end() ? drivers::TagRegistry{} : it->second;
}

std::vector<drivers::ButtonLineSpec> keySpecs(const config::CastleConfig& castle) {
    std::vector<drivers::ButtonLineSpec> specs;
    const std::chrono::milliseconds debounce = castle.buttonDebounce;
    for (const auto& s : castle.stations) {
        const std::pair<const std::optional<config::GpioPin>*, drivers::VoteKey> keys[] = {
            {&s.yes, drivers::VoteKey::Yes},
            {&s.no, drivers::VoteKey::No},
            {&s.stomachache, drivers::VoteKey::Stomachache}};
        for (const auto& [pin, key] : keys) {
            if (!*pin) continue;
            specs.push_back({drivers::StationId{s.seat}, key, address(**pin),
                             (*pin)->activeLow ? drivers::Polarity::ActiveLow : drivers::Polarity::ActiveHigh,
                             driverBias((*pin)->bias), debounce});
        }
    }
    return specs;
}

std::vector<drivers::LedLineSpec> ledSpecs(const config::CastleConfig& castle) {
    std::vector<drivers::LedLineSpec> specs;
    auto add = [&](std::string name, const config::GpioPin& pin) {
        specs.push_back({drivers::LedId{std::move(name)}, address(pin),
                         pin.activeLow ? drivers::Polarity::ActiveLow : drivers::Polarity::ActiveHigh});
    };
    for (const auto& [place, pin] : castle.placeLeds) add(referee::placeLedName(place), pin);
    for (const auto& [seat, pin] : castle.turnLeds) add("turn-" + std::to_string(seat), pin);
    for (const auto& s : castle.stations)
        if (s.led) add("station-" + std::to_string(s.seat), *s.led);
    return specs;
}

RealTable::RealTable(const config::CastleConfig& castle, SimulatedTable& table, const LoopClock& clock,
                     RealDevices devices, RealTableOptions options)
    : table_(table),
      clock_(clock),
      options_(std::move(options)),
      readers_(castle, hardware::RealReaders::Which::BoardOnly, devices.readers),
      keys_(openKeys(castle, devices.gpio)),
      leds_(openLeds(castle, devices.gpio)),
      fields_(fieldScheduler(castle, readers_)),
      failing_(readers_.size(), 0),
      lastTags_(readers_.size()) {
    if (readers_.size() == 0)
        throw std::runtime_error(castle.sourceFile.string() + ": no reader under the board's places");
    // The rig's layout is realBoardLayout(castle): the same readers, in the same order.
    const auto layout = realBoardLayout(castle);
    for (std::size_t r = 0; r < readers_.size(); ++r) names_.push_back({readers_[r].name()});
    for (std::size_t r = 0; r < names_.size(); ++r)
        if (r >= layout.readerCount() || layout.reader(r) != names_[r])
            throw std::logic_error("real table: the readers and the board's layout disagree");
}

void RealTable::start() {
    for (std::size_t r = 0; r < readers_.size(); ++r) {
        if (auto failure = readers_.initialize(r)) {
            // Backed off from now; its failure goes to the pipeline as any scan's would.
            fields_.scanned(r, false, clock_.nowMicros());
            concludeScan(r, *failure);
        }
    }
}

bool RealTable::keyReadable(int fd) {
    auto fault = keys_.readReady(fd);
    if (fault) problem(fault->message());
    return !fault;
}

std::chrono::microseconds RealTable::step() {
    ++counters_.steps;
    confirmPresses(clock_.now());
    const std::chrono::microseconds radioDue = radio();
    table_.advance();

    const Timestamp now = clock_.now();
    leds_.show(table_.rig().referee().leds(now));
    for (const auto& fault : leds_.advance(now)) problem(fault.message());

    std::chrono::microseconds next = radioDue;
    auto sooner = [&](Timestamp at) { next = std::min<std::chrono::microseconds>(next, at); };
    sooner(now + table_.advanceEvery());  // the store's flush and the status's republishing
    if (auto deadline = table_.rig().referee().nextDeadline()) sooner(*deadline);
    if (auto sensing = table_.rig().pipeline().nextDeadline()) sooner(*sensing);
    if (auto led = leds_.nextChangeAt()) sooner(*led);
    if (auto key = keys_.nextDeadline()) sooner(*key - options_.edgeClockAtZero);
    // The radio may ask for "now" (it has more to do at once: it moves on each
    // time); anything else at least 0.1 ms on, so that a deadline nobody can
    // honour yet never spins the loop.
    const auto soonest = clock_.nowMicros();
    if (radioDue <= soonest) return soonest;
    return std::max(next, soonest + std::chrono::microseconds(100));
}

std::chrono::microseconds RealTable::radio() {
    // The fields the scheduler switches on are switched on at once (a
    // register write each); an inventory takes 1 to 3 ms of the bus, so after
    // kRadioSlice of them the loop gets its turn back (keys, HTTP, a hand's
    // next move in the tests) and comes back at once: a whole cycle's scans
    // in one step held everything else up for 60 ms and more.
    constexpr std::chrono::microseconds kRadioSlice{2000};
    const auto began = clock_.nowMicros();
    for (std::size_t budget = 2 * readers_.size() + 2; budget > 0; --budget) {
        const auto now = clock_.nowMicros();
        if (now - began >= kRadioSlice) return now;
        const drivers::FieldStep step = fields_.next(now);
        if (step.kind == drivers::FieldStep::Kind::Wait) return step.until;
        drivers::TagReader& reader = readers_[step.reader];
        if (step.kind == drivers::FieldStep::Kind::FieldOn) {
            if (auto ec = reader.antennaOn()) {
                // A scan that failed before it began.
                fields_.scanned(step.reader, false, clock_.nowMicros());
                concludeScan(step.reader,
                             drivers::ScanError{drivers::ScanErrorKind::Bus,
                                                "reader " + reader.name() + ": antenna on: " + ec.message()});
            } else {
                // ISO/IEC 14443-3 §5.2.4: the tags power up from when the field is really on.
                fields_.fieldCameOn(step.reader, clock_.nowMicros());
            }
            continue;
        }
        const drivers::ScanResult result = reader.scan();
        (void)reader.antennaOff();
        fields_.scanned(step.reader, result.ok(), clock_.nowMicros());
        concludeScan(step.reader, result);
    }
    return clock_.nowMicros();
}

void RealTable::confirmPresses(Timestamp now) {
    for (const auto& fault : keys_.advance(now + options_.edgeClockAtZero)) problem(fault.message());
    for (const auto& press : keys_.takeEvents()) {
        // At the loop's time: the trace's lines never go back in time, and
        // `simulate` replays the press exactly when the referee got it.
        table_.input(trace::ButtonLine{press.station, press.key});
        ++counters_.presses;
    }
}

void RealTable::concludeScan(drivers::ReaderIndex r, const drivers::ScanResult& result) {
    ++counters_.rawScans;
    if (!result.ok()) {
        ++counters_.failedScans;
        (void)readers_.initialize(r);  // a reset or replugged chip may answer on its next turn
        if (!failing_[r]) problem(result.error().message);
    }
    failing_[r] = !result.ok();
    confirmChange(r, result);
    table_.scan(r, result);
}

// A reader's turn comes once a cycle (about 50 ms on the example castle),
// and the pipeline wants two scans alike before it believes a change: the
// second is asked for out of turn. A tag gone is confirmed at once (a lift
// is then "in hand" a few milliseconds after the first miss). A new tag is
// confirmed no sooner than kConfirmNewTagAfter after its first read: a hand
// brushing another place on its way is there 40 ms at most, so it is gone by
// then and its two reads never come together.
void RealTable::confirmChange(drivers::ReaderIndex r, const drivers::ScanResult& result) {
    constexpr std::chrono::microseconds kConfirmNewTagAfter{45'000};
    if (!result.ok()) return;  // failures have their own backoff
    const auto& before = lastTags_[r];
    if (before) {
        const auto& now = result.tags();
        const bool lost =
            std::any_of(before->begin(), before->end(), [&](const auto& t) { return !now.contains(t); });
        const bool found =
            std::any_of(now.begin(), now.end(), [&](const auto& t) { return !before->contains(t); });
        if (lost)
            fields_.scanSoon(r, clock_.nowMicros());
        else if (found)
            fields_.scanSoon(r, clock_.nowMicros() + kConfirmNewTagAfter);
    }
    lastTags_[r] = result.tags();
}

void RealTable::problem(const std::string& message) {
    if (message == lastProblem_) return;
    lastProblem_ = message;
    if (options_.onProblem) options_.onProblem(message);
}

}  // namespace vivaref::server
