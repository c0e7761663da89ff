// The referee's voice at the table (issue 33): an observer of the table
// (table/table_observer.hpp) that turns the referee's public notices into
// short spoken lines in the table's language, rendered from the catalogs
// (words::Words), for the castle's speaker (drivers::SpeechOut) and for the
// pages that opted in to speak them (the "spoken" event, web-ui/API.md).
//
// It stands beside the referee's path, never in it: notice() only keeps a
// copy of a notice it speaks at (a handful of kinds) and asks for a flush
// later (serve posts it on the loop after the step that decided); flush()
// renders and queues, and SpeechOut::say() never blocks. So a decision, its
// LEDs and its page are never later because of its sentence.
//
// What it says, by moment (voice_moments.hpp), each moment a key of the
// speaker's queue:
//   refusal   "refused": why, and what to put back (referee.refusal-steps);
//             "recovered" withdraws it, waiting or being spoken: a refusal
//             already repaired is never heard
//   election  "election-opened", "crowned", "not-crowned"
//   round     "round-ended": the round, and who leads with how many points
//   winner    "game-over"
//   bot       "bot-plan": the bot's move for someone to make; a move made
//             ("accepted") withdraws it
//   reader    "reader-fault" (a reader silent); withdrawn when all answer
// Nothing secret: only public notices are read, and a line whose message
// holds a vote or an Ambition card is never said (holdsSecret).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/referee/referee.hpp"
#include "daemon/table/table_observer.hpp"
#include "daemon/voice/voice_moments.hpp"
#include "daemon/words/words.hpp"
#include "drivers/audio/speech_out.hpp"
#include "drivers/time/loop_clock.hpp"
#include "engine/message.hpp"

namespace vivaref::voice {

// True when `message` (or a message inside it) names a vote card or an
// Ambition card: such a line is never spoken.
bool holdsSecret(const engine::Message& message);

// One line said (or withdrawn), as the pages hear of it.
struct VoiceLine {
    std::uint64_t id = 0;  // from 1, in the order said or withdrawn
    VoiceMoment moment = VoiceMoment::Refusal;
    std::string key;                      // the moment's name: the speaker's queue key
    std::optional<engine::Message> says;  // none: the key's line is withdrawn
    std::string text;                     // as the castle's speaker says it
    std::string language;
    // When the decision's notice came, on the voice's clock (microseconds).
    std::chrono::microseconds noticedAt{0};
};

class TableVoice final : public table::TableObserver {
public:
    // `referee`: the table's, for the characters' names of a refusal's
    // restore list and a bot's move; `speaker` may be null (no speaker: the
    // pages still hear the lines). `clock`: stamps each notice (the
    // latency's start). `later`: asks for flush() to run soon, off the
    // decision's path (serve: posted on the io_context); unset, the caller
    // calls flush() itself.
    TableVoice(const referee::Referee& referee, const drivers::LoopClock& clock, drivers::SpeechOut* speaker,
               std::function<void()> later = {});

    void setSpeaker(drivers::SpeechOut* speaker);
    drivers::SpeechOut* speaker() const { return speaker_; }
    // A shipped language ("fr"); anything else is English.
    void setLanguage(const std::string& language);
    const std::string& language() const { return words_.language(); }
    // On/off, volume and moments: passed on to the speaker at once.
    void setSettings(const VoiceSettings& settings);
    const VoiceSettings& settings() const { return settings_; }
    // The players' names by player index, for who leads (a seat where a name
    // is missing); asked at flush, never on the decision's path.
    void setPlayerNames(std::function<std::vector<std::string>()> names) { names_ = std::move(names); }

    // --- table::TableObserver
    void notice(const referee::Notice& notice) override;

    // Renders and says what was noticed since the last flush.
    void flush();
    // Lines waiting for flush().
    std::size_t pending() const { return pending_.size(); }

    // The last lines said or withdrawn (at most kKept), oldest first.
    static constexpr std::size_t kKept = 6;
    const std::deque<VoiceLine>& lines() const { return lines_; }
    // {"id": LAST, "lines": [{"id", "key", "says", "language"} | {"id", "key", "cancel": true}]}
    nlohmann::json linesJson() const;

    // The speaker's reports since the last call (Failed ones say why).
    std::vector<drivers::SpeechReport> takeReports();
    // How many lines were left unsaid because they held a secret (a bug if ever more than 0).
    int secretsWithheld() const { return secretsWithheld_; }

private:
    struct Pending {
        VoiceMoment moment;
        std::string kind;
        std::optional<engine::Message> says;
        nlohmann::json detail;
        std::chrono::microseconds at{0};
    };

    void keep(VoiceMoment moment, const referee::Notice& notice);
    void withdraw(VoiceMoment moment);
    std::optional<engine::Message> lineFor(const Pending& p) const;
    std::optional<engine::Message> refusalLine(const Pending& p) const;
    std::optional<engine::Message> roundLine(const Pending& p) const;
    std::optional<engine::Message> botLine(const Pending& p) const;
    engine::MessageValue characterNamed(const std::string& slug) const;
    void record(VoiceLine line);

    const referee::Referee& referee_;
    const drivers::LoopClock& clock_;
    drivers::SpeechOut* speaker_;
    std::function<void()> later_;
    std::function<std::vector<std::string>()> names_;
    words::Words words_;
    VoiceSettings settings_;
    std::vector<Pending> pending_;
    std::deque<VoiceLine> lines_;
    std::uint64_t nextId_ = 1;
    int secretsWithheld_ = 0;
};

}  // namespace vivaref::voice
