// The guided set-up from the host's page (issue 36): a castle configuration
// written from what the castle itself shows, between games
// (GET/POST /api/host/setup, POST /api/host/setup/answer, web-ui/API.md).
//
// It starts from a wiring profile (the readers of the configuration in
// force, or the example castle compiled into the binary), *tries* it (serve
// rebuilds its castle side on the unsaved profile), and walks the host
// through:
// 1. places: a tag put on each of the profile's spots in turn (reader by
//    reader, in the profile's order); the reader that alone sees it is
//    assigned to that spot's place; two or more: a coupling, the host
//    chooses the spot's reader or retries; none: retry or skip; a reader
//    already claimed by another place: refused, with the reason;
// 2. checks: the castle walk's readers, LEDs and keys (castle_walk.hpp);
//    a key that answers as another is written with that key's line;
// 3. review: the INI text to be written and its problems (check-config's),
//    then save (config::saveCastleConfig) and apply.
// Abandoned (the host's stop, a new game; serve restarted forgets it), the
// castle goes back on the configuration in force, which never changed.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/config/castle_config.hpp"
#include "daemon/config/config_problem.hpp"
#include "daemon/server/host_self_test.hpp"
#include "daemon/server/referee_service.hpp"
#include "daemon/setup/castle_walk.hpp"
#include "daemon/table/table_observer.hpp"
#include "drivers/time/loop_clock.hpp"

namespace vivaref::server {

// What the set-up page shows of the castle in force, above its steps.
struct CastleInForce {
    std::filesystem::path file;   // the configuration whose castle runs (castle.ini or the given file)
    std::filesystem::path given;  // the file serve was given (--config)
    bool saved = false;           // castle.ini, the set-up's, is in force (though its castle may not run)
    bool real = false;            // serve runs the real readers (else the simulated castle)
    bool hardwareFixed = false;   // serve's --hardware: a configuration's `hardware` is not followed
    // A castle that did not open (the saved one at start, or one applied): why, and what runs instead.
    std::optional<engine::Message> problem;
};

// What the set-up asks of serve.
struct HostSetupHooks {
    // The configuration in force into `config`: Ok; else why there is none to start from (503
    // castle.config.no-file without --config, 409 castle.config.problems with them).
    std::function<ServiceAnswer(config::CastleConfig& config)> inForce;
    // The castle in force as the page shows it.
    std::function<CastleInForce()> castleInForce;
    // castle.ini put aside (config::putAsideSavedConfig) and the given file applied.
    std::function<ServiceAnswer()> putAside;
    // Why a set-up cannot start now besides a game (the self-test or an
    // enrolment running): none when it can.
    std::function<std::optional<engine::Message>()> busy;
    // The castle side rebuilt on `config`, unsaved; an answer not Ok: it did not open (back on the one in
    // force).
    std::function<ServiceAnswer(const config::CastleConfig&)> tryOn;
    // The castle side rebuilt on the configuration in force.
    std::function<void()> backToInForce;
    // The castle walk's settings on the castle in use (the tried one).
    std::function<HostSelfTestSettings(const config::CastleConfig&)> walkSettings;
    // The INI text that saving `config` would write, and its problems by line (check-config's).
    std::function<std::pair<std::string, config::ConfigProblems>(const config::CastleConfig&)> preview;
    // Saved as castle.ini (its backup kept) and applied; the answer says what came of it.
    std::function<ServiceAnswer(const config::CastleConfig&)> saveAndApply;
};

// The example castle's castle sections over `inForce`'s others: the
// profile a set-up "from the example" tries.
config::CastleConfig exampleProfile(const config::CastleConfig& inForce);

// The configuration in force switched to this machine's readers (`hardware
// = real`, no `sim_bench`): its readers when it names some, else the example
// castle's wiring (exampleProfile), which the README's wiring table follows.
config::CastleConfig realProfile(const config::CastleConfig& inForce);

// The profile with the set-up's findings written in: each assigned reader's
// `place =`, each key that answered as another given that key's line.
config::CastleConfig setupResult(const config::CastleConfig& profile,
                                 const std::map<std::string, std::string>& places,
                                 const std::vector<setup::KeyCheck>& keys);

class HostSetup final : public table::TableObserver {
public:
    HostSetup(HostSetupHooks hooks, const drivers::LoopClock& clock);
    // Serve makes the set-up before the castle side its hooks act on.
    void setHooks(HostSetupHooks hooks) { hooks_ = std::move(hooks); }

