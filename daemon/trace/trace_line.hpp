// One line of a referee trace (REFEREE-TRACE): a time `t`, in milliseconds
// since the trace's start, and exactly one input: a host request, a reader's
// scan or fault, a tag put on or lifted off the simulated board, or a vote
// station's key press. Values only: reading and writing them is
// trace_reader / trace_writer, acting on them the simulation rig.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "drivers/buttons/button_source.hpp"
#include "drivers/rfid/tag_uid.hpp"
#include "drivers/sensing/sensing_types.hpp"

namespace vivaref::trace {

enum class HostKind : std::uint8_t {
    NewGame,
    Deal,
    Keep,
    Reshuffle,
    Undo,
    Pause,
    Resume,
    Abandon,
    Reveal,
    // Issue 35 (our additions): the host changes how a seat plays; a vote
    // from a player's phone; the move a seat played from afar chose.
    Seat,
    Vote,
    Plan,
    // The host's answer to which of several characters the readers saw land
    // unseen came first, {"characters": [slugs]} (our addition too).
    Order
};

// "new-game", "deal", ...: the key inside a `host` object.
std::string_view hostKindName(HostKind kind);
bool parseHostKind(std::string_view name, HostKind& kind);

// A request from the host's page or the command line, or from a player's
// page (an Ambition keep, a vote, a move chosen from afar: what the player
// asked, recorded as the host's line of the same form). The payloads of
// new-game (its setup), deal, keep, reshuffle, reveal, seat, vote and plan
// stay JSON: reading them needs the game's rules, which only the referee
// knows (engine/record readers). Undo, pause, resume and abandon carry nothing.
struct HostLine {
    HostKind kind = HostKind::Undo;
    // new-game: the GAME-RECORD setup object; deal, keep, reshuffle: the
    // GAME-RECORD object of that line; reveal: the cards the host entered
    // (daemon/referee/host_request.hpp); order: {"characters": [slugs]};
    // otherwise an empty object.
    nlohmann::json payload = nlohmann::json::object();
    std::vector<std::string> players;  // new-game only: one name per player (may be empty)
    // new-game only: "dealt" or "physical" (our addition to the trace's
    // new-game object: who holds the Favourites cards); empty when not given,
    // which means "dealt".
    std::string favourites{};
    // new-game only: the seats the referee plays, [{"seat": 1, "strength":
    // "good"}, ...] (our addition too; the referee judges the seats and
    // strengths); null when not given.
    nlohmann::json bots = nullptr;
    // new-game only: by player, the club member's id or null (our addition,
    // issue 16); null when not given.
    nlohmann::json members = nullptr;
    // new-game only: a table that teaches, true or false (our addition,
    // issue 34); null when not given (the table's default).
    nlohmann::json teaching = nullptr;
    // new-game only: by seat, how it votes and whether it is played from
    // afar, [{"seat": 2, "votes": "phone", "remote": true}] (our addition,
    // issue 35); null when not given (the table's defaults).
    nlohmann::json seats = nullptr;
    friend bool operator==(const HostLine&, const HostLine&) = default;
};

// What one reader saw: the tags, in the order written. Without `once`, what
// the reader holds from `t` on: the simulated board reads it at every scan
// of its own schedule. With `once` (written `"once": true`), one inventory
// of a castle that scans on its own: the pipeline takes it once, at `t`; the
// castle left out the scans that only repeated the reader's last ones, and
// from the first such line on the simulated board scans nothing (the trace
// speaks for every reader: daemon/simulation/NOTES.md).
struct ScanLine {
    drivers::ReaderId reader;
    std::vector<drivers::TagUid> tags;
    bool once = false;
    friend bool operator==(const ScanLine&, const ScanLine&) = default;
};

// A reader that fails to answer (`what` holds "no answer") or answers
// garbage; `once` as for ScanLine: one failed inventory.
struct ReaderFaultLine {
    drivers::ReaderId reader;
    std::string what;
    bool once = false;
    friend bool operator==(const ReaderFaultLine&, const ReaderFaultLine&) = default;
};

// A tag as a put or lift names it: a UID (which must be in uppercase hex)
// when the text is made of hex digits only, one of them at least a decimal
// digit ("0459AC12"); otherwise a character's slug ("odessa", "dead"; in
// simulation its tag is simulatedTagUid(slug)).
struct TagName {
    std::string text;
    bool isUid() const;
    // The tag it stands for: the UID, or the slug's simulated tag.
    drivers::TagUid uid() const;
    friend bool operator==(const TagName&, const TagName&) = default;
};

struct PutLine {
    TagName tag;
    drivers::PlaceName place;  // a GAME-RECORD place name on the board ("3", "wc3", "dungeon1")
    friend bool operator==(const PutLine&, const PutLine&) = default;
};

struct LiftLine {
    TagName tag;
    friend bool operator==(const LiftLine&, const LiftLine&) = default;
};

// A vote station's key, after debouncing. Stations are numbered as the
// seats, from 0 (our decision: every index in the interchange formats is 0-based).
struct ButtonLine {
    drivers::StationId station;
    drivers::VoteKey key = drivers::VoteKey::Yes;
    friend bool operator==(const ButtonLine&, const ButtonLine&) = default;
};

using TraceInput = std::variant<HostLine, ScanLine, ReaderFaultLine, PutLine, LiftLine, ButtonLine>;

// Each input's key in a trace line, in TraceInput's order.
inline constexpr std::array<std::string_view, std::variant_size_v<TraceInput>> kInputKeys = {
    "host", "scan", "reader-fault", "put", "lift", "button"};

struct TraceLine {
    std::int64_t t = 0;  // milliseconds since the trace's start
    TraceInput input;
    friend bool operator==(const TraceLine&, const TraceLine&) = default;
};

// The largest `t` a trace may hold: about 285 years, far beyond any game,
// and small enough that sums of times never overflow.
inline constexpr std::int64_t kMaxTraceTime = std::int64_t{1} << 53;

// The vote stations a trace may name: more than any castle has.
inline constexpr int kMaxStations = 64;

}  // namespace vivaref::trace
