// A real castle on this machine: `vivaref serve --hardware=real`'s table
// (the table loop over the table core and a RealCastle) built from a configuration file, its
// MFRC522 readers emulated chips behind the SPI interface (the real driver
// code talks to a model of the chip, tests/drivers/emulated_mfrc522.hpp),
// its vote keys, LEDs and chip-selects in-memory GPIO lines, its clock a
// ManualClock: a whole game in virtual time, in a second or two.
//
// What the players do is a referee trace (a table script): a put lays the
// character's tag in the field of the reader under its place a player
// would stand it over (the one holding fewest tags, as on the simulated
// board: drivers/sim/standing_spot.hpp), a lift
// takes it out of every field, a button line is a key's line going active
// and released (edges on the in-memory line, read as the loop would when
// its descriptor is readable), a host line goes in as the web page's would.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "daemon/castle/real_castle.hpp"
#include "daemon/config/castle_config.hpp"
#include "daemon/server/table_core.hpp"
#include "daemon/server/table_loop.hpp"
#include "daemon/store/game_store.hpp"
#include "daemon/trace/trace_line.hpp"
#include "tests/drivers/emulated_mfrc522.hpp"
#include "tests/gpio/memory_gpio_lines.hpp"
#include "tests/simulation/sim_helpers.hpp"

namespace vivaref::realtest {

using drivers::Timestamp;

// A classic castle: floors 0-5 and the throne, floor 3 with two readers
// (floor3-a on the device's own chip select, the others on GPIO lines),
// six stations with Yes, No and an LED, place and turn LEDs.
// Its state directory is "@STATE@", which EmulatedCastle replaces.
std::string classicCastleIni();

// What the emulated hardware really is, where it differs from the
// configuration (issue 36: the faults a self-test must find), each by the
// reader whose spot it concerns. By default every chip is wired to the
// select its reader is configured with.
struct EmulatedFaults {
    // The select each reader's chip is really wired to: a GPIO line
    // ("gpiochip0:27", perhaps one no reader is configured on, or another
    // reader's: two readers swapped), "ce:/dev/spidev0.0" (a device's own CE
    // line), or "" (a chip that never answers: MISO reads 0x00). A reader's
    // transfers reach every chip wired to its configured select: none, one,
    // or several (their MISO bytes ORed).
    std::map<std::string, std::string> wiredTo;
    // VersionReg of a reader's chip (a clone: 0x88, 0x12).
    std::map<std::string, std::uint8_t> versions;
    // Two readers whose antennas couple: a tag put over either is in both fields.
    std::vector<std::pair<std::string, std::string>> coupled;
    // Keys whose line reads active from before the castle starts and never moves.
    std::set<std::pair<int, drivers::VoteKey>> stuckKeys;
    // LEDs (by name, "place-3") whose line drives nothing: ledLit() stays false.
    std::set<std::string> deadLeds;
};

struct EmulatedCastleOptions {
    // The chips' SPI timing (clock, the host's cost per transfer).
    drivers::emulation::EmulatedBusTiming timing;
    // The bus takes time: each transfer moves the loop's clock on by what it
    // costs the chip (as on the Pi, where the loop waits in the ioctl).
    // Otherwise the chips answer in no time and only the loop's waits count.
    bool busTime = false;
    // Each update of the board as sensed that changed something, at the
    // rig's time the referee judged it (benchmarks).
    std::function<void(const drivers::SensingUpdate&, Timestamp)> onJudged;
    // Each public notice of the referee.
    std::function<void(const referee::Notice&)> onNotice;
    // Each scan of each reader as the table gets it (benchmarks).
    std::function<void(drivers::ReaderIndex, const drivers::ScanResult&, Timestamp)> onRawScan;
    EmulatedFaults faults;
};

class EmulatedCastle {
public:
    // `ini` is written as castle.ini in a fresh folder, its "@STATE@" made
    // that folder (the log is there too); it must be a valid configuration.
    // Every character of its edition is enrolled with its simulated UID.
    explicit EmulatedCastle(std::string ini, EmulatedCastleOptions emulation = {});

    // Runs the loop (TableLoop::step() at each time it asks for) up to `end`.
    void runUntil(Timestamp end);
    // Each line at its time: the table script's players.
    void play(const std::vector<trace::TraceLine>& lines);
    void apply(const trace::TraceLine& line);

    // The emulated chip of a reader, by name.
    drivers::emulation::EmulatedMfrc522& chip(const std::string& reader) { return *chips_.at(reader); }
    // A tag laid in the field of the chip under `reader`'s spot (and of any
    // chip coupled with it); out of every field.
    void putOver(const std::string& reader, const drivers::TagUid& uid);
    void liftTag(const drivers::TagUid& uid);
    // The in-memory line of a configured LED ("place-3", "turn-0", "station-1").
    drivers::testing::MemoryGpioLines::Output& led(const std::string& name);
    // Whether the LED gives light: its line driven active, unless the line drives nothing.
    bool ledLit(const std::string& name);
    // The levels an LED's line takes between now and `end` (runs the loop).
    std::vector<bool> watchLed(const std::string& name, Timestamp end);
    // A key's line.
    drivers::LineAddress keyLine(int station, drivers::VoteKey key) const;
    void pressKey(int station, drivers::VoteKey key, Timestamp heldFor = Timestamp(100));

    server::TableCore& table() { return *table_; }
    castle::RealCastle& real() { return *real_; }
    server::TableLoop& loop() { return *loop_; }
    store::GameStore& store() { return *store_; }
    const config::CastleConfig& castle() const { return castle_; }
    const drivers::TagRegistry& tags() const { return tags_; }
    drivers::testing::MemoryGpioLines& gpio() { return gpio_; }
    drivers::ManualClock& clock() { return clock_; }
    const std::vector<std::string>& problems() const { return problems_; }
    const std::filesystem::path& dir() const { return dir_.path(); }

    // Every trace line the log holds for a game, as text.
    std::string traceText(std::int64_t game);

private:
    simtest::TempDir dir_;
    config::CastleConfig castle_;
    drivers::TagRegistry tags_;
    std::map<std::string, std::unique_ptr<drivers::emulation::EmulatedMfrc522>> chips_;
    drivers::testing::MemoryGpioLines gpio_;
    drivers::ManualClock clock_;
    std::unique_ptr<store::GameStore> store_;
    table::TableHooks hooks_;  // the options' onRawScan and onNotice
    std::unique_ptr<server::TableCore> table_;
    std::unique_ptr<castle::RealCastle> real_;
    std::unique_ptr<server::TableLoop> loop_;
    std::vector<std::string> problems_;
    std::map<drivers::TagUid, std::string> fieldOf_;  // which reader's spot holds a tag
    EmulatedFaults faults_;
};

// A random complete 2024 game for 3 to 5 seats (by `seed`) and its table
// script at a brisk pace from t = 1000, with hand noise or without.
struct BriskGame {
    std::string record;
    std::vector<trace::TraceLine> lines;
};
BriskGame brisk2024Game(std::uint64_t seed, bool handNoise);

// The example castle's configuration (daemon/config/examples/castle-2024.ini)
// under `sourceDir`.
std::string exampleCastleIni(const std::string& sourceDir);

// The UID bytes of a character's enrolled tag.
std::vector<std::uint8_t> tagBytes(const drivers::TagUid& uid);

}  // namespace vivaref::realtest
