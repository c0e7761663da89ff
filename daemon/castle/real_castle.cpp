#include "daemon/castle/real_castle.hpp"

#include <algorithm>
#include <stdexcept>
#include <system_error>

#include "drivers/leds/led_names.hpp"
#include "drivers/rfid/mfrc522_chip.hpp"
#include "drivers/sensing/board_layout.hpp"
#include "drivers/sensing/tag_registry_file.hpp"

namespace vivaref::castle {

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
                                       const hardware::RealReaders& readers,
                                       const drivers::BoardLayout& layout) {
    drivers::FieldSchedulerConfig config;
    config.powerUpTime = std::chrono::microseconds(0);
    for (std::size_t r = 0; r < readers.size(); ++r)
        config.powerUpTime = std::max(config.powerUpTime, readers.powerUpTime(r));
    config.maxFieldsOn = castle.maxFieldsOn;
    config.backoff = castle.backoff;
    return drivers::FieldScheduler(
        layout.readerCount() ? castle.fieldCoupling(layout) : drivers::FieldCoupling::oneAtATime(1), config);
}

}  // namespace

std::set<int> stationSeats(const config::CastleConfig& castle) {
    std::set<int> seats;
    for (const auto& station : castle.stations) seats.insert(station.seat);
    return seats;
}

drivers::BoardLayout realBoardLayout(const config::CastleConfig& castle) {
    if (castle.readers.empty()) return drivers::standardBoardLayout();
    drivers::BoardLayout layout;
    for (const auto& r : castle.readers)
        if (!r.place.empty() && r.place != config::kEnrolmentPlace) layout.addReader({r.name}, {r.place});
    return layout;
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
    auto add = [&](drivers::LedId led, const config::GpioPin& pin) {
        specs.push_back({std::move(led), address(pin),
                         pin.activeLow ? drivers::Polarity::ActiveLow : drivers::Polarity::ActiveHigh});
    };
    // Named as the referee decides them (drivers/leds/led_names.hpp).
    for (const auto& [place, pin] : castle.placeLeds) add(drivers::placeLed(drivers::PlaceName{place}), pin);
    for (const auto& [seat, pin] : castle.turnLeds) add(drivers::turnLed(drivers::StationId{seat}), pin);
    for (const auto& s : castle.stations)
        if (s.led) add(drivers::stationLed(drivers::StationId{s.seat}), *s.led);
    return specs;
}

RealCastle::RealCastle(const config::CastleConfig& castle, const drivers::LoopClock& clock,
                       RealDevices devices, RealCastleOptions options)
    : clock_(clock),
      options_(options),
      layout_(realBoardLayout(castle)),
      readers_(castle, hardware::RealReaders::Which::BoardOnly, devices.readers),
      keys_(openKeys(castle, devices.gpio)),
      leds_(openLeds(castle, devices.gpio)),
      fields_(fieldScheduler(castle, readers_, layout_)),
      confirmer_(readers_.size(), castle.sensing.stabilityWindow),
      failing_(readers_.size(), 0),
      chips_(readers_.size()) {
    if (readers_.size() == 0)
        throw std::runtime_error(castle.sourceFile.string() + ": no reader under the board's places");
    // The layout lists the same readers, in the same order.
    for (std::size_t r = 0; r < readers_.size(); ++r)
        if (r >= layout_.readerCount() || layout_.reader(r) != drivers::ReaderId{readers_[r].name()})
            throw std::logic_error("real castle: the readers and the board's layout disagree");
}

void RealCastle::start(CastleSink& sink) {
    sink_ = &sink;
    for (std::size_t r = 0; r < readers_.size(); ++r) {
        if (auto failure = reset(r)) {
            // Backed off from now; its failure goes to the pipeline as any scan's would.
            fields_.scanned(r, false, clock_.nowMicros());
            concludeScan(r, *failure);
        }
    }
}

