// A RefereeService that passes every call to another one, which may be
// replaced: serve's web server talks to the relay, the relay to the table
// core of the castle in use, so that the castle and its table can be rebuilt
// between games (a new configuration applied, serve_daemon.cpp) while the
// listening socket, the open event streams and the host's links stay. The
// relay's listeners hear the current service's changes and raw scans.
#pragma once

#include <functional>
#include <string_view>

#include "daemon/server/referee_service.hpp"

namespace vivaref::server {

class ServiceRelay final : public RefereeService {
public:
    ServiceRelay() = default;
    ~ServiceRelay() override { detach(); }
    ServiceRelay(const ServiceRelay&) = delete;
    ServiceRelay& operator=(const ServiceRelay&) = delete;

    // From now on every call goes to `service` (which must outlive the
    // attachment), and its changes reach the relay's listeners; the pages
    // are told at once.
    void attach(RefereeService& service);
    // Before the service goes: no call may be made until the next attach.
    void detach();
    bool attached() const { return service_ != nullptr; }

    nlohmann::json publicStatus() override { return service_->publicStatus(); }
    nlohmann::json games() override { return service_->games(); }
    std::optional<nlohmann::json> game(std::int64_t id) override { return service_->game(id); }
    std::optional<std::string> gameText(std::int64_t id) override { return service_->gameText(id); }
    ServiceAnswer gameAnalysis(std::int64_t id) override { return service_->gameAnalysis(id); }
    std::optional<nlohmann::json> playerStatus(std::string_view token) override {
        return service_->playerStatus(token);
    }
    ServiceAnswer player(std::string_view token, std::string_view request,
                         const nlohmann::json& body) override {
        return service_->player(token, request, body);
    }
    ServiceAnswer host(std::string_view request, const nlohmann::json& body) override {
        if (beforeHost_) beforeHost_(request);  // it may attach another service
        return service_->host(request, body);
    }
    // Called with each host request before it is passed on (serve: a new
    // game abandons a guided set-up, which puts the castle back first).
    void beforeHost(std::function<void(std::string_view request)> hook) { beforeHost_ = std::move(hook); }
    bool simulated() const override { return service_->simulated(); }
    ServiceAnswer sim(std::string_view request, const nlohmann::json& body) override {
        return service_->sim(request, body);
    }
    nlohmann::json simState() override { return service_->simState(); }
    std::string summaryLine() override { return service_->summaryLine(); }
    std::int64_t stationNotices() override { return service_->stationNotices(); }
    std::string tableLanguage() override { return service_->tableLanguage(); }
    nlohmann::json spoken() override { return service_->spoken(); }

private:
    RefereeService* service_ = nullptr;
    std::function<void(std::string_view)> beforeHost_;
    int changeListener_ = 0;
    int scanListener_ = 0;
};

inline void ServiceRelay::attach(RefereeService& service) {
    detach();
    service_ = &service;
    changeListener_ = service.onChange([this] { changed(); });
    scanListener_ =
        service.onRawScan([this](const drivers::ReaderId& reader, const drivers::ScanResult& result,
                                 drivers::Timestamp at) { rawScanned(reader, result, at); });
    changed();
}

inline void ServiceRelay::detach() {
    if (!service_) return;
    service_->removeListener(changeListener_);
    service_->removeRawScanListener(scanListener_);
    service_ = nullptr;
}

}  // namespace vivaref::server
