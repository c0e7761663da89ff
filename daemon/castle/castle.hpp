// A castle: the readers under the board's places, the vote keys and the
// LEDs, as the table sees them. Three stand side by side, with one interface:
//
// - RealCastle (real_castle.hpp): MFRC522 / PN532 readers over spidev and
//   libnfc, keys and LEDs over libgpiod;
// - SimulatedCastle (simulated_castle.hpp): tags on places in memory, put
//   and lifted from the web page, each reader's turn taking what the real
//   driver's takes;
// - TraceCastle (trace_castle.hpp): a referee trace's puts, lifts and scans
//   as `vivaref simulate` replays them, in virtual time.
//
// A castle knows nothing of the rules: it says what its readers saw and
// which keys were pressed, as it happens, to the CastleSink given at
// start(), and shows the LEDs it is told to. Every scan ends in the same
// place, a table's (daemon/table/table.hpp): `vivaref serve` starts its
// real or simulated castle on its table, and the simulation rig
// (daemon/simulation/simulation_rig.hpp) hands the trace castle's scans,
// which it steps itself, to its own. It runs on the loop's clock (drivers/time/loop_clock.hpp):
// step() does what is due now and says when it is next due; nothing in it
// sleeps. The trace castle also says when it is next due before it is
// stepped (nextDue()): a replay runs the referee's deadlines due before
// that first, and never reads a real clock. Its board is scanned as the
// simulated castle scans (the castle model, which owns one) or round robin.
//
// What only one kind of castle can do is not in the interface: a castle
// offers it by name (offer(), found as libcamera finds a pipeline handler
// by its name). The simulated castle offers "hands" (hand_offer.hpp: the
// puts, lifts and presses of sim.html); whoever asks for an offer no castle
// makes gets null, and the table core opens its sim routes only when the
// castle offers hands, without knowing which castle it is.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "drivers/buttons/button_source.hpp"
#include "drivers/leds/led_sink.hpp"
#include "drivers/rfid/tag_reader.hpp"
#include "drivers/sensing/board_layout.hpp"

namespace vivaref::castle {

using drivers::Timestamp;
using Microseconds = std::chrono::microseconds;

// Something a castle offers besides the interface (offer()): each kind
// derives from this, and names itself with a `static constexpr
// std::string_view kName`.
class CastleOffer {
public:
    virtual ~CastleOffer() = default;
};

// What a reader's chip says it is, as its last reset read it (issue 36):
// the castle page names a clone, the self-test a chip that is not there.
struct ReaderChip {
    std::string kind;     // "mfrc522", "pn532", "sim"
    std::string version;  // as the chip gives it: "0x92" (MFRC522 VersionReg), "1.6" (PN532 firmware)
    std::string model;    // the product's name: "MFRC522 v2.0", "FM17522"
    bool clone = false;   // answers as a known clone, not as the genuine chip
};

// What a castle tells the table, each at the loop clock's now.
class CastleSink {
public:
    virtual ~CastleSink() = default;
    // One scan of one reader of the layout, just taken (its tags, or why it failed).
    virtual void scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result) = 0;
    // A vote key pressed (debounced).
    virtual void pressed(drivers::StationId station, drivers::VoteKey key) = 0;
    // A hardware problem for the daemon's log (a reader failing, a line
    // unreadable); each distinct one once in a row.
    virtual void problem(const std::string& message) = 0;
};

class Castle {
public:
    virtual ~Castle() = default;

    // The readers under the board's places and the places, by the indices
    // scanned() names.
    virtual const drivers::BoardLayout& layout() const = 0;

    // Once, before the first step(): the castle speaks to `sink` from now on
    // (it must outlive the castle's use), and every reader is reset and
    // checked (a reader that fails says so as a failed scan).
    virtual void start(CastleSink& sink) = 0;

    // Everything due at the clock's now (fields on, inventories, debounced
    // keys); when the castle is next due, on the loop's clock. It may say
    // "now" when it gave the loop back with more to do at once.
    virtual Microseconds step() = 0;

    // The LEDs as the referee decides them at `now`, and where they next
    // change on their own (a blink's phase), if they do.
    virtual void show(const drivers::LedStates& leds, Timestamp now) = 0;
    virtual std::optional<Timestamp> nextLedChange() const = 0;

    // Descriptors the loop watches for the castle (the vote keys' lines);
    // keyReadable() when one is readable. False: it could not be read (said
    // through the sink), the loop waits a while before watching it again.
    virtual std::vector<int> keyDescriptors() const { return {}; }
    virtual bool keyReadable(int /*fd*/) { return true; }

    // What reader `reader`'s chip said it is at its last reset; none for a
    // reader that has not answered (yet), or a castle that cannot tell.
    virtual std::optional<ReaderChip> chipOf(drivers::ReaderIndex /*reader*/) const { return std::nullopt; }

    // The vote keys that read pressed now (debounced): a key held down, or
    // one stuck since start-up, which the debouncer never takes as a press
    // (issue 36: the self-test names it). None on a castle without keys.
    virtual std::vector<std::pair<drivers::StationId, drivers::VoteKey>> keysDown() const { return {}; }

    // What the castle offers under `name` (a HandOffer for "hands" on the
    // simulated castle); null for a name it offers nothing under. It lives
    // as long as the castle.
    virtual CastleOffer* offer(std::string_view /*name*/) { return nullptr; }
};

// The castle's offer of kind T (found by T::kName), or null.
template <class T>
T* offerOf(Castle& castle) {
    return dynamic_cast<T*>(castle.offer(T::kName));
}

}  // namespace vivaref::castle
