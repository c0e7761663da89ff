// The simulated castle of `vivaref serve --hardware=sim`: tags on places in
// memory (drivers/sim's SimulatedBoard, with its faults and noise), put and
// lifted from the web page (sim.html), vote keys pressed there, LEDs kept
// for the page to draw. Its readers are driven exactly as a real castle's
// are (the FieldScheduler, changes confirmed out of turn by the
// ChangeConfirmer), and each step takes the time the real driver takes, so
// the table sees the simulated castle's scans when it would see a real
// one's: the same latency, the same `once` lines in the game's trace.
//
// Time each reader's scan takes, and how much of it holds the SPI bus
// (tests/drivers' emulated MFRC522 at 4 MHz SPI, one reader alone,
// `mfrc522_bench`'s interleaved_scan_costs, drivers/rfid/NOTES.md):
//
// | scan | real driver: lasts, holds the bus | here |
// | --- | --- | --- |
// | field on to first command (ISO/IEC 14443-3 guard) | 5.1 ms, overlapped | 5.1 ms, overlapped |
// | empty reader: REQA times out | 329 µs, 44 µs | 330, 44 µs |
// | one 7-byte tag, known from the last scan (the check) | 2707 µs, 184 µs | 2700, 184 µs |
// | two 7-byte tags known from the last scan (the set check) | 5929 µs, 384 µs | 330 + 2800 µs each, 44 + 170
// µs each | | a lone tag inventoried in full (new) | 3184 µs, 222 µs | 3200, 222 µs | | 2, 3 tags inventoried
// in full (a set changed) | 8721, 14259 µs; 574, 926 µs | 3200 + 5500 µs, 222 + 350 µs each further |
//
// The rest of a scan is radio (frames on air, the tag's frame delay,
// timeouts), and as in the real driver other readers whose fields are on
// use the bus meanwhile: a scan begins once the bus is free of the scans
// before it, and its result comes when it ends. Power-ups overlap as the
// coupling allows (by default as a castle configuration's: readers on
// adjacent levels couple). With the standard board's 12 readers and one
// tag on a few of them a cycle takes about 12 ms.
//
// The costs are an MFRC522's only: a configuration whose readers are PN532s
// (over libnfc, slower and costed otherwise) is simulated with MFRC522
// costs, by `serve --hardware=sim --config` and by `vivaref simulate`'s
// castle model (trace_castle.hpp) alike.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/castle/bench_wiring.hpp"
#include "daemon/castle/castle.hpp"
#include "daemon/castle/change_confirmer.hpp"
#include "daemon/castle/hand_offer.hpp"
#include "daemon/castle/speaker_offer.hpp"
#include "daemon/config/sim_bench.hpp"
#include "drivers/sensing/field_scheduler.hpp"
#include "drivers/sensing/sensing_config.hpp"
#include "drivers/sim/simulated_board.hpp"
#include "drivers/sim/simulated_speech.hpp"
#include "drivers/time/loop_clock.hpp"

namespace vivaref::config {
struct CastleConfig;
}

namespace vivaref::castle {

// Each kind of scan: how long it lasts, and (`bus`) how much of it holds the bus.
struct ScanCost {
    Microseconds lasts{0};
    Microseconds bus{0};
};

struct SimulatedCastleTiming {
    Microseconds powerUp{5100};
    ScanCost empty{Microseconds(330), Microseconds(44)};
    ScanCost knownTag{Microseconds(2700), Microseconds(184)};  // a lone tag the reader held at its last scan
    ScanCost knownSetTag{Microseconds(2800), Microseconds(170)};  // each tag of a set it held, beside `empty`
    ScanCost fullTag{Microseconds(3200), Microseconds(222)};      // a full inventory's first tag
    ScanCost collidingTag{Microseconds(5500), Microseconds(350)};  // each further tag of a full inventory
};

struct SimulatedCastleOptions {
    SimulatedCastleTiming timing;
    drivers::SimulatedBoardConfig board;  // its seed (faults and noise)
    // Which readers may not have their fields on together; none: those on
    // adjacent levels (`[castle] fields = adjacent-levels`, as on the example
    // castle; `vivaref serve --config` passes its castle's own, see
    // simulatedCastleOptions()).
    std::optional<drivers::FieldCoupling> coupling;
    // At most this many fields on at once (0: as many as the coupling
    // allows), and how a failing reader is backed off: as the field
    // scheduler of a real castle takes them (`[castle] max_fields_on`, the
    // `[sensing]` backoff keys).
    std::size_t maxFieldsOn = 0;
    drivers::BackoffPolicy backoff;
    // The sensing pipeline's: a new tag is scanned again when it is over.
    drivers::Timestamp stabilityWindow = drivers::SensingConfig{}.stabilityWindow;
    // The bench the castle plays (bench_wiring.hpp: its dead, swapped,
    // coupled readers, chips' versions, stuck keys and dark LEDs); null: a
    // perfect castle. Owned by the caller (serve keeps one for every castle
    // it builds), it must outlive the castle.
    const config::SimBench* bench = nullptr;
    // Each layout reader's wire and kind, as the configuration says (empty:
    // sim readers named as the layout names them); the keys' and LEDs'
    // GPIO lines by their bench names. simulatedCastleOptions() fills both.
    std::vector<SimulatedReaderWire> wires;
    std::map<std::string, std::string> lineNames;
};

// What a castle configuration says of a castle's readers, for the simulated
// castle on `layout` (`vivaref serve --hardware=sim --config`, which gives it
// the configuration's own readers, castle::realBoardLayout): its field
// coupling over that layout (the rule, and the `neighbours` the layout
// names), max_fields_on, the backoff and the stability window, its readers'
// wires and its keys' and LEDs' lines (for a bench). The timing, the
// board's seed and the bench are the defaults.
SimulatedCastleOptions simulatedCastleOptions(const config::CastleConfig& castle,
                                              const drivers::BoardLayout& layout);

struct SimulatedCastleCounters {
    std::int64_t scans = 0;
    std::int64_t presses = 0;
};

// The castle, and what a hand does on it (HandOffer, offered as "hands"),
// with its silent speaker (SpeakerOffer, offered as "speaker").
class SimulatedCastle final : public Castle, public HandOffer, public SpeakerOffer {
public:
    // `clock` must outlive it.
    SimulatedCastle(drivers::BoardLayout layout, const drivers::LoopClock& clock,
                    SimulatedCastleOptions options = {});

