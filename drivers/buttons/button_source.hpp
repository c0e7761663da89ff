// The vote stations' keys: each player's station has Yes, No and (2024
// edition) Stomachache. A source delivers debounced presses, each stamped
// with the time it happened; the referee decides what a press means. The
// libgpiod source reads the line events' kernel timestamps; the simulated
// twin is SimulatedButtons.
#pragma once

#include <compare>
#include <optional>
#include <string_view>
#include <vector>

#include "drivers/time/timestamp.hpp"

namespace vivaref::drivers {

// A vote station: one per seat, numbered as the seat is (0-based, as in a
// referee trace's `button` lines and every interchange format).
struct StationId {
    int number = 0;
    friend auto operator<=>(const StationId&, const StationId&) = default;
};

enum class VoteKey { Yes, No, Stomachache };

// "yes", "no", "stomachache": as in a referee trace.
const char* voteKeyName(VoteKey key);
std::optional<VoteKey> voteKeyFromName(std::string_view name);

struct ButtonEvent {
    StationId station;
    VoteKey key;
    Timestamp at;
    friend bool operator==(const ButtonEvent&, const ButtonEvent&) = default;
};

class ButtonSource {
public:
    virtual ~ButtonSource() = default;
    // Every press since the last call, oldest first.
    virtual std::vector<ButtonEvent> takeEvents() = 0;
};

}  // namespace vivaref::drivers
