// What the HTTP server asks of the game behind it. The server knows HTTP
// (routes, limits, tokens of the host, event streams); the service knows the
// game: the real one runs the Referee over the castle (table_service.hpp),
// the server's tests use a fake. Every call runs on the event loop's thread.
//
// Promises of an implementation: publicStatus() and everything under
// games() never hold a secret (a hand, an unrevealed favourites card or
// vote); playerStatus() holds only that player's own; no call throws for
// anything a client sent (a bad request is an answer, not an exception).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "drivers/rfid/tag_reader.hpp"
#include "drivers/sensing/sensing_types.hpp"

namespace vivaref::server {

struct ServiceAnswer {
    enum class Outcome {
        Ok,           // 200: `body` is the answer
        BadRequest,   // 400: the request is malformed (its JSON, a missing key)
        NotFound,     // 404: no such thing (a game, a place, a request name)
        Refused,      // 409: well formed, but the game says no (the referee's code and sentence)
        Unavailable,  // 503: not now (no game, not simulated hardware)
    };
    Outcome outcome = Outcome::Ok;
    // Ok: the answer. Otherwise {"error": CODE, "message": SENTENCE}.
    nlohmann::json body = nlohmann::json::object();
    // Ok: the answer as JSON text already (a kept one), sent instead of `body`.
    std::optional<std::string> text;

    static ServiceAnswer ok(nlohmann::json body = nlohmann::json::object()) {
        return {Outcome::Ok, std::move(body), std::nullopt};
    }
    static ServiceAnswer failed(Outcome outcome, std::string_view code, std::string_view message) {
        return {outcome, {{"error", code}, {"message", message}}, std::nullopt};
    }
};

class RefereeService {
public:
    virtual ~RefereeService() = default;

    // --- public ------------------------------------------------------------
    virtual nlohmann::json publicStatus() = 0;
    // The game log: a summary of each game, and one game (nullopt: no such
    // game). A game still in progress shows its summary only: its events
    // hold the hands.
    virtual nlohmann::json games() = 0;
    virtual std::optional<nlohmann::json> game(std::int64_t id) = 0;
    // game(id) as the API's JSON text; the table keeps a finished game's
    // (archive_cache.hpp), so asking again costs a lookup, not a replay.
    virtual std::optional<std::string> gameText(std::int64_t id) {
        auto value = game(id);
        if (!value) return std::nullopt;
        return value->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }

    // A finished game's analysis (web-ui/API.md, GET /api/games/ID/analysis):
    // the one kept in the log with "status": "analysed", else {"status":
    // "waiting" | "analysing" | "failed" | "damaged", ...}. A game in
    // progress is Refused: nothing of it is analysed or said.
    virtual ServiceAnswer gameAnalysis(std::int64_t id) {
        (void)id;
        return ServiceAnswer::failed(ServiceAnswer::Outcome::NotFound, "no-analysis",
                                     "this table analyses no games");
    }

    // --- private -----------------------------------------------------------
    // The page of the player holding `token`; nullopt when nobody holds it.
    virtual std::optional<nlohmann::json> playerStatus(std::string_view token) = 0;
    // What a player asks on their own page: "keep" {"ambition": SLUG}, the
    // Ambition card they keep. NotFound when nobody holds the token.
    virtual ServiceAnswer player(std::string_view token, std::string_view request,
                                 const nlohmann::json& body) = 0;

    // --- host (the server has checked the host's credential) -----------------
    // `request`: "new-game", "deal", "keep", "reshuffle", "undo", "pause",
    // "resume", "abandon", "players" (the players' secret links; a seat the
    // referee plays has none: Refused "bot-seat" for its new link), "new-link"
    // {"player": P} (P's link replaced: the old one names nobody); `body` the
    // request's JSON ({} when it had none).
    virtual ServiceAnswer host(std::string_view request, const nlohmann::json& body) = 0;

    // --- the simulated castle (only when simulated() is true) ------------------
    virtual bool simulated() const = 0;
    // "put" {"character": SLUG, "place": PLACE}, "lift" {"character": SLUG},
    // "press" {"station": SEAT, "key": "yes"|"no"|"stomachache"} (Refused
    // "bot-seat" for a seat the referee plays, whatever its vote).
    virtual ServiceAnswer sim(std::string_view request, const nlohmann::json& body) = 0;
    // What the simulated castle shows: its LEDs and where each tag stands.
    virtual nlohmann::json simState() = 0;

    // One line for systemd's STATUS= ("game 3 in progress").
    virtual std::string summaryLine() { return {}; }
    // How many private notices the stations have had: when it moves, each
    // player's page fetches its own status again (the count says nobody's
    // secret; a refused key blinks its station for all to see anyway).
    virtual std::int64_t stationNotices() { return 0; }
    // The table's language (GET /api/words's "table"); empty: the router's
    // configured one.
    virtual std::string tableLanguage() { return {}; }
    // The voice's last lines said or withdrawn, for the pages that speak
    // them (the "spoken" event, web-ui/API.md); null: no voice.
    virtual nlohmann::json spoken() { return nullptr; }

    // Listeners called (on the loop) after anything that may have changed
    // publicStatus() or simState(): the server pushes what changed to the
    // event streams. Returns an id for removeListener.
    int onChange(std::function<void()> listener) {
        listeners_.emplace_back(++lastListener_, std::move(listener));
        return lastListener_;
    }
    void removeListener(int id) {
        std::erase_if(listeners_, [id](const auto& l) { return l.first == id; });
    }

    // Every raw scan of every reader (its tags or its failure), by the
    // reader's id, at the table's time, before sensing: for the host's
    // tag enrolment (host_enrolment.hpp).
    using RawScanListener = std::function<void(const drivers::ReaderId& reader,
                                               const drivers::ScanResult& result, drivers::Timestamp at)>;
    int onRawScan(RawScanListener listener) {
        scanListeners_.emplace_back(++lastListener_, std::move(listener));
        return lastListener_;
    }
    void removeRawScanListener(int id) {
        std::erase_if(scanListeners_, [id](const auto& l) { return l.first == id; });
    }

protected:
    void changed() {
        for (const auto& [id, listener] : listeners_) listener();
    }
    bool hasRawScanListeners() const { return !scanListeners_.empty(); }
    void rawScanned(const drivers::ReaderId& reader, const drivers::ScanResult& result,
                    drivers::Timestamp at) {
        for (const auto& [id, listener] : scanListeners_) listener(reader, result, at);
    }

private:
    std::vector<std::pair<int, std::function<void()>>> listeners_;
    std::vector<std::pair<int, RawScanListener>> scanListeners_;
    int lastListener_ = 0;
};

}  // namespace vivaref::server
