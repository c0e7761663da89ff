// A RefereeService with canned answers, for testing the server without a
// referee: its status is whatever the test sets, host and sim requests are
// remembered and answered by a small table.
#pragma once

#include <string>
#include <vector>

#include "daemon/server/referee_service.hpp"

namespace vivaref::server::testing {

class FakeService final : public RefereeService {
public:
    nlohmann::json status = {{"phase", "waiting"}, {"version", 0}};
    bool simulatedCastle = true;
    std::vector<std::pair<std::string, nlohmann::json>> hostRequests;
    std::vector<std::pair<std::string, nlohmann::json>> simRequests;
    std::string playerToken = std::string(64, 'a');
    std::size_t gamePadding = 0;                       // game 1's answer made this much larger
    nlohmann::json players = nlohmann::json::array();  // the host's "players" answer's

    void setStatus(nlohmann::json s) {
        status = std::move(s);
        changed();
    }

    nlohmann::json publicStatus() override { return status; }
    nlohmann::json games() override { return nlohmann::json::array({{{"id", 1}, {"complete", true}}}); }
    std::optional<nlohmann::json> game(std::int64_t id) override {
        if (id != 1) return std::nullopt;
        nlohmann::json game{{"id", 1}, {"events", nlohmann::json::array()}};
        if (gamePadding > 0) game["padding"] = std::string(gamePadding, 'x');
        return game;
    }
    std::optional<nlohmann::json> playerStatus(std::string_view token) override {
        if (token != playerToken) return std::nullopt;
        return nlohmann::json{{"player", 0}, {"hand", {"yes", "no"}}};
    }
    ServiceAnswer player(std::string_view token, std::string_view request,
                         const nlohmann::json& body) override {
        if (token != playerToken)
            return ServiceAnswer::failed(ServiceAnswer::Outcome::NotFound, "no-such-player", "nobody");
        hostRequests.emplace_back("player-" + std::string(request), body);
        return ServiceAnswer::ok({{"ok", true}});
    }
    ServiceAnswer host(std::string_view request, const nlohmann::json& body) override {
        hostRequests.emplace_back(std::string(request), body);
        if (request == "players") return ServiceAnswer::ok({{"ok", true}, {"players", players}});
        if (request == "pause") return ServiceAnswer::ok({{"ok", true}});
        if (request == "deal")
            return ServiceAnswer::failed(ServiceAnswer::Outcome::Refused, "wrong-phase", "no deal is due");
        return ServiceAnswer::failed(ServiceAnswer::Outcome::NotFound, "no-such-request", "unknown");
    }
    bool simulated() const override { return simulatedCastle; }
    ServiceAnswer sim(std::string_view request, const nlohmann::json& body) override {
        simRequests.emplace_back(std::string(request), body);
        if (request == "put") {
            changed();
            return ServiceAnswer::ok({{"ok", true}});
        }
        return ServiceAnswer::failed(ServiceAnswer::Outcome::NotFound, "no-such-request", "unknown");
    }
    nlohmann::json simState() override {
        return {{"leds", {{"place-3", "blink"}}}, {"board", nlohmann::json::object()}};
    }
};

}  // namespace vivaref::server::testing