    // "state" (GET); "start" {"from": "in-force" | "example"}; "stop"; "answer" {"answer": ...,
    // "reader"?: NAME}; between set-ups, "use-real" (realProfile saved and applied: serve then
    // runs this machine's readers) and "put-aside" (the set-up's castle.ini put aside, the given
    // file back in force). Refusals: 409 game-in-progress, busy, running, not-running, not-asked,
    // claimed, already-real, hardware-fixed; 400 for a malformed body; 503 no configuration file.
    ServiceAnswer request(std::string_view action, const nlohmann::json& body, bool gameInProgress);

    bool running() const { return step_ != Step::Idle && step_ != Step::Finished; }
    nlohmann::json state();
    // The LEDs while the checks run (the walk's); none otherwise.
    std::optional<drivers::LedStates> leds() const;
    // A new game is about to begin: a set-up running is abandoned, the castle back on the one in force.
    void abandonForGame();

    // --- table::TableObserver (attached to every castle side's table)
    void rawScan(drivers::ReaderIndex reader, const drivers::ScanResult& result,
                 drivers::Timestamp at) override;
    void inputTaken(const trace::TraceLine& line, std::optional<store::GameId> game) override;

private:
    enum class Step { Idle, Places, Checks, Review, Finished };
    enum class SpotOutcome { None, Waiting, Unseen, Coupled, Claimed };

    ServiceAnswer start(const nlohmann::json& body, bool gameInProgress);
    // Why no set-up (nor a switch of castle) may begin now: a game, a set-up running, busy.
    std::optional<ServiceAnswer> refusedToBegin(bool gameInProgress);
    ServiceAnswer useReal(bool gameInProgress);
    ServiceAnswer putAside(bool gameInProgress);
    nlohmann::json castleState() const;
    ServiceAnswer answer(const nlohmann::json& body);
    void abandon(engine::Message why);
    void advance(drivers::Timestamp now);
    void nextSpot(drivers::Timestamp now);
    void settleSpot();
    void assign(const std::string& reader);
    void startChecks();
    void startReview();
    config::CastleConfig result() const;
    std::vector<std::string> answers() const;
    engine::Message prompt() const;
    bool castleEmpty() const;

    HostSetupHooks hooks_;
    const drivers::LoopClock& clock_;
    Step step_ = Step::Idle;
    std::string from_;
    config::CastleConfig profile_;
    setup::WalkCastle castle_;  // the profile's readers by the tried castle's reader index
    // Places: the spot asked (an index into castle_.readers), what it came to.
    std::size_t spot_ = 0;
    SpotOutcome outcome_ = SpotOutcome::None;
    bool clearing_ = true;
    std::optional<drivers::Timestamp> firstSeen_;
    std::set<drivers::ReaderIndex> seenBy_;
    std::vector<drivers::TagSet> lastTags_;
    std::map<std::string, std::string> places_;     // reader -> place it was seen under
    std::map<std::string, std::size_t> claimedBy_;  // reader -> the spot that claimed it
    std::vector<std::size_t> skipped_;
    std::string claimedReader_;  // Claimed: the reader, and the place that has it
    // Checks: the walk on the tried castle.
    std::optional<setup::CastleWalk> walk_;
    // Review and the end.
    std::string text_;
    config::ConfigProblems problems_;
    std::optional<engine::Message> ended_;  // Finished: saved and applied, or why abandoned
    nlohmann::json endedBody_;
};

}  // namespace vivaref::server
