// Which reader's field goes on, and which reader is inventoried, when: the
// castle's scan cycle with several fields on at once.
//
// Readers that couple (FieldCoupling) never have their fields on together;
// the others may. A reader's field goes on as soon as no reader it couples
// with has its field on, so that the tags in it power up (ISO/IEC 14443-3
// §5.2.4, `powerUpTime`) while other readers are inventoried on the shared
// SPI bus: the power-up of one group overlaps the inventory of the one
// before. A reader is inventoried once its power-up is over, one at a time
// (the bus is shared), and its field goes off with its inventory. Every
// reader is inventoried once per cycle, in the order of fieldGroups(); a
// reader done with this cycle may already power up for the next one, but
// never while a reader it couples with still waits for its turn in this one,
// and not before three quarters of the last cycle have passed since its turn
// (so each reader is read about once a cycle, not twice in a row and then
// not for two). scanSoon() asks for one scan out of turn (a change to
// confirm), on time: a coupled reader's turn that would still have its field
// on then waits for it, and the reader's own turn due shortly before it
// waits and serves as it. A reader that keeps failing is backed off as
// ScanScheduler does.
//
// Decide, then drive: next() says what to do at the caller's time `now`; the
// caller does it (antenna on; or scan and antenna off) and reports. No clock,
// no sleep, no thread: time is an input, in microseconds because the radio's
// waits are a few milliseconds.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "drivers/sensing/field_coupling.hpp"
#include "drivers/sensing/scan_scheduler.hpp"

namespace vivaref::drivers {

using Microseconds = std::chrono::microseconds;

struct FieldSchedulerConfig {
    // From field on to inventory. 5.1 ms, the ISO/IEC 14443-3 / NFC Forum
    // guard time (Mfrc522ReaderConfig::powerUpTime says why).
    Microseconds powerUpTime{5100};
    // At most this many fields on at once (each MFRC522 field draws tens of
    // milliamperes from the readers' supply); 0: as many as the coupling allows.
    std::size_t maxFieldsOn = 0;
    BackoffPolicy backoff;
};

struct FieldStep {
    enum class Kind {
        FieldOn,  // switch `reader`'s field on now
        Scan,     // inventory `reader`, switch its field off, then call scanned()
        Wait,     // nothing to do before `until`
    };
    Kind kind = Kind::Wait;
    ReaderIndex reader = 0;
    Microseconds until{0};
};

class FieldScheduler {
public:
    // Throws std::invalid_argument for no reader or a bad backoff policy.
    explicit FieldScheduler(FieldCoupling coupling, FieldSchedulerConfig config = {});

    // The next thing to do at `now`. A FieldOn counts the field on from `now`;
    // a Scan holds the field on until scanned() is called for that reader.
    FieldStep next(Microseconds now);

    // The reader's inventory is over and its field off; or its field failed to
    // come on (then ok = false too). A failing reader is backed off.
    void scanned(ReaderIndex reader, bool ok, Microseconds now);
    // One scan of `reader` besides its turns, at `at` or as soon after as
    // its neighbours' fields allow (its field goes on a power-up before): it
    // goes before every reader owed a turn, and counts for no cycle. A turn
    // of the reader that scans at `at` or later does instead. A later call
    // replaces an earlier one. (The table confirms a change quickly this way:
    // a tag gone, or a new tag once a hand brushing past would have left.)
    void scanSoon(ReaderIndex reader, Microseconds at);
    bool extraPending(ReaderIndex reader) const { return readers_[reader].extraAt.has_value(); }
    // From the reader's last Scan step to its scanned().
    Microseconds lastScanLength(ReaderIndex reader) const { return readers_[reader].scanLength; }

    // Optional: the field actually came on at `at` (after the register write),
    // later than the FieldOn step's `now`; the power-up counts from there.
    void fieldCameOn(ReaderIndex reader, Microseconds at) { readers_[reader].onAt = at; }

    const FieldCoupling& coupling() const { return coupling_; }
    const std::vector<std::vector<ReaderIndex>>& groups() const { return groups_; }
    bool fieldOn(ReaderIndex reader) const { return readers_[reader].on; }
    std::size_t fieldsOn() const;

    // Cycles in which every reader not backing off was inventoried once, and
    // when the last of them ended.
    std::uint64_t completedCycles() const { return cycle_; }
    Microseconds lastCycleEnd() const { return lastCycleEnd_; }

    std::uint32_t failuresInARow(ReaderIndex reader) const { return readers_[reader].failures; }
    Microseconds retryAt(ReaderIndex reader) const { return readers_[reader].retryAt; }

private:
    struct ReaderState {
        bool on = false;
        bool scanning = false;  // handed out by a Scan step, scanned() not called yet
        Microseconds onAt{0};
        std::int64_t doneIn = -1;  // the last cycle it was inventoried for
        std::uint32_t failures = 0;
        Microseconds retryAt{0};
        std::size_t rank = 0;                 // its place in the groups' order
        std::optional<Microseconds> extraAt;  // scanSoon(): an extra scan wanted from then
        bool extra = false;                   // the field is on for that extra scan
        Microseconds doneAt{0};               // its last turn's end
        Microseconds scanFrom{0};             // its last Scan step
        Microseconds scanLength{0};           // from its last Scan step to its field off
        Microseconds onLength{0};             // its field's last time on
    };
    // An extra scan is wanted by now (its field may be on for it already).
    static bool wantsExtra(const ReaderState& r, Microseconds now) { return r.extraAt && *r.extraAt <= now; }
    // ... and its field may go on for it.
    static bool extraDue(const ReaderState& r, Microseconds now) {
        return wantsExtra(r, now) && !r.on && r.retryAt <= now;
    }

    // The cycle this reader's next inventory counts for.
    std::int64_t target(const ReaderState& r) const;
    // Off, not backing off, and not yet inventoried for the next cycle.
    bool waitingForField(const ReaderState& r, Microseconds now) const;
    bool mayGoOn(ReaderIndex reader, Microseconds now) const;
    // Its turn would come shortly before an extra scan of its own: the turn
    // waits and serves as the extra (one scan, not two a few ms apart).
    bool turnWaitsForExtra(const ReaderState& r, Microseconds now) const;
    // `self`'s field, switched on now for a turn, would still be on when
    // `other`'s extra scan wants its field on.
    bool wouldHoldUpExtra(const ReaderState& self, const ReaderState& other, Microseconds now) const;
    void closeCycles(Microseconds now);

    FieldCoupling coupling_;
    FieldSchedulerConfig config_;
    std::vector<std::vector<ReaderIndex>> groups_;
    std::vector<ReaderIndex> order_;  // the groups one after another
    std::vector<ReaderState> readers_;
    std::int64_t cycle_ = 0;  // the cycle under way
    Microseconds lastCycleEnd_{0};
    Microseconds cycleLength_{0};  // the last completed cycle's
};

}  // namespace vivaref::drivers