std::optional<drivers::ScanError> RealCastle::reset(drivers::ReaderIndex r) {
    auto failure = readers_.initialize(r);
    chips_[r].reset();
    if (const auto* mfrc522 = readers_.mfrc522(r)) {
        const auto chip = drivers::mfrc522::describeVersion(mfrc522->version());
        if (mfrc522->version() != 0x00 && mfrc522->version() != 0xFF)
            chips_[r] = ReaderChip{"mfrc522", chip.version, chip.model, chip.clone};
    } else if (const auto* pn532 = readers_.pn532(r); pn532 && !pn532->firmware().empty()) {
        // "PN532 v1.6": the version is what follows the last 'v'.
        const std::string& firmware = pn532->firmware();
        const auto v = firmware.rfind('v');
        chips_[r] =
            ReaderChip{"pn532", v == std::string::npos ? firmware : firmware.substr(v + 1), firmware, false};
    }
    return failure;
}

std::optional<ReaderChip> RealCastle::chipOf(drivers::ReaderIndex reader) const {
    return reader < chips_.size() ? chips_[reader] : std::nullopt;
}

bool RealCastle::keyReadable(int fd) {
    auto fault = keys_.readReady(fd);
    if (fault) sink_->problem(fault->message());
    return !fault;
}

Microseconds RealCastle::step() {
    confirmPresses(clock_.now());
    Microseconds next = radio();
    if (auto key = keys_.nextDeadline()) next = std::min<Microseconds>(next, *key - options_.edgeClockAtZero);
    return next;
}

void RealCastle::show(const drivers::LedStates& leds, Timestamp now) {
    leds_.show(leds);
    for (const auto& fault : leds_.advance(now)) sink_->problem(fault.message());
}

Microseconds RealCastle::radio() {
    // The fields the scheduler switches on are switched on at once (a
    // register write each); the scans go on as their radio waits end, each
    // step a few bus transfers. After kRadioSlice of bus work the loop gets
    // its turn back (keys, HTTP, a hand's next move in the tests) and comes
    // back at once: a whole cycle's scans in one step held everything else
    // up for 60 ms and more.
    constexpr Microseconds kRadioSlice{2000};
    const auto began = clock_.nowMicros();
    // Bounds the steps of a slice even where the bus takes no time (tests):
    // each reader's field on, the few steps of its scan.
    for (std::size_t budget = 16 * readers_.size() + 2; budget > 0; --budget) {
        const auto now = clock_.nowMicros();
        if (now - began >= kRadioSlice) return now;
        const drivers::FieldStep step = fields_.next(now);
        if (step.kind == drivers::FieldStep::Kind::Wait) {
            if (auto due = scans_.due(now)) {
                continueScan(*due);
                continue;
            }
            const auto radio = scans_.nextDue();
            return radio ? std::min(step.until, *radio) : step.until;
        }
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
        if (auto* mfrc522 = readers_.mfrc522(step.reader)) {
            mfrc522->beginScan();
            continueScan(step.reader);
            continue;
        }
        endScan(step.reader, reader.scan());
    }
    return clock_.nowMicros();
}

void RealCastle::continueScan(drivers::ReaderIndex r) {
    drivers::Mfrc522Reader& reader = *readers_.mfrc522(r);
    if (auto wait = reader.continueScan()) {
        // Counted from now: the transfer that set the radio going has ended.
        scans_.waitUntil(r, clock_.nowMicros() + *wait);
        return;
    }
    scans_.ended(r);
    endScan(r, reader.takeScanResult());
}

void RealCastle::endScan(drivers::ReaderIndex r, const drivers::ScanResult& result) {
    (void)readers_[r].antennaOff();
    fields_.scanned(r, result.ok(), clock_.nowMicros());
    concludeScan(r, result);
}

void RealCastle::confirmPresses(Timestamp now) {
    for (const auto& fault : keys_.advance(now + options_.edgeClockAtZero)) sink_->problem(fault.message());
    for (const auto& press : keys_.takeEvents()) {
        ++counters_.presses;
        sink_->pressed(press.station, press.key);
    }
}

void RealCastle::concludeScan(drivers::ReaderIndex r, const drivers::ScanResult& result) {
    ++counters_.rawScans;
    if (!result.ok()) {
        ++counters_.failedScans;
        (void)reset(r);  // a reset or replugged chip may answer on its next turn
        if (!failing_[r]) sink_->problem(result.error().message);
    }
    failing_[r] = !result.ok();
    confirmer_.scanned(r, result, clock_.nowMicros(), fields_);
    sink_->scanned(r, result);
}

}  // namespace vivaref::castle
