// The league's routes (GET /api/league..., web-ui/API.md) over a
// LeagueReader: the parameters are read on the loop (a bad one is a 400
// naming it, at once), the query and the building of the answer (a game's
// replay included) run on the reader's thread, and the answer is posted
// back to the loop. Also the service behind `vivaref club serve`, which
// has no table.
#pragma once

#include <memory>
#include <string_view>

#include <boost/asio/io_context.hpp>

#include "daemon/club/league_reader.hpp"
#include "daemon/server/api_router.hpp"
#include "daemon/server/referee_service.hpp"

namespace vivaref::server {

// A reader whose answers are posted to `io`.
std::unique_ptr<club::LeagueReader> makeLeagueReader(boost::asio::io_context& io,
                                                     club::LeagueReaderOptions options);

// RouterOptions::league for `reader` (which must outlive the router).
std::function<ApiRouterReply(const Request&, std::string_view)> leagueRoutes(club::LeagueReader& reader);

// A RefereeService with no table (every call answers "nothing here"), for
// a server that shows the league only (RouterOptions::leagueOnly).
class NoTableService final : public RefereeService {
public:
    nlohmann::json publicStatus() override { return nlohmann::json::object(); }
    nlohmann::json games() override { return nlohmann::json::array(); }
    std::optional<nlohmann::json> game(std::int64_t) override { return std::nullopt; }
    std::optional<nlohmann::json> playerStatus(std::string_view) override { return std::nullopt; }
    ServiceAnswer player(std::string_view, std::string_view, const nlohmann::json&) override {
        return none();
    }
    ServiceAnswer host(std::string_view, const nlohmann::json&) override { return none(); }
    bool simulated() const override { return false; }
    ServiceAnswer sim(std::string_view, const nlohmann::json&) override { return none(); }
    nlohmann::json simState() override { return nlohmann::json::object(); }

private:
    static ServiceAnswer none() {
        return ServiceAnswer::failed(ServiceAnswer::Outcome::NotFound, "no-table",
                                     "this server has no table");
    }
};

}  // namespace vivaref::server
