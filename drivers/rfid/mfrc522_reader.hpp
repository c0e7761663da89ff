// A TagReader on an MFRC522: it inventories every ISO/IEC 14443-A tag in its
// field, one at a time (REQA, anticollision and SELECT through the cascade
// levels, then HLTA so that the next REQA finds the others), until no tag
// answers, or until a round shows that the tag it read was the only one left
// (stopAtLoneTag). Every wait is bounded; every failure comes back as a ScanError.
// When its last scan found one 7- or 10-byte tag, or two tags or more, a scan
// first checks for exactly those tags (checkKnownTag, checkKnownTags) and runs
// the full inventory only when the check says the field changed.
//
// The same scan may also run interleaved with other readers' on one SPI bus
// (beginScan, continueScan): it stops at each radio wait and the bus serves
// other chips meanwhile. scan() is that scan run to its end, each radio wait
// spent holding the bus.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "drivers/rfid/mfrc522_chip.hpp"
#include "drivers/rfid/tag_reader.hpp"

namespace vivaref::drivers {

struct Mfrc522ReaderConfig {
    std::string name;
    mfrc522::ChipTiming timing;
    // A floor holds at most a few characters; beyond this the scan reports garbage.
    int maxTagsPerScan = 16;
    // Rounds that may fail (a tag leaving, a garbled frame) before the scan gives up.
    int maxFailedRounds = 4;
    // A round whose ANTICOLLISION frames met no collision at any cascade level
    // read every tag that answered its REQA, so one tag: once the last level's
    // ANTICOLLISION brought the rest of the UID (checked by its BCC), the scan
    // ends without that level's SELECT, the HLTA and a closing REQA. Only when
    // no round of the scan failed: a failed round may leave tags silent for one
    // REQA (§6.3.3). That tag is not halted, so a second scan in the same field
    // may read it again (TagReader: scan once per antennaOn()); its UID is
    // checked by the parity bits and BCC only, not by the tag's answer to SELECT
    // (the sensing pipeline drops unknown UIDs and votes over K scans).
    bool stopAtLoneTag = true;
    // How long the tags need between antennaOn() and scan() to power up, for
    // the caller to wait (on its timer, not in the reader). ISO/IEC 14443-3
    // §5.2.4 gives a tag 5 ms in the field before it must take a command and
    // NFC Forum readers wait 5.1 ms; only that figure has a written source.
    // Shorter is a bet on the castle's own tags: measure them first (a reader
    // that finds a tag at 5.1 ms and misses it at the shorter wait says no).
    std::chrono::microseconds powerUpTime{5100};
    // When the last scan found one tag of 7 or 10 bytes, check for that tag
    // instead of inventorying: REQA; SELECT of its known cascade levels but the
    // last; one ANTICOLLISION of the last level, which every tag still in step
    // answers (a second tag with the same first levels collides, another tag
    // in its place answers other bytes); and a closing REQA, which the known
    // tag (left in READY) does not answer and any other tag (sent back to IDLE
    // by a SELECT that was not its own) does. So a swap, an added tag and a
    // removed tag are all seen in this very scan; anything unexpected runs the
    // full inventory. One ANTICOLLISION frame (the first level's) less than the
    // lone-tag inventory for one REQA that times out: ~0.45 ms less per 7-byte tag.
    // 4-byte tags gain nothing: REQA and one ANTICOLLISION already read them whole.
    bool checkKnownTag = true;
    // When the last scan found two tags or more (any UID sizes), check for that
    // set instead of inventorying, with no ANTICOLLISION but one:
    // - REQA wakes every tag (ATQAs of different kinds may collide: fine);
    // - each known tag but one in turn: SELECT of each cascade level with its
    //   known bytes (the SAK's cascade bit must say whether more follow), then
    //   HLTA. A missing tag leaves a SELECT unanswered. Every tag in READY that
    //   hears a SELECT not its own falls back to IDLE, so the REQA before the
    //   next known tag wakes them all again, while the halted ones stay silent;
    //   a silent REQA there says no tag is left but those already confirmed;
    // - the last one (a shortest UID) as in checkKnownTag: SELECT of its first
    //   levels, one ANTICOLLISION of its last level, which every tag still in
    //   step answers (a 4-byte tag: every tag awake, so nothing more to ask),
    //   and a closing REQA that only a tag we did not select answers.
    // Anything unexpected (an answer to the closing REQA, a missing or wrong
    // SAK, garbage) runs the full inventory in the same scan, which starts as
    // after a failed round (tags left in READY sit out one REQA) and cannot
    // hear the tags the check halted: the scan's tags are the ones the check
    // confirmed (they answered a SELECT of their whole UID within the last few
    // milliseconds) and the ones the inventory found. Saves every collision
    // round and all but one ANTICOLLISION: see drivers/rfid/NOTES.md.
    bool checkKnownTags = true;
};

// What one scan cost, for the benchmark and the logs.
struct ScanCost {
    std::uint64_t spiTransfers = 0;
    std::uint64_t spiBytes = 0;
    int requests = 0;        // REQA frames
    int anticollisions = 0;  // ANTICOLLISION frames, one per cascade level plus one per collision
    int selects = 0;
    int halts = 0;
    bool stoppedAtLoneTag = false;
    bool checkedKnownTag = false;    // began with the check of the tag the last scan found
    bool checkedKnownTags = false;   // began with the check of the set of tags the last scan found
    bool knownTagConfirmed = false;  // ...which found exactly that tag or set: no inventory
    int knownTagsConfirmed = 0;      // known tags whose SELECTs the check saw answered, inventory or not
    int noReplies = 0;               // frames the chip's timer closed
    int collisions = 0;
    int failedRounds = 0;
};

class Mfrc522Reader final : public TagReader {
public:
    Mfrc522Reader(SpiTransport& spi, Mfrc522ReaderConfig config);

