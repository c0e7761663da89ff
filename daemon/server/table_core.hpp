// The table core: the RefereeService of `vivaref serve`, the service over
// the table (daemon/table/table.hpp: the sensing pipeline and the referee on
// the event loop's clock). The castle (castle/castle.hpp) is started on the
// table itself: its scans and key presses go straight in. The core takes the
// host's requests to the table, answers the pages, and watches the table
// (a table::TableObserver) to republish what it shows when that changed. A
// trace recorder watching the table (table/trace_recorder.hpp) writes the
// game's trace beside (the `once` lines of the scans that said something
// new), so `vivaref simulate` of that trace makes the same decisions at the
// same times, and `vivaref trace export` replays it.
//
// Time: advance() runs the referee's and the pipeline's deadlines up to the
// clock's now and republishes; the table loop (table_loop.hpp) calls it at
// every step, after the castle's.
//
// On a castle that offers hands (castle/hand_offer.hpp: the simulated one),
// the web page's sim routes (sim(), simState()) act through that offer: a
// put or lift moves a tag on its places, a press reaches the table at the
// loop's next step. On any other castle (a real one) they are closed. The
// table core knows the offer only, nothing of the simulated castle.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "daemon/analysis/background_analysis.hpp"
#include "daemon/castle/hand_offer.hpp"
#include "daemon/club/outbox_pusher.hpp"
#include "daemon/config/castle_config.hpp"
#include "daemon/server/archive_cache.hpp"
#include "daemon/server/player_links_file.hpp"
#include "daemon/server/player_tokens.hpp"
#include "daemon/server/referee_service.hpp"
#include "daemon/store/game_store.hpp"
#include "daemon/table/table.hpp"
#include "daemon/table/trace_recorder.hpp"
#include "daemon/voice/table_voice.hpp"
#include "drivers/audio/speech_out.hpp"
#include "drivers/time/loop_clock.hpp"

namespace vivaref::server {

using drivers::Timestamp;

class TableCore final : public RefereeService, private table::TableObserver {
public:
    // `store` may be null (no log; games() is then empty); it must outlive
    // the table. `hands`: the castle's HandOffer (castle::offerOf), which
    // opens the sim routes; null: the castle offers none (a real castle).
    // `layout`: the castle's, on which the table judges.
    TableCore(const drivers::LoopClock& clock, store::GameStore* store, drivers::BoardLayout layout,
              table::TableOptions options, castle::HandOffer* hands = nullptr);

    // Keeps the players' links of the game in progress in `directory`
    // (player_links_file.hpp: `player-links.json`, 0600), and reads what the
    // last run kept there: resumeUnfinished() gives the resumed game its
    // links back; links of any other game are dropped. `onNote`: a line for
    // the daemon's log (a file that could not be read or written, and why;
    // never a token). Unset (the default): links live in memory only.
    void keepPlayerLinks(const std::filesystem::path& directory,
                         std::function<void(const std::string&)> onNote);

    // After a restart: the newest unfinished game in the log is resumed (the
    // board is then guided back to its logged position), with its players'
    // links as they were when they were kept (keepPlayerLinks). Its answer,
    // or nullopt when there was nothing to resume.
    std::optional<referee::HostAnswer> resumeUnfinished();

    // Runs the deadlines up to the clock's now and reports a change.
    void advance();
    // advance() is due at least this often (the log's delayed writes, the
    // status republished).
    static constexpr Timestamp kAdvanceEvery{10};

    // The table: the castle's sink (castle::Castle::start), and what it decided.
    table::Table& table() { return table_; }

    // serve's background analysis (analysis/background_analysis.hpp), for
    // the "analysing (n %)" of gameAnalysis(); null: none runs.
    void setBackgroundAnalysis(const analysis::BackgroundAnalysis* background) { background_ = background; }
    // serve's pusher of the club's outbox (club/outbox_pusher.hpp): its
    // state goes into the public status's "club" (no secret, no member),
    // and the host's "members" answer lists the club's cached members.
    // Unset: no club ("club" absent, "members" empty).
    void setClubPusher(const club::OutboxPusher* pusher) { club_ = pusher; }
    // --- the table's language and its voice (issue 33) -------------------------
    // The table's language (what the shared screens show and the voice says):
    // the configuration's default at start; the host's choice afterwards
    // (POST /api/host/language), written into the game in progress and into
    // each new game (a "table-language" referee event), and taken back from
    // the game resumed. A shipped language only (false otherwise).
    bool setLanguage(const std::string& language);
    const std::string& language() const { return language_; }
    // The voice's on/off, volume and moments (the configuration's [voice],
    // then POST /api/host/voice).
    void setVoice(const voice::VoiceSettings& settings);
    const voice::VoiceSettings& voiceSettings() const { return voice_.settings(); }
    // Where the voice is heard besides the pages that opted in: `speaker`
    // (null: none), what it is for the status ("espeak", "simulated",
    // "none") and why it does not work when it does not (the host page
    // says it). `onProblem`: a line for the daemon's log when a line fails.
    void setSpeaker(drivers::SpeechOut* speaker, std::string kind, std::string problem,
                    std::function<void(const std::string&)> onProblem = {});
    // How the voice's lines are rendered and queued off the decision's path:
    // `post` runs its function soon on the loop (serve: boost::asio::post).
    // Unset: at the end of advance() and of each host request.
    void setVoicePost(std::function<void(std::function<void()>)> post) { voicePost_ = std::move(post); }
    voice::TableVoice& voice() { return voice_; }

