// The castle walk (issue 36): the steps a host follows between games to
// check a castle, each giving findings in words with the fix. The self-test
// runs it (`vivaref self-test`, the host page's "Check the castle"); the
// guided set-up will run the same steps to *write* a configuration from
// their results (a reader assigned to the place whose tag it saw, LEDs and
// keys confirmed), so the results are kept as data (WalkResults) beside the
// findings.
//
// The steps, in order:
// 1. readers: every reader's scans for a moment (kReadersFor) and its chip
//    (Castle::chipOf): silent, a chip that is not an MFRC522, garbled
//    reads, a failing bus, a clone (a note), a tag read by two readers;
// 2. LEDs: each lit alone in turn (the walk takes the LEDs over from the
//    referee while it runs: leds()); the host answers lit, not lit or skip;
// 3. keys: hands off the keys for a moment (a key that answers then is
//    stuck), then each key pressed when asked (another key answering:
//    crossed wires; none within kKeyWait, or the host says done: the key
//    does not answer, stuck down or not wired);
// 4. tags (the full check only): with the castle cleared, a tag over each
//    reader in turn: the readers that see it are recorded (none: its
//    reader's wiring; another reader: swapped; two: coupled).
//
// Plain logic: no castle, no clock. Whoever runs it hands it every raw scan
// and key press with their times, the host's answers, and the time now
// (advance()); it says what to show on the LEDs and what to ask.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "daemon/castle/castle.hpp"
#include "daemon/config/castle_config.hpp"
#include "drivers/buttons/button_source.hpp"
#include "drivers/leds/led_sink.hpp"
#include "drivers/rfid/tag_reader.hpp"
#include "drivers/sensing/board_layout.hpp"
#include "engine/message.hpp"

namespace vivaref::setup {

using drivers::Timestamp;

// What the walk knows of a castle: its readers (as the table's layout
// orders them) with their wiring when a configuration gives it, its LEDs
// and its keys with their lines.
struct WalkReader {
    std::string name;
    std::string place;                           // GAME-RECORD place name
    std::optional<config::ReaderConfig> wiring;  // none: the simulated standard castle
};
struct WalkLed {
    drivers::LedId led;
    std::optional<config::GpioLine> line;
};
struct WalkKey {
    drivers::StationId station;
    drivers::VoteKey key;
    std::optional<config::GpioLine> line;
    friend bool operator==(const WalkKey& a, const WalkKey& b) {
        return a.station == b.station && a.key == b.key;
    }
};
struct WalkCastle {
    std::vector<WalkReader> readers;  // by ReaderIndex
    std::vector<WalkLed> leds;
    std::vector<WalkKey> keys;
};

// The walk's castle from a configuration and the layout the table judges
// on. A configuration that names no reader (the simulated standard castle)
// gives the layout's readers without wiring, an LED per place and the keys
// of `simulatedStations` stations (Yes and No, and Stomachache in 2024).
WalkCastle walkCastleOf(const config::CastleConfig& castle, const drivers::BoardLayout& layout,
                        int simulatedStations = 0);

enum class WalkStep { Readers, Leds, Keys, Tags, Done };
const char* walkStepName(WalkStep step);  // "readers", "leds", "keys", "tags", "done"

// A finding and its fix. A note (a clone chip) is said but is not a fault.
struct WalkFinding {
    engine::Message finding;
    engine::Message fix;
    bool note = false;
};

// The steps' results as data, for a set-up to turn into a configuration.
struct ReaderCheck {
    int scans = 0, failures = 0;
    std::map<drivers::ScanErrorKind, int> failuresByKind;
    std::set<drivers::TagUid> tagsSeen;
    std::optional<castle::ReaderChip> chip;
};
enum class LedAnswer { Lit, NotLit, Skipped };
struct KeyCheck {
    WalkKey asked;
    std::optional<WalkKey> answered;  // the key that answered; none: none did (or skipped)
    bool skipped = false;
};
struct TagCheck {
    drivers::ReaderIndex over = 0;          // the reader the tag was put over
    std::set<drivers::ReaderIndex> seenBy;  // the readers that saw it
    bool skipped = false;
};
struct WalkResults {
    std::vector<ReaderCheck> readers;  // by reader
    std::map<drivers::LedId, LedAnswer> leds;
    std::set<std::pair<drivers::StationId, drivers::VoteKey>> stuckKeys;
    std::vector<KeyCheck> keys;
    std::vector<TagCheck> tags;
};

// What the tag walk says of where each reader is: a reader that alone saw
// the tag put over a spot is under that spot's place (its configured reader
// swapped with it, or it is the spot's own reader). Readers that saw no tag,
// or saw one together with another (coupled: a field group to separate
// first), are not placed. By reader name; for a set-up to write `place =`.
std::map<std::string, std::string> placesSeen(const WalkCastle& castle, const WalkResults& results);

// The host's answer to the step's question.
enum class WalkAnswer { Lit, NotLit, Skip, Done };
std::optional<WalkAnswer> walkAnswerFromName(std::string_view name);  // "lit", "not-lit", "skip", "done"

struct WalkOptions {
    bool full = false;  // the tag walk too
    Timestamp readersFor{2000};
    Timestamp handsOffFor{1500};
    Timestamp keyWait{20000};
    Timestamp tagSettle{600};  // after a tag is first seen, the readers that see it within this long
    // A reader whose Protocol errors are at least this share of its scans
    // garbles; one whose failures of any kind are, but that answers too, fails now and then.
    double garbledShare = 0.2;
};

class CastleWalk {
public:
    using ChipOf = std::function<std::optional<castle::ReaderChip>(drivers::ReaderIndex)>;

