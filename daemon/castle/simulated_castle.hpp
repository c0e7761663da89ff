// The simulated castle of `vivaref serve --hardware=sim`: tags on places in
// memory (drivers/sim's SimulatedBoard, with its faults and noise), put and
// lifted from the web page (sim.html), vote keys pressed there, LEDs kept
// for the page to draw. Its readers are driven exactly as a real castle's
// are (the FieldScheduler, changes confirmed out of turn by the
// ChangeConfirmer), and each step takes the time the real driver takes, so
// the table sees the simulated castle's scans when it would see a real
// one's: the same latency, the same `once` lines in the game's trace.
//
// Time each reader's turn takes (tests/drivers' emulated MFRC522 at 4 MHz
// SPI, `mfrc522_bench --castle-only`, drivers/rfid/NOTES.md):
//
// | step | real driver, emulated chip | here |
// | --- | --- | --- |
// | field on to first command (ISO/IEC 14443-3 guard) | 5.1 ms, overlapped | 5.1 ms, overlapped |
// | empty reader: REQA times out, field off | 11 transfers, 337 µs | 340 µs |
// | one 7-byte tag, known from the last scan (the check) | ~2.9 ms | 2.9 ms |
// | 2, 3, 4 7-byte tags known from the last scan (the set check) | 5.9, 9.2, 12.4 ms | 340 µs + 3.0 ms each |
// | a lone tag inventoried in full (new) | ~3.3 ms | 3.3 ms |
// | 2, 3, 4 tags inventoried in full (a set changed) | 8.7, 15.0, 22.1 ms | 3.3 ms + 6.0 ms each further |
//
// The bus is shared: one inventory at a time; power-ups overlap as the
// coupling allows (by default as a castle configuration's: readers on
// adjacent levels couple). With the standard board's 12 readers and one tag on a
// few of them a cycle takes about 15 ms.
//
// Not yet followed: the real driver now interleaves the radio waits of the
// readers whose fields are on together (a scan holds the bus for about 7% of
// its time; drivers/rfid/NOTES.md, "Interleaved scans"), so on the example
// castle a real cycle is 16.7 ms at the median; this model stays at the
// real driver's cycle before it (48.1 ms, one scan at a time on the bus).
// Modelling it needs each step's bus time beside its length
// (`mfrc522_bench`'s interleaved_scan_costs) and several inventories under
// way at once here. Until then the simulated castle answers later than a
// real one would, never sooner.
#pragma once

#include <optional>
#include <vector>

#include "daemon/castle/castle.hpp"
#include "daemon/castle/change_confirmer.hpp"
#include "daemon/castle/loop_clock.hpp"
#include "drivers/sensing/field_scheduler.hpp"
#include "drivers/sensing/sensing_config.hpp"
#include "drivers/sim/simulated_board.hpp"

namespace vivaref::castle {

struct SimulatedCastleTiming {
    Microseconds powerUp{5100};
    Microseconds emptyScan{340};
    Microseconds knownTag{2900};      // a lone tag the reader held at its last scan
    Microseconds knownSetTag{3000};   // each tag of a set of several the reader held at its last scan
    Microseconds fullTag{3300};       // a full inventory's first tag
    Microseconds collidingTag{6000};  // each further tag of a full inventory: collision rounds, SELECTs, HLTA
};

struct SimulatedCastleOptions {
    SimulatedCastleTiming timing;
    drivers::SimulatedBoardConfig board;  // its seed (faults and noise)
    // Which readers may not have their fields on together; none: those on
    // adjacent levels (`[castle] fields = adjacent-levels`, as on the example
    // castle; `vivaref serve --config` passes its castle's own).
    std::optional<drivers::FieldCoupling> coupling;
    // The sensing pipeline's: a new tag is scanned again when it is over.
    drivers::Timestamp stabilityWindow = drivers::SensingConfig{}.stabilityWindow;
};

struct SimulatedCastleCounters {
    std::int64_t scans = 0;
    std::int64_t presses = 0;
};

class SimulatedCastle final : public Castle {
public:
    // `clock` must outlive it.
    SimulatedCastle(drivers::BoardLayout layout, const LoopClock& clock, SimulatedCastleOptions options = {});

    const drivers::BoardLayout& layout() const override { return board_.layout(); }
    void start(CastleSink& sink) override;
    Microseconds step() override;
    void show(const drivers::LedStates& leds, Timestamp now) override;
    std::optional<Timestamp> nextLedChange() const override { return std::nullopt; }

    // What a hand does on the web page. A put on no place of the layout is
    // false (and nothing moves); the readers see a put or a lift on their
    // next turns. A press is a key pressed and released, debounced: it goes
    // to the sink at once (after start(); before, at start()).
    [[nodiscard]] bool put(const drivers::TagUid& tag, const drivers::PlaceName& place);
    void lift(const drivers::TagUid& tag);
    void press(drivers::StationId station, drivers::VoteKey key);

    // The tags on the places, their faults and noise.
    drivers::SimulatedBoard& board() { return board_; }
    const drivers::SimulatedBoard& board() const { return board_; }
    // The LEDs as last shown.
    const drivers::LedStates& leds() const { return leds_; }
    const SimulatedCastleCounters& counters() const { return counters_; }
    const drivers::FieldScheduler& fields() const { return fields_; }

private:
    // An inventory under way: its result is what the reader's field held
    // when it began; the table gets it when it ends.
    struct Inventory {
        drivers::ReaderIndex reader = 0;
        Microseconds endsAt{0};
        drivers::ScanResult result;
    };
    Microseconds cost(drivers::ReaderIndex reader, const drivers::ScanResult& result) const;

    const LoopClock& clock_;
    CastleSink* sink_ = nullptr;  // start()'s
    SimulatedCastleOptions options_;
    drivers::SimulatedBoard board_;
    drivers::FieldScheduler fields_;
    ChangeConfirmer confirmer_;
    std::optional<Inventory> inventory_;
    struct Press {
        drivers::StationId station;
        drivers::VoteKey key;
    };
    std::vector<Press> presses_;  // before start()
    drivers::LedStates leds_;
    SimulatedCastleCounters counters_;
};

}  // namespace vivaref::castle
