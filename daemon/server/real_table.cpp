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

// Milliseconds the loop waits for `us`, rounded up.
Timestamp ceilMs(std::chrono::microseconds us) { return std::chrono::ceil<Timestamp>(us); }

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
      scanInterval_(std::max(castle.scanInterval, Timestamp(1))),
      readers_(castle, hardware::RealReaders::Which::BoardOnly, devices.readers),
      keys_(openKeys(castle, devices.gpio)),
      leds_(openLeds(castle, devices.gpio)),
      scheduler_(std::max<std::size_t>(readers_.size(), 1), castle.backoff),
      traced_(readers_.size()) {
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
    const Timestamp now = clock_.now();
    for (std::size_t r = 0; r < readers_.size(); ++r) {
        if (auto failure = readers_.initialize(r)) {
            scheduler_.reportFailure(r, now);
            recordScan(r, *failure);
        }
    }
    nextSlot_ = clock_.now();
}

bool RealTable::keyReadable(int fd) {
    auto fault = keys_.readReady(fd);
    if (fault) problem(fault->message());
    return !fault;
}

Timestamp RealTable::step() {
    ++counters_.steps;
    Timestamp now = clock_.now();
    confirmPresses(now);
    if (scanning_ && now >= scanAt_) finishScan(now);
    now = clock_.now();  // a scan takes time on real hardware
    if (!scanning_ && now >= nextSlot_) startScan(now);
    table_.advance();

    now = clock_.now();
    leds_.show(table_.rig().referee().leds(now));
    for (const auto& fault : leds_.advance(now)) problem(fault.message());

    Timestamp next = scanning_ ? scanAt_ : nextSlot_;
    next = std::min(next, now + scanInterval_);  // the rig's own scans and the referee's deadlines
    if (auto deadline = table_.rig().referee().nextDeadline()) next = std::min(next, *deadline);
    if (auto led = leds_.nextChangeAt()) next = std::min(next, *led);
    if (auto key = keys_.nextDeadline()) next = std::min(next, *key - options_.edgeClockAtZero);
    return std::max(next, now + Timestamp(1));
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

void RealTable::startScan(Timestamp now) {
    // The slots keep their rhythm; after a stall they start again from now.
    nextSlot_ = nextSlot_ + scanInterval_ > now ? nextSlot_ + scanInterval_ : now + scanInterval_;
    const auto next = scheduler_.next(now);
    if (!next) {
        nextSlot_ = std::max(nextSlot_, scheduler_.nextReadyAt());
        return;
    }
    drivers::TagReader& reader = readers_[*next];
    if (auto ec = reader.antennaOn()) {
        // A scan that failed before it began.
        concludeScan(*next,
                     drivers::ScanError{drivers::ScanErrorKind::Bus,
                                        "reader " + reader.name() + ": antenna on: " + ec.message()},
                     now);
        return;
    }
    scanning_ = *next;
    // ISO/IEC 14443-3 §5.2.4: the tags power up in the field before they answer;
    // the loop does other work meanwhile.
    scanAt_ = now + ceilMs(readers_.powerUpTime(*next));
    if (scanAt_ <= now) finishScan(now);
}

void RealTable::finishScan(Timestamp now) {
    const drivers::ReaderIndex r = *scanning_;
    scanning_.reset();
    drivers::TagReader& reader = readers_[r];
    const drivers::ScanResult result = reader.scan();
    (void)reader.antennaOff();
    concludeScan(r, result, now);
}

void RealTable::concludeScan(drivers::ReaderIndex r, const drivers::ScanResult& result, Timestamp now) {
    ++counters_.rawScans;
    if (result.ok()) {
        scheduler_.reportSuccess(r);
    } else {
        scheduler_.reportFailure(r, now);
        (void)readers_.initialize(r);  // a reset or replugged chip may answer on its next turn
    }
    recordScan(r, result);
}

// Change-only: what the rig must be told so that it reads what the reader read.
void RealTable::recordScan(drivers::ReaderIndex r, const drivers::ScanResult& result) {
    ReaderTrace& traced = traced_[r];
    if (result.ok()) {
        if (!traced.failed && traced.recorded && *traced.recorded == result.tags()) return;
        traced.recorded = result.tags();
        traced.failed = false;
        trace::ScanLine line{names_[r], {result.tags().begin(), result.tags().end()}};
        table_.input(std::move(line));
        ++counters_.scanLines;
        return;
    }
    if (traced.failed) return;
    traced.failed = true;
    const auto& error = result.error();
    // The rig reads "no answer" as a chip that does not answer, anything else as garbage.
    std::string what =
        error.kind == drivers::ScanErrorKind::NoAnswer ? "no answer" : drivers::errorKindName(error.kind);
    const std::string prefix = "reader " + names_[r].name + ": ";
    const std::string detail =
        error.message.starts_with(prefix) ? error.message.substr(prefix.size()) : error.message;
    if (!detail.empty() && detail != what) what += ": " + detail;
    table_.input(trace::ReaderFaultLine{names_[r], what});
    ++counters_.faultLines;
    problem("reader " + names_[r].name + " failed: " + what);
}

void RealTable::problem(const std::string& message) {
    if (message == lastProblem_) return;
    lastProblem_ = message;
    if (options_.onProblem) options_.onProblem(message);
}

}  // namespace vivaref::server
