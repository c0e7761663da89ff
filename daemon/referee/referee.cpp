// STUB for the first commit: the API compiles; the bodies come next.
#include "daemon/referee/referee.hpp"

namespace vivaref::referee {

HostAnswer HostAnswer::accepted(std::optional<store::GameId> game, std::string message) {
    return {true, {}, std::move(message), game};
}
HostAnswer HostAnswer::refused(std::string code, std::string message, std::optional<store::GameId> game) {
    return {false, std::move(code), std::move(message), game};
}

nlohmann::json countersJson(const RefereeCounters&) { return nlohmann::json::object(); }

struct Referee::Impl {
    RefereeOptions options;
    store::GameStore* store = nullptr;
    RefereeCounters counters;
    store::WriteStatus log;
};

Referee::Referee(RefereeOptions options, store::GameStore* store) : impl_(std::make_unique<Impl>()) {
    impl_->options = std::move(options);
    impl_->store = store;
}
Referee::~Referee() = default;
HostAnswer Referee::host(const HostRequest&, Timestamp) { return HostAnswer::refused("not-ready", "stub"); }
void Referee::observe(const drivers::SensingUpdate& u, Timestamp now) { observe(u.observation, now); }
void Referee::observe(const drivers::BoardObservation&, Timestamp) {}
void Referee::press(const drivers::ButtonEvent&) {}
void Referee::tick(Timestamp) {}
std::optional<Timestamp> Referee::nextDeadline() const { return std::nullopt; }
HostAnswer Referee::resume(store::GameId, Timestamp) { return HostAnswer::refused("not-ready", "stub"); }
drivers::LedStates Referee::leds(Timestamp) const { return {}; }
nlohmann::json Referee::publicStatus() const { return nlohmann::json::object(); }
nlohmann::json Referee::playerStatus(engine::PlayerId) const { return nlohmann::json::object(); }
std::vector<Notice> Referee::takeNotices() { return {}; }
std::vector<OwnChance> Referee::takeOwnChance() { return {}; }
std::optional<store::GameId> Referee::game() const { return std::nullopt; }
const engine::State* Referee::state() const { return nullptr; }
bool Referee::paused() const { return false; }
const RefereeCounters& Referee::counters() const { return impl_->counters; }
const store::WriteStatus& Referee::logHealth() const { return impl_->log; }

}  // namespace vivaref::referee
