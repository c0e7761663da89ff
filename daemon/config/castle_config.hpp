// A castle as its configuration file describes it: the RFID readers under
// the places, the vote stations, the LEDs, the sensing knobs and the daemon's
// own settings. Plain data: config_file.cpp fills it from the file,
// config_check.cpp checks it as a whole, and the daemon maps it to driver
// objects. Every item remembers the file line it came from, so that a later
// problem (a pin used twice, a device that will not open) can name it.
#pragma once

#include <compare>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/config/club_config.hpp"
#include "daemon/voice/voice_moments.hpp"
#include "drivers/sensing/board_layout.hpp"
#include "drivers/sensing/field_coupling.hpp"
#include "drivers/sensing/scan_scheduler.hpp"
#include "drivers/sensing/sensing_config.hpp"

namespace vivaref::config {

using drivers::Timestamp;

// Which places the castle has: the classic board (floors 0-5 and the throne)
// or the 2024 board (also the two WCs and the three dungeons).
enum class CastleEdition { Classic, Vive2024 };
std::string_view castleEditionName(CastleEdition edition);  // "classic", "2024"

// Where the daemon's senses come from: the simulated castle, or the readers,
// buttons and LEDs the file names.
enum class Hardware { Sim, Real };
std::string_view hardwareName(Hardware hardware);  // "sim", "real"

enum class ReaderType { Mfrc522, Pn532, Sim };

// Which readers may not have their RF fields on together ([castle] fields).
// The levels of the tower: the dungeons under floor 0, floors 0-5, wc3 and
// wc4 beside floors 3 and 4, the throne (6) over floor 5; the enrolment
// reader has none and couples with no reader.
enum class FieldRule {
    OneAtATime,            // every pair: one field at a time (the default: safe on any board)
    AdjacentLevels,        // readers one level apart
    SameOrAdjacentLevels,  // and readers of the same level
};
std::string_view fieldRuleName(FieldRule rule);  // "one-at-a-time", "adjacent-levels", ...
// A place's level in the tower; none for the enrolment place.
std::optional<int> placeLevel(std::string_view place);
std::string_view readerTypeName(ReaderType type);  // "mfrc522", "pn532", "sim"

// The pull resistor of an input line (libgpiod's bias flags); AsIs leaves
// whatever the line had.
enum class Bias { AsIs, PullUp, PullDown, Disabled };
std::string_view biasName(Bias bias);  // "as-is", "pull-up", "pull-down", "disabled"

// One line of one GPIO chip, as libgpiod names them: "gpiochip0", 17.
struct GpioLine {
    std::string chip;
    unsigned line = 0;
    std::string text() const;  // "gpiochip0:17"
    friend auto operator<=>(const GpioLine&, const GpioLine&) = default;
};

// A GPIO line and how it is wired.
struct GpioPin {
    GpioLine gpio;
    bool activeLow = false;
    Bias bias = Bias::AsIs;  // inputs only
    int sourceLine = 0;      // where the file names it
};

// The places a castle of that edition has, as GAME-RECORD names them:
// "0".."5", "6" (the throne), then "wc3", "wc4", "dungeon1".."dungeon3".
std::vector<std::string> castlePlaces(CastleEdition edition);

// A reader beside the board rather than under it: `vivaref enrol` asks for
// tags there; a game ignores it.
inline constexpr std::string_view kEnrolmentPlace = "enrolment";

struct ReaderConfig {
    std::string name;   // "floor3-a": the section [reader.floor3-a]
    std::string place;  // a GAME-RECORD place name, or kEnrolmentPlace
    ReaderType type = ReaderType::Mfrc522;
    // MFRC522: the spidev device ("/dev/spidev0.0"); PN532: a libnfc
    // connection string ("pn532_uart:/dev/ttyS0"); sim: empty.
    std::string bus;
    // MFRC522 only: nothing for the spidev device's own CE line, else the
    // GPIO line that selects this reader.
    std::optional<GpioLine> chipSelect;
    std::uint32_t spiHz = 4'000'000;
    // Readers whose fields may not be on with this one's, whatever the rule
    // says ([reader.NAME] neighbours = floor2-a floor2-b).
    std::vector<std::string> neighbours;
    int sourceLine = 0;  // the section's header
};

// A vote station: one per seat, numbered as the seat (from 0).
struct StationConfig {
    int seat = 0;
    std::optional<GpioPin> yes;
    std::optional<GpioPin> no;
    std::optional<GpioPin> stomachache;  // 2024 edition
    std::optional<GpioPin> led;
    int sourceLine = 0;
};

// The game log's file name in the state directory when nothing names another.
inline constexpr std::string_view kDefaultDatabaseName = "games.sqlite";

struct DaemonSettings {
    Hardware hardware = Hardware::Sim;  // default: real when a non-sim reader is configured
    // The status page is read from phones on the castle's network, so every
    // interface by default.
    std::string httpAddress = "0.0.0.0";
    std::uint16_t httpPort = 8080;
    // The host's password for the game controls (strong: isStrongHostToken);
    // empty: the host secret serve makes in the state directory.
    std::string hostToken;
    // More names and addresses the pages are reached by, besides the
    // machine's own (the Host headers answered: server/host_check.hpp).
    std::vector<std::string> httpNames;
    // Reverse proxies (addresses, or networks as address/prefix) whose
    // X-Forwarded-For names the client: server/trusted_proxies.hpp. None
    // by default: the header is then ignored.
    std::vector<std::string> trustedProxies;
    // The table's language: what the shared screens show and the voice says
    // unless the host chooses another (a shipped catalog, daemon/words).
    std::string language = "en";
    // A new game teaches (lights where a lifted piece may go, explains each
    // rule the first time) unless the host's new game says otherwise.
    bool teaching = false;
    // A seat played from afar whose phone has asked nothing for this many
    // seconds is shown away ("waiting for Ann’s phone", issue 35).
    int phoneAwayAfter = 15;
    // The game log and the tag registry live here.
    std::filesystem::path stateDirectory;
    std::filesystem::path database{kDefaultDatabaseName};  // relative to stateDirectory unless absolute
    // The simulated castle's bench (issue 36, config/sim_bench.hpp): the
    // faults of the hardware it simulates. Absolute (`sim_bench` is relative
    // to the file's directory); empty: none, a perfect castle.
    std::filesystem::path simBench;
};

// [voice]: the referee's voice (daemon/voice/, issue 33). Which speaker:
// `auto` is espeak-ng on a real castle and the simulated castle's silent
// recorder on a simulated one; `espeak` speaks on either (a laptop's sound
// card); `none` has no speaker (the pages that opted in still speak).
enum class VoiceOutput { Auto, Espeak, None };
struct VoiceConfig {
    voice::VoiceSettings settings;  // enabled (off by default), volume, moments
    std::string pcm = "default";    // the ALSA PCM espeak-ng plays to, by name
    VoiceOutput output = VoiceOutput::Auto;
};

struct CastleConfig {
    std::filesystem::path sourceFile;
    CastleEdition edition = CastleEdition::Classic;
    // Empty: the simulated castle's standard layout, one reader per place.
    std::vector<ReaderConfig> readers;
    std::vector<StationConfig> stations;       // by seat
    std::map<std::string, GpioPin> placeLeds;  // by GAME-RECORD place name
    std::map<int, GpioPin> turnLeds;           // by seat
    Timestamp buttonDebounce{20};
    drivers::SensingConfig sensing;
    drivers::BackoffPolicy backoff;
    Timestamp scanInterval{10};  // one reader scanned every this long
    FieldRule fieldRule = FieldRule::OneAtATime;
    std::size_t maxFieldsOn = 0;  // 0: as many as the rule allows
    std::int64_t rawScansKept = 100'000;
    DaemonSettings daemon;
    // [club]: the club this table pushes its games to; none without the section.
    std::optional<ClubConfig> club;
    VoiceConfig voice;  // [voice]
    // Where each key ("reader.floor3-a.bus") and section ("[reader.floor3-a]")
    // is in the file, for problems found later.
    std::map<std::string, int> keyLines;

    // The file line of a key or section; 0 when the file does not give it.
    int lineOf(const std::string& key) const;
    // The readers as the sensing pipeline sees them (names and places); the
    // simulated castle's standard layout when the file names no reader.
    drivers::BoardLayout layout() const;
    // Which of `layout`'s readers may not have their fields on together: the
    // rule over their places' levels, plus every reader's `neighbours`.
    drivers::FieldCoupling fieldCoupling(const drivers::BoardLayout& layout) const;
    std::filesystem::path databasePath() const;
    // The tag registry: tags.json in the state directory.
    std::filesystem::path tagRegistryPath() const;
};

// The state directory when the file names none: $STATE_DIRECTORY (systemd's
// StateDirectory=vivaref gives /var/lib/vivaref), else
// $XDG_STATE_HOME/vivaref, else ~/.local/state/vivaref: the same place the
// game log commands look.
std::filesystem::path defaultStateDirectory();

// The game log when neither the command line nor a configuration names one
// (`serve` without --config, the game log commands without --db or
// --config): $VIVAREF_DB, else kDefaultDatabaseName in defaultStateDirectory().
// The one definition of that default.
std::filesystem::path defaultDatabasePath();

}  // namespace vivaref::config
