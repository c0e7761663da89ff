// The self-test from the host's page and `vivaref self-test` (issue 36):
// the castle walk (daemon/setup/castle_walk.hpp) run on the castle the
// daemon runs, real or simulated, and driven by the host's requests
// (GET/POST /api/host/self-test, POST /api/host/self-test/answer,
// web-ui/API.md).
//
// It watches the table (a table::TableObserver attached to it): every raw
// scan and every key press goes to the walk while one runs. While it runs
// it takes the LEDs over from the referee (leds(): the table loop shows
// them instead of the referee's). It runs between games only: a start is
// refused while a game is played or paused, and a new game stops it.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "daemon/server/referee_service.hpp"
#include "daemon/setup/castle_walk.hpp"
#include "daemon/table/table_observer.hpp"
#include "drivers/time/loop_clock.hpp"

namespace vivaref::server {

struct HostSelfTestSettings {
    setup::WalkCastle castle;
    setup::CastleWalk::ChipOf chipOf;      // the castle's (Castle::chipOf)
    setup::CastleWalk::KeysDown keysDown;  // the castle's (Castle::keysDown)
    setup::WalkOptions options;            // `full` is the start request's
};

// The self-test of `castle` as `config` describes it (serve's real or
// simulated castle's configuration; an empty one for the simulated
// standard castle): its readers, LEDs and keys with their wiring, its
// chips and keys down asked of `castle`, which must outlive the self-test.
HostSelfTestSettings selfTestSettingsFor(const config::CastleConfig& config, const castle::Castle& castle);

class HostSelfTest final : public table::TableObserver {
public:
    // `clock` (the table's) must outlive it.
    HostSelfTest(HostSelfTestSettings settings, const drivers::LoopClock& clock);

    // "state" (GET); "start" {"full"?: bool}; "answer" {"answer": "lit" | "not-lit" | "skip" | "done"};
    // "stop". Refusals: 409 game-in-progress, not-running, not-asked (an answer the step does not
    // take); 400 for a malformed body.
    ServiceAnswer request(std::string_view action, const nlohmann::json& body, bool gameInProgress);

    // A castle rebuilt on another configuration (applied between games): the
    // walk forgets the last one and walks `settings`' castle from the next
    // start. The caller attaches this to the new table and gives the new
    // loop setLedOverride again.
    void reset(HostSelfTestSettings settings);

    bool running() const { return walk_.has_value() && !walk_->done() && !stopped_; }
    nlohmann::json state();
    // The LEDs while a walk runs (the referee's otherwise: none).
    std::optional<drivers::LedStates> leds() const;
    // The last walk, run or finished (none before the first start).
    const setup::CastleWalk* walk() const { return walk_ ? &*walk_ : nullptr; }

    // --- table::TableObserver
    void rawScan(drivers::ReaderIndex reader, const drivers::ScanResult& result,
                 drivers::Timestamp at) override;
    void inputTaken(const trace::TraceLine& line, std::optional<store::GameId> game) override;

private:
    ServiceAnswer start(const nlohmann::json& body, bool gameInProgress);

    HostSelfTestSettings settings_;
    const drivers::LoopClock& clock_;
    std::optional<setup::CastleWalk> walk_;
    bool full_ = false;
    bool stopped_ = false;  // the host stopped it, or a game began
    engine::Message stoppedBecause_;
};

}  // namespace vivaref::server
