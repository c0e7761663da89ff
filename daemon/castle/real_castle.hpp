// The castle under the board, for `vivaref serve --hardware=real`: its
// MFRC522 / PN532 readers, its vote keys and its LEDs, as the
// configuration file names them.
//
// - Readers: the FieldScheduler says which field goes on and which reader is
//   inventoried when, on the loop's microsecond clock: fields of readers
//   that do not couple ([castle] fields, [reader.X] neighbours) are on
//   together, so one group's tags power up (5.1 ms, never a sleep: another
//   wake of the timer) while another group is inventoried. The MFRC522s
//   whose fields are on scan together: each scan gives the bus back at its
//   radio waits (InterleavedScans), which the loop's timer ends. A change is
//   confirmed out of turn (ChangeConfirmer). A failing reader is reset and
//   backed off. Each scan goes to the sink as it is taken.
// - Vote keys: each line's event descriptor is watched by the loop; edges
//   are debounced on the kernel's timestamps (GpioButtonSource).
// - LEDs: written to the GPIO lines where they differ; blink and pulse move
//   on the same timer.
//
// Nothing here blocks for long: every wait of a reader call is bounded in
// its driver (the worst case is in daemon/server/NOTES.md), a step does at
// most 2 ms of radio work, and a failing reader is retried less and less
// often. Tests give it emulated MFRC522 chips and in-memory GPIO lines on a
// ManualClock (tests/real).
#pragma once

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "daemon/castle/castle.hpp"
#include "daemon/castle/change_confirmer.hpp"
#include "daemon/config/castle_config.hpp"
#include "daemon/hardware/real_readers.hpp"
#include "drivers/gpio/gpio_button_source.hpp"
#include "drivers/gpio/gpio_led_sink.hpp"
#include "drivers/sensing/field_scheduler.hpp"
#include "drivers/sensing/interleaved_scans.hpp"
#include "drivers/sensing/tag_registry.hpp"
#include "drivers/time/loop_clock.hpp"

namespace vivaref::castle {

// Where the hardware comes from: the kernel's devices by default; tests give
// emulated MFRC522 chips and in-memory GPIO lines.
struct RealDevices {
    hardware::ReaderDevices readers;
    drivers::GpioLines* gpio = nullptr;  // keys and LEDs; null: the kernel's; must outlive the castle
};

// The castle's readers as the sensing pipeline sees them: those under the
// board's places (not the enrolment reader), names and places.
drivers::BoardLayout realBoardLayout(const config::CastleConfig& castle);
// The castle's edition's registry from tags.json in its state directory
// (empty when nothing is enrolled yet); throws TagRegistryFileError.
drivers::TagRegistry enrolledTags(const config::CastleConfig& castle);

// The seats whose vote station the castle has (issue 35): the others vote on
// their players' phones (referee::RefereeOptions::stationSeats). serve, the
// replay of its traces and the tests' emulated castles all ask here.
std::set<int> stationSeats(const config::CastleConfig& castle);

std::vector<drivers::ButtonLineSpec> keySpecs(const config::CastleConfig& castle);
// LEDs named as the referee decides them: "place-P", "turn-S", "station-S".
std::vector<drivers::LedLineSpec> ledSpecs(const config::CastleConfig& castle);

struct RealCastleOptions {
    // The vote keys' edge times are the kernel's CLOCK_MONOTONIC (steady
    // clock): its time at the loop clock's 0. Zero when both are one clock
    // (tests: the in-memory lines are stamped with loop time).
    Timestamp edgeClockAtZero{0};
};

struct RealCastleCounters {
    std::int64_t rawScans = 0;  // inventories the readers made (ok or failed)
    std::int64_t failedScans = 0;
    std::int64_t presses = 0;
};

class RealCastle final : public Castle {
public:
    // Opens every reader, key and LED line the configuration names; throws
    // std::runtime_error naming the file, line and device for one it cannot
    // open (a start-up error). `clock` must outlive it.
    RealCastle(const config::CastleConfig& castle, const drivers::LoopClock& clock, RealDevices devices = {},
               RealCastleOptions options = {});

    const drivers::BoardLayout& layout() const override { return layout_; }
    void start(CastleSink& sink) override;
    Microseconds step() override;
    void show(const drivers::LedStates& leds, Timestamp now) override;
    std::optional<Timestamp> nextLedChange() const override { return leds_.nextChangeAt(); }
    std::vector<int> keyDescriptors() const override { return keys_.eventDescriptors(); }
    bool keyReadable(int fd) override;
    // What the reader's chip said at its last reset: an MFRC522's VersionReg
    // (drivers::mfrc522::describeVersion), a PN532's firmware; none when it
    // did not answer.
    std::optional<ReaderChip> chipOf(drivers::ReaderIndex reader) const override;
    std::vector<std::pair<drivers::StationId, drivers::VoteKey>> keysDown() const override {
        return keys_.keysDown();
    }

    const RealCastleCounters& counters() const { return counters_; }
    const drivers::GpioLedSink& leds() const { return leds_; }
    std::size_t readerCount() const { return readers_.size(); }
    const drivers::FieldScheduler& fields() const { return fields_; }

private:
    // Fields on and inventories, as many as are due now within a slice of
    // the bus; the time the scheduler next wants the loop.
    Microseconds radio();
    // Runs `reader`'s interleaved scan up to its next radio wait, or to its end.
    void continueScan(drivers::ReaderIndex reader);
    // The reader's scan is over (its field still on).
    void endScan(drivers::ReaderIndex reader, const drivers::ScanResult& result);
    // A scan's outcome: a failing reader reset for its next turn, a change
    // confirmed soon, the sink told.
    void concludeScan(drivers::ReaderIndex reader, const drivers::ScanResult& result);
    void confirmPresses(Timestamp now);
    // The reader reset and checked (readers_.initialize), what its chip said kept for chipOf().
    std::optional<drivers::ScanError> reset(drivers::ReaderIndex reader);

    const drivers::LoopClock& clock_;
    CastleSink* sink_ = nullptr;  // start()'s
    RealCastleOptions options_;
    drivers::BoardLayout layout_;
    hardware::RealReaders readers_;
    drivers::GpioButtonSource keys_;
    drivers::GpioLedSink leds_;
    drivers::FieldScheduler fields_;
    drivers::InterleavedScans scans_;  // the MFRC522 scans under way
    ChangeConfirmer confirmer_;
    std::vector<char> failing_;  // the reader's last scan failed (said once through the sink)
    std::vector<std::optional<ReaderChip>> chips_;  // reset()'s, by reader
    RealCastleCounters counters_;
};

}  // namespace vivaref::castle