    // Soft reset, version check, configuration and a CRC coprocessor check;
    // at start-up, and again after the chip stopped answering.
    mfrc522::Status initialize();
    // VersionReg as the last initialize() read it (0 when it did not get that far).
    std::uint8_t version() const { return version_; }
    std::chrono::microseconds powerUpTime() const { return config_.powerUpTime; }

    const std::string& name() const override { return config_.name; }
    std::error_code antennaOn() override;
    std::error_code antennaOff() override;
    ScanResult scan() override;

    // The scan in steps, for a caller that keeps several readers' scans under
    // way on one bus: beginScan(), then continueScan() until it returns no
    // wait, then takeScanResult() (the same result, costs and known tags as
    // scan()). Each continueScan() runs the scan on the bus up to its next
    // radio wait (a frame on air, the tag's frame delay, the chip's timer) and
    // returns how long the radio needs, counted from its return, before the
    // next continueScan(); the chip's timer and FIFO keep the answer
    // meanwhile, so other chips may use the bus, and a later call costs
    // nothing but the delay. The field stays on throughout.
    void beginScan();
    std::optional<std::chrono::microseconds> continueScan();
    ScanResult takeScanResult();
    bool scanUnderWay() const { return scan_.has_value(); }

    const ScanCost& lastScanCost() const { return cost_; }
    // The tag the next scan checks for first (checkKnownTag), if any.
    const std::optional<TagUid>& knownTag() const { return knownTag_; }
    // The set of two tags or more the next scan checks for first (checkKnownTags), or none.
    const TagSet& knownTags() const { return knownTags_; }
    const mfrc522::BusCounters& busCounters() const { return chip_.counters(); }

private:
    enum class RoundEnd { FieldEmpty, TagRead, LoneTagRead, TagLost };
    enum class KnownTagCheck { Confirmed, FieldEmpty, Changed };
    // Every step that talks to a tag is a RadioTask: it may stop at a radio
    // wait (GiveBusBack) or run straight through (OnTheBus).
    template <class T>
    using RadioTask = mfrc522::RadioTask<T>;
    using Status = mfrc522::Status;

    // scanField(), then the known tags for the next scan.
    RadioTask<ScanResult> scanAndRemember();
    RadioTask<ScanResult> scanField();
    // The full inventory; `tagsMayBeAwake`: a check left tags in READY, which
    // a first REQA only sends back to IDLE.
    RadioTask<ScanResult> inventory(bool tagsMayBeAwake);
    RadioTask<Status> checkKnownTag(const TagUid& uid, KnownTagCheck& outcome);
    // `settled`: the field holds exactly `confirmed`; else it changed, and holds
    // `confirmed` (halted) and whatever an inventory finds.
    RadioTask<Status> checkKnownSet(const TagSet& known, TagSet& confirmed, bool& settled);
    // SELECT of every cascade level of `uid`, then HLTA; `selected` when each SAK came as expected.
    RadioTask<Status> selectAndHaltKnownTag(const TagUid& uid, bool& selected);
    RadioTask<Status> inventoryRound(TagSet& found, bool mayStopAtLoneTag, RoundEnd& end);
    // One cascade level's ANTICOLLISION loop: the 4 UID bytes and BCC of one tag.
    RadioTask<Status> resolveCascadeLevel(std::uint8_t selectCode, std::array<std::uint8_t, 5>& level,
                                          bool& lost);
    // `level` by value: a coroutine must not hold on to its caller's temporaries.
    RadioTask<Status> selectLevel(std::uint8_t selectCode, std::array<std::uint8_t, 5> level,
                                  std::uint8_t& sak, bool& lost);
    RadioTask<Status> halt();
    mfrc522::Status protocolError(const std::string& what) const;

    mfrc522::Mfrc522Chip chip_;
    Mfrc522ReaderConfig config_;
    std::uint8_t version_ = 0;
    bool antennaOn_ = false;
    ScanCost cost_;
    std::optional<TagUid> knownTag_;
    TagSet knownTags_;
    std::optional<RadioTask<ScanResult>> scan_;  // beginScan()'s, until takeScanResult()
};

}  // namespace vivaref::drivers