    // A seat played from afar whose phone has asked nothing for this long is
    // shown away ("waiting for Ann’s phone"): 15 s unless set.
    void setPhoneAwayAfter(Timestamp after) { phoneAwayAfter_ = after; }

    // The last time the table had something to do for the people at it: a
    // host request, a key press, the board changing, a deadline of the
    // referee's, the referee speaking. The periodic republishing is not.
    Timestamp lastActivity() const { return lastActivity_; }

    // --- RefereeService ------------------------------------------------------
    nlohmann::json publicStatus() override;
    nlohmann::json games() override;
    std::optional<nlohmann::json> game(std::int64_t id) override;
    std::optional<std::string> gameText(std::int64_t id) override;
    const ArchiveCache& archiveCache() const { return archive_; }
    ServiceAnswer gameAnalysis(std::int64_t id) override;
    std::optional<nlohmann::json> playerStatus(std::string_view token) override;
    ServiceAnswer player(std::string_view token, std::string_view request,
                         const nlohmann::json& body) override;
    ServiceAnswer host(std::string_view request, const nlohmann::json& body) override;
    bool simulated() const override { return hands_ != nullptr; }
    ServiceAnswer sim(std::string_view request, const nlohmann::json& body) override;
    nlohmann::json simState() override;
    std::string summaryLine() override;
    std::int64_t stationNotices() override { return table_.referee().counters().stationNotices; }
    std::string tableLanguage() override { return language_; }
    nlohmann::json spoken() override { return voice_.linesJson(); }

private:
    static constexpr Timestamp kRepublishEvery{1000};

    // --- table::TableObserver: what the table shows may have changed
    void tableChanged() override { dirty_ = true; }
    void notice(const referee::Notice& notice) override;
    void rawScan(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at) override;
    void afterInput();
    // The players' links of a game new to this core: those kept before a
    // restart for that same game, else new ones; then kept (keepPlayerLinks).
    void linksForGame(store::GameId game, const std::vector<bool>& people);
    // The links as they are now into the file, or the file removed (the game
    // over); a failure said once per reason.
    void saveLinks();
    void dropSavedLinks();
    void linksNote(const std::string& line);
    std::optional<referee::HostAnswer> resumeNewest();
    // The links kept by the last run that no resumed game took: dropped.
    void settleSavedLinks();
    ServiceAnswer players();
    ServiceAnswer tableInput(trace::HostKind kind, const nlohmann::json& payload);
    // A player's page asked something of the table (their phone is there).
    void seen(int player);
    void addPhones(nlohmann::json& status) const;
    ServiceAnswer newLink(const nlohmann::json& body);
    std::optional<ServiceAnswer> undoNeedsConfirmation(nlohmann::json& form);
    ServiceAnswer members();
    std::optional<trace::TagName> tagOf(const nlohmann::json& body, std::string& why) const;
    ServiceAnswer hostLanguage(const nlohmann::json& body);
    ServiceAnswer hostVoice(const nlohmann::json& body);
    nlohmann::json voiceJson() const;
    // The table's language into the log, for `game` (a "table-language" event).
    void logLanguage(store::GameId game);
    void voiceDue();
    void speak();
    void pollVoice();

    const drivers::LoopClock& clock_;
    store::GameStore* store_;
    ArchiveCache archive_;             // finished games' answers (GET /api/games/ID)
    ArchiveCache analyses_{4u << 20};  // their analyses' (GET /api/games/ID/analysis)
    const analysis::BackgroundAnalysis* background_ = nullptr;
    const club::OutboxPusher* club_ = nullptr;
    Timestamp lastActivity_{0};
    store::WallTime wallAtZero_;  // the referee's time 0, for the log's rows
    castle::HandOffer* hands_;    // the castle's, if it offers hands
    table::Table table_;
    std::unique_ptr<table::TraceRecorder> recorder_;  // with a log: the table's trace written beside
    PlayerTokens tokens_;
    std::optional<store::GameId> tokensFor_;
    // Where the links are kept (keepPlayerLinks), what the last run kept
    // there (until the first game's links are settled), and why it could
    // not be read. linksOver_: the game of tokensFor_ ended; its links stay
    // in memory (its players may read their last cards) but not on disk.
    std::optional<PlayerLinksFile> linksFile_;
    std::optional<SavedPlayerLinks> savedLinks_;
    std::string savedLinksProblem_;
    bool savedLinksSettled_ = true;
    bool linksOver_ = false;
    bool linksOnDisk_ = false;  // the file holds this game's links
    std::string tokensUid_;     // the log's uid of tokensFor_'s game
    std::string lastLinksProblem_;
    std::function<void(const std::string&)> onLinksNote_;
    // By player: when their page last asked the table anything (this run).
    std::vector<std::optional<Timestamp>> lastSeen_;
    Timestamp phoneAwayAfter_{15000};
    bool dirty_ = false;  // the table changed since the status was last republished
    Timestamp lastChange_{0};
    std::string language_ = "en";
    voice::TableVoice voice_;
    std::string speakerKind_ = "none";
    std::string speakerProblem_;
    std::function<void(const std::string&)> onVoiceProblem_;
    std::function<void(std::function<void()>)> voicePost_;
    bool voiceDue_ = false;       // lines wait for speak() (no post)
    bool voicePosted_ = false;    // speak() is posted
    Timestamp lastVoicePoll_{0};  // the speaker's reports last read
};

}  // namespace vivaref::server
