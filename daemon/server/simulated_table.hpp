// The RefereeService of `vivaref serve --hardware=sim`: the referee on the
// simulated castle (the simulation rig of `vivaref simulate`), run on the
// event loop's clock. Every request from the web (a host request, a tag put
// or lifted, a key pressed) becomes a referee trace line at the loop's time
// and goes through the rig, so the game log gets the game's trace as
// `vivaref simulate` would write it, and `vivaref trace export` replays it.
//
// Time: advance() runs the castle's scans and the referee's deadlines up to
// the clock's now; serve calls it from a steady_timer every scan interval,
// tests call it themselves on a ManualClock.
//
// It is also the core of `--hardware=real` (RealTable, real_table.hpp): the
// real readers' changes, the vote keys' presses and the host's requests go
// in through input() as trace lines, through the same rig, so the referee
// consumes exactly what the game's trace records. The simulated castle's
// web routes (sim(), simState()) are then closed.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "daemon/server/loop_clock.hpp"
#include "daemon/server/player_tokens.hpp"
#include "daemon/server/referee_service.hpp"
#include "daemon/simulation/simulation_rig.hpp"
#include "daemon/store/game_store.hpp"

namespace vivaref::server {

class SimulatedTable final : public RefereeService {
public:
    // `store` may be null (no log; games() is then empty); it must outlive the table.
    // `simulatedCastle` false: the board is a real castle's, fed by input().
    SimulatedTable(const LoopClock& clock, store::GameStore* store, simulation::RigOptions options,
                   bool simulatedCastle = true);

    // After a restart: the newest unfinished game in the log is resumed (the
    // board is then guided back to its logged position). Its answer, or
    // nullopt when there was nothing to resume.
    std::optional<referee::HostAnswer> resumeUnfinished();

    // Runs scans and deadlines up to the clock's now and reports a change.
    void advance();
    // How often advance() is due: the simulated readers' scan interval.
    Timestamp advanceEvery() const { return scanInterval_; }

    simulation::SimulationRig& rig() { return rig_; }

    // Runs one input through the rig as a trace line at the clock's now, and
    // reports a change. A sentence when the rig refuses the line.
    std::optional<std::string> input(trace::TraceInput input);

    // A real castle's scan of one of its readers, at the clock's now: straight
    // into the sensing pipeline and the referee (SimulationRig::castleScan),
    // recorded when it says something new.
    void scan(drivers::ReaderIndex reader, const drivers::ScanResult& result);

    // --- RefereeService ------------------------------------------------------
    nlohmann::json publicStatus() override;
    nlohmann::json games() override;
    std::optional<nlohmann::json> game(std::int64_t id) override;
    std::optional<nlohmann::json> playerStatus(std::string_view token) override;
    ServiceAnswer player(std::string_view token, std::string_view request,
                         const nlohmann::json& body) override;
    ServiceAnswer host(std::string_view request, const nlohmann::json& body) override;
    bool simulated() const override { return simulatedCastle_; }
    ServiceAnswer sim(std::string_view request, const nlohmann::json& body) override;
    nlohmann::json simState() override;
    std::string summaryLine() override;
    std::int64_t stationNotices() override { return rig_.referee().counters().stationNotices; }

private:
    static constexpr Timestamp kRepublishEvery{1000};

    simulation::RigOptions watched(simulation::RigOptions options);
    // The clock's now for an input, a millisecond later when advance() already
    // handled something due at this very millisecond: `simulate` of the stored
    // trace then applies the input after that too, as it happened here.
    Timestamp stamp() const;
    std::optional<std::string> consume(trace::TraceInput input) { return this->input(std::move(input)); }
    void afterInput();
    ServiceAnswer players();
    std::optional<trace::TagName> tagOf(const nlohmann::json& body, std::string& why) const;

    const LoopClock& clock_;
    store::GameStore* store_;
    bool simulatedCastle_;
    Timestamp scanInterval_;
    simulation::SimulationRig rig_;
    PlayerTokens tokens_;
    std::optional<store::GameId> tokensFor_;
    bool dirty_ = false;  // set by the rig's hooks during advance()
    Timestamp lastChange_{0};
};

}  // namespace vivaref::server
