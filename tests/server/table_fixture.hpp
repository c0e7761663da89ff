// The real table behind its routes on the simulated castle, on a manual
// clock and a fresh game log: the TableCore of `serve --hardware=sim`, its
// loop stepped in virtual time, asked through the ApiRouter as a page asks.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>

#include <doctest/doctest.h>

#include "daemon/castle/simulated_castle.hpp"
#include "daemon/server/api_router.hpp"
#include "daemon/server/table_core.hpp"
#include "daemon/server/table_loop.hpp"

namespace vivaref::server::testing {

struct Table {
    // Durability::Normal: these games need no power-cut safety, and a sync per
    // request would make the test slow.
    explicit Table(const std::filesystem::path& db, table::TableOptions options = {})
        : store(db, store::GameStore::Access::CreateIfMissing, store::Durability::Normal),
          castle(drivers::standardBoardLayout(), clock),
          table(clock, &store, castle.layout(), std::move(options),
                castle::offerOf<castle::HandOffer>(castle)),
          loop(castle, table, clock),
          files("/nonexistent/vivaref-web-ui"),
          router(table, files, {}) {
        loop.start();
    }

    // The loop stepped at each time it asks for, up to `end`.
    void runTo(Timestamp end) {
        const std::chrono::microseconds until = end;
        while (clock.nowMicros() < until) clock.set(std::min(loop.step(), until));
    }
    void runFor(Timestamp span) { runTo(clock.now() + span); }

    std::pair<int, nlohmann::json> call(http::verb method, const std::string& target,
                                        const nlohmann::json& body = nullptr) {
        Request r{method, target, 11};
        if (!body.is_null()) {
            r.set(http::field::content_type, "application/json");
            r.body() = body.dump();
        }
        r.prepare_payload();
        auto reply = router.handle(r);
        return {static_cast<int>(reply.response.result_int()), nlohmann::json::parse(reply.response.body())};
    }
    nlohmann::json get(const std::string& target) {
        auto [status, body] = call(http::verb::get, target);
        CHECK(status == 200);
        return body;
    }

    drivers::ManualClock clock;
    store::GameStore store;
    castle::SimulatedCastle castle;
    TableCore table;
    TableLoop loop;
    StaticFiles files;
    ApiRouter router;
};

}  // namespace vivaref::server::testing