    using KeysDown = std::function<std::vector<std::pair<drivers::StationId, drivers::VoteKey>>()>;

    CastleWalk(WalkCastle castle, WalkOptions options, ChipOf chipOf, Timestamp now);
    // The keys that read pressed now (Castle::keysDown): at the end of the
    // hands-off moment, a key down is stuck (a key stuck since start-up
    // gives no press at all). Unset: only presses tell.
    void setKeysDown(KeysDown keysDown) { keysDown_ = std::move(keysDown); }

    void scanned(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at);
    void pressed(drivers::StationId station, drivers::VoteKey key, Timestamp at);
    // False: that answer means nothing now (the step asks no such thing).
    bool answer(WalkAnswer answer, Timestamp now);
    // Moves on what is due by now (the readers' moment over, a key's wait).
    void advance(Timestamp now);

    WalkStep step() const { return step_; }
    bool done() const { return step_ == WalkStep::Done; }
    // What the host is asked to do now (or told is happening).
    engine::Message prompt() const;
    // The answers the step takes now ("lit", "not-lit", "skip", "done").
    std::vector<std::string> answers() const;
    // How far: the item of the step (an LED, a key, a reader for the tag) and how many it has.
    int item() const { return static_cast<int>(item_); }
    int items() const;
    // The LEDs as the walk shows them (the one asked about lit, every other off).
    drivers::LedStates leds() const;

    const std::vector<WalkFinding>& findings() const { return findings_; }
    // Findings that are faults (not notes).
    int faults() const;
    const WalkResults& results() const { return results_; }
    const WalkCastle& castle() const { return castle_; }

private:
    void finishReaders();
    void startLeds(Timestamp now);
    void startKeys(Timestamp now);
    void nextKey(Timestamp now);
    void finishKey(std::optional<WalkKey> answered, bool skipped, Timestamp now);
    void startTags(Timestamp now);
    void nextTag(Timestamp now);
    void finishTag(bool skipped, Timestamp now);
    void finishTags();
    void find(engine::Message finding, engine::Message fix, bool note = false);
    bool anyTagOnCastle() const;

    WalkCastle castle_;
    WalkOptions options_;
    ChipOf chipOf_;
    KeysDown keysDown_;
    WalkStep step_ = WalkStep::Readers;
    std::size_t item_ = 0;
    Timestamp stepSince_{0};
    bool handsOff_ = false;    // keys: the quiet moment before the first is asked
    bool tagClearing_ = true;  // tags: waiting for an empty castle before the next tag
    std::optional<Timestamp> tagFirstSeen_;
    std::vector<drivers::TagSet> lastTags_;  // by reader: its last successful scan's tags
    std::set<drivers::TagUid> ignoredTags_;  // tags: left on the castle, looked past
    // Readers step: two readers holding one tag at once (the pair, the last such tag).
    std::map<std::pair<drivers::ReaderIndex, drivers::ReaderIndex>, drivers::TagUid> crossReads_;
    std::set<std::pair<drivers::ReaderIndex, drivers::ReaderIndex>> reportedPairs_;  // coupled, said once
    std::set<std::pair<drivers::ReaderIndex, drivers::ReaderIndex>> swappedPairs_;
    std::set<drivers::ReaderIndex> silentReaders_;  // no scan in the readers step
    WalkResults results_;
    std::vector<WalkFinding> findings_;
};

}  // namespace vivaref::setup
