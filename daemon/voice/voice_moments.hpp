// The moments the referee speaks at (issue 33): which kinds of line the
// table hears, as the configuration's `[voice] moments` and the host's page
// name them. Each moment is one key of the speaker's queue, so a newer line
// of a moment replaces its stale one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vivaref::voice {

enum class VoiceMoment : std::uint8_t {
    Refusal,   // a refusal and what to put back (withdrawn once repaired)
    Election,  // an election opening and its outcome (crowned or not)
    Round,     // a round's end and who leads
    Winner,    // the game's end and its winners
    Bot,       // a bot's move, for someone to make for it
    Reader,    // a reader that stopped answering
    Teach,     // a teaching table: a rule explained the first time it comes into play
};

inline constexpr VoiceMoment kAllMoments[] = {
    VoiceMoment::Refusal, VoiceMoment::Election, VoiceMoment::Round, VoiceMoment::Winner,
    VoiceMoment::Bot,     VoiceMoment::Reader,   VoiceMoment::Teach};

// "refusal", "election", "round", "winner", "bot", "reader", "teach".
std::string_view voiceMomentName(VoiceMoment moment);
std::optional<VoiceMoment> voiceMomentNamed(std::string_view name);

// A set of moments (all by default).
class VoiceMoments {
public:
    static VoiceMoments all();
    static VoiceMoments none() { return VoiceMoments(0); }

    bool has(VoiceMoment m) const { return bits_ & bit(m); }
    void set(VoiceMoment m, bool on) { bits_ = on ? (bits_ | bit(m)) : (bits_ & ~bit(m)); }
    std::vector<std::string> names() const;
    // "refusal, election" (commas or spaces between), "all" or "none"; an
    // unknown name sets `why` to a sentence naming it and the known ones.
    static std::optional<VoiceMoments> parse(std::string_view text, std::string& why);
    // The known names, for messages: "refusal, election, round, winner, bot, reader, teach".
    static std::string known();

    friend bool operator==(const VoiceMoments&, const VoiceMoments&) = default;

private:
    explicit VoiceMoments(std::uint8_t bits) : bits_(bits) {}
    static std::uint8_t bit(VoiceMoment m) {
        return static_cast<std::uint8_t>(1u << static_cast<unsigned>(m));
    }
    std::uint8_t bits_;
};

// What the host decides of the voice (configuration, then the host's page).
struct VoiceSettings {
    bool enabled = false;
    int volume = 80;  // 0 to 100
    VoiceMoments moments = VoiceMoments::all();
    friend bool operator==(const VoiceSettings&, const VoiceSettings&) = default;
};

}  // namespace vivaref::voice
