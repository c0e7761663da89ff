// `vivaref serve --hardware=real`: the castle's real readers, vote keys and
// LEDs around the table core (SimulatedTable, its rig in castle mode):
//
// - Readers: the FieldScheduler says which field goes on and which reader is
//   inventoried when, on the loop's microsecond clock: fields of readers
//   that do not couple ([castle] fields, [reader.X] neighbours) are on
//   together, so one group's tags power up (5.1 ms, never a sleep: another
//   wake of the timer) while another group is inventoried. Each scan goes
//   straight into the sensing pipeline and the referee
//   (SimulatedTable::scan); the rig records it as a `once` trace line when it
//   says something new, so `vivaref simulate` of the game's trace gives the
//   pipeline the same scans at the same times. A failing reader is reset
//   and backed off.
// - Vote keys: each line's event descriptor is watched by the loop; edges
//   are debounced on the kernel's timestamps (GpioButtonSource), and each
//   press becomes a `button` line at the loop's time.
// - LEDs: the referee's LED decision at each step, written to the GPIO lines
//   where they differ; blink and pulse move on the same timer. A place whose
//   reader is faulty pulses (the referee's decision: blind place).
//
// Nothing here blocks for long: every wait of a reader call is bounded in
// its driver (the worst case is in daemon/server/NOTES.md), and a failing
// reader is retried less and less often.
//
// The loop is the caller's: step() does what is due at the clock's now and
// says when it is next due; keyReadable() is called when a key's descriptor
// is readable. serve binds them to a steady_timer and stream_descriptors; the
// tests call them on a ManualClock with emulated chips and in-memory lines.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/config/castle_config.hpp"
#include "daemon/hardware/real_readers.hpp"
#include "daemon/server/loop_clock.hpp"
#include "daemon/server/simulated_table.hpp"
#include "drivers/gpio/gpio_button_source.hpp"
#include "drivers/gpio/gpio_led_sink.hpp"
#include "drivers/sensing/field_scheduler.hpp"
#include "drivers/sensing/tag_registry.hpp"

namespace vivaref::server {

// Where the hardware comes from: the kernel's devices by default; tests give
// emulated MFRC522 chips and in-memory GPIO lines.
struct RealDevices {
    hardware::ReaderDevices readers;
    drivers::GpioLines* gpio = nullptr;  // keys and LEDs; null: the kernel's; must outlive the table
};

struct RealTableOptions {
    // The vote keys' edge times are the kernel's CLOCK_MONOTONIC (steady
    // clock): its time at the loop clock's 0. Zero when both are one clock
    // (tests: the in-memory lines are stamped with loop time).
    Timestamp edgeClockAtZero{0};
    // A hardware problem inside the loop (a key line unreadable, an LED write
    // failing), for the daemon's log; each distinct message once in a row.
    std::function<void(const std::string&)> onProblem;
};

// The castle's readers as the sensing pipeline sees them: those under the
// board's places (not the enrolment reader), names and places.
drivers::BoardLayout realBoardLayout(const config::CastleConfig& castle);
// The rig of a real castle: its layout, its tags (the enrolled registry of
// the castle's edition), its sensing knobs and scan interval. `vivaref
// simulate --config` replays a real castle's trace with the same.
simulation::RigOptions realRigOptions(const config::CastleConfig& castle, drivers::TagRegistry tags);
// The castle's edition's registry from tags.json in its state directory
// (empty when nothing is enrolled yet); throws TagRegistryFileError.
drivers::TagRegistry enrolledTags(const config::CastleConfig& castle);

std::vector<drivers::ButtonLineSpec> keySpecs(const config::CastleConfig& castle);
// LEDs named as the referee decides them: "place-P", "turn-S", "station-S".
std::vector<drivers::LedLineSpec> ledSpecs(const config::CastleConfig& castle);

struct RealCounters {
    std::int64_t rawScans = 0;  // inventories the readers made (ok or failed)
    std::int64_t failedScans = 0;
    std::int64_t presses = 0;  // button lines
    std::int64_t steps = 0;
};

class RealTable {
public:
    // Opens every reader, key and LED line the configuration names; throws
    // std::runtime_error naming the file, line and device for one it cannot
    // open (a start-up error). `table` and `clock` must outlive it.
    RealTable(const config::CastleConfig& castle, SimulatedTable& table, const LoopClock& clock,
              RealDevices devices = {}, RealTableOptions options = {});

    // Resets and checks every reader (a reader that fails is recorded as such
    // and retried on its turn). Call once before the first step().
    void start();

    // Everything due at the clock's now: the vote keys' debounce, the
    // readers' fields and scans, the rig's deadlines, the LEDs. Returns the
    // next time something is due, in microseconds on the loop's clock.
    std::chrono::microseconds step();

    // The vote keys' descriptors, for the loop to watch.
    std::vector<int> keyDescriptors() const { return keys_.eventDescriptors(); }
    // `fd` is readable: its edges are read (presses are confirmed by step()).
    // False when the line could not be read (said through onProblem): the
    // loop should wait a while before watching it again.
    bool keyReadable(int fd);

    const RealCounters& counters() const { return counters_; }
    const drivers::GpioLedSink& leds() const { return leds_; }
    std::size_t readerCount() const { return readers_.size(); }
    const drivers::FieldScheduler& fields() const { return fields_; }

private:
    // Fields on and inventories, as many as are due now; the time the
    // scheduler next wants the loop.
    std::chrono::microseconds radio();
    // A scan's outcome: the scheduler told, a failing reader reset for its
    // next turn, the table given the scan, a change confirmed soon.
    void concludeScan(drivers::ReaderIndex reader, const drivers::ScanResult& result);
    void confirmChange(drivers::ReaderIndex reader, const drivers::ScanResult& result);
    void confirmPresses(Timestamp now);
    void problem(const std::string& message);

    SimulatedTable& table_;
    const LoopClock& clock_;
    RealTableOptions options_;
    hardware::RealReaders readers_;
    std::vector<drivers::ReaderId> names_;  // the layout's, by the same index
    drivers::GpioButtonSource keys_;
    drivers::GpioLedSink leds_;
    drivers::FieldScheduler fields_;
    std::vector<char> failing_;  // the reader's last scan failed (said once through onProblem)
    std::vector<std::optional<drivers::TagSet>> lastTags_;  // each reader's last good scan
    std::string lastProblem_;
    RealCounters counters_;
};

}  // namespace vivaref::server