    const drivers::BoardLayout& layout() const override { return board_.layout(); }
    void start(CastleSink& sink) override;
    Microseconds step() override;
    void show(const drivers::LedStates& leds, Timestamp now) override;
    std::optional<Timestamp> nextLedChange() const override { return std::nullopt; }
    // What the reader's chip says it is, as the bench has it (simulatedChip()).
    std::optional<ReaderChip> chipOf(drivers::ReaderIndex reader) const override;
    // The bench's stuck keys (a hand's press is pressed and released at once).
    std::vector<std::pair<drivers::StationId, drivers::VoteKey>> keysDown() const override {
        return {bench_.stuckKeys.begin(), bench_.stuckKeys.end()};
    }
    // "hands": this castle as a HandOffer; "speaker": as a SpeakerOffer;
    // nothing under any other name.
    CastleOffer* offer(std::string_view name) override;
    // The silent speaker (SpeakerOffer): what was said, at the step after.
    drivers::SpeechOut& speaker() override { return speech_; }
    const drivers::SimulatedSpeech& speech() const { return speech_; }

    // What a hand does on the web page (HandOffer). A press goes to the sink
    // at once (after start(); before, at start()). A stuck key (the bench's)
    // never gives a press: it reads pressed from the start, and the real
    // debouncer (drivers/gpio/debouncer.hpp) takes a key held at start-up
    // as no press until it is released, which it never is.
    [[nodiscard]] bool put(const drivers::TagUid& tag, const drivers::PlaceName& place) override;
    [[nodiscard]] bool putOver(const drivers::TagUid& tag, const drivers::ReaderId& reader) override;
    void lift(const drivers::TagUid& tag) override;
    void press(drivers::StationId station, drivers::VoteKey key) override;
    View view() const override;

    // What `reader` reads from now on, whatever the board holds: a trace's
    // plain `scan` line (its tags) or `reader-fault` line (a failure), as
    // the trace castle's castle model replays them (trace_castle.hpp); none:
    // the board's own contents again. The board's generator still moves on
    // at each of the reader's scans, the scan costs what the held result
    // costs, and a held failure is backed off as any failing reader is.
    void hold(drivers::ReaderIndex reader, std::optional<drivers::ScanResult> result);
    const std::optional<drivers::ScanResult>& held(drivers::ReaderIndex reader) const {
        return held_[reader];
    }

    // The tags on the places, their faults and noise.
    drivers::SimulatedBoard& board() { return board_; }
    const drivers::SimulatedBoard& board() const { return board_; }
    // The LEDs as last shown, but a dead LED line's (the bench's), dark whatever is shown.
    const drivers::LedStates& leds() const { return leds_; }
    // The bench as this castle's readers, keys and LEDs play it (a perfect castle without one).
    const BenchWiring& bench() const { return bench_; }
    const SimulatedCastleCounters& counters() const { return counters_; }
    const drivers::FieldScheduler& fields() const { return fields_; }

private:
    // A scan under way: its result is what the reader's field held when it
    // began; the table gets it when it ends.
    struct Inventory {
        drivers::ReaderIndex reader = 0;
        Microseconds endsAt{0};
        drivers::ScanResult result;
    };
    ScanCost cost(drivers::ReaderIndex reader, const drivers::ScanResult& result) const;

    const drivers::LoopClock& clock_;
    CastleSink* sink_ = nullptr;  // start()'s
    SimulatedCastleOptions options_;
    drivers::SimulatedBoard board_;
    BenchWiring bench_;
    std::vector<std::optional<drivers::ScanResult>> held_;  // hold()'s, by reader
    drivers::FieldScheduler fields_;
    ChangeConfirmer confirmer_;
    std::vector<Inventory> inventories_;  // under way
    Microseconds busFreeAt_{0};           // the scans begun so far are done with the bus
    struct Press {
        drivers::StationId station;
        drivers::VoteKey key;
    };
    std::vector<Press> presses_;  // before start()
    drivers::LedStates leds_;
    SimulatedCastleCounters counters_;
    drivers::SimulatedSpeech speech_;
};

}  // namespace vivaref::castle
