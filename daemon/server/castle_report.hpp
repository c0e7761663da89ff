// GET /api/host/castle (web-ui/API.md): the castle's health (castle_health.hpp)
// as the host's Castle page reads it, with what the castle says of each
// reader's chip (castle::Castle::chipOf), the pipeline's judgement of each
// reader (drivers::ReaderQuality) and the wiring the configuration names
// (which bus and chip-select line a reader is on, which lines the keys and
// LEDs are on), for the self-test and the set-up to name a wire.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/castle/castle.hpp"
#include "daemon/config/castle_config.hpp"
#include "daemon/server/castle_health.hpp"

namespace vivaref::server {

// What a configuration says of the castle's wiring, by name: nothing of it
// is needed to count scans, all of it to say which wire to check.
struct CastleWiring {
    struct Reader {
        std::string type;        // "mfrc522", "pn532", "sim"
        std::string bus;         // "/dev/spidev0.0", a libnfc connection; empty for sim
        std::string chipSelect;  // "gpiochip0:17"; empty: the bus's own CE line
    };
    std::map<std::string, Reader> readers;  // by reader name
    struct Station {
        int seat = 0;
        std::map<drivers::VoteKey, std::string> keys;  // the key's line, "gpiochip0:5"
        std::string led;                               // its LED's line; empty: none
    };
    // Configured stations by seat. `everySeat`: none is configured, every
    // seat has its keys (the simulated castle's page without a configuration).
    std::vector<Station> stations;
    bool everySeat = false;
    std::map<std::string, std::string> placeLeds;  // by place: the line
    std::map<int, std::string> turnLeds;           // by seat: the line
};

// The wiring `castle` names; the simulated castle's without one.
CastleWiring castleWiringOf(const config::CastleConfig& castle);
CastleWiring simulatedWiring();

// The answer at `now`. `castle`: whose chips to ask (null: every chip unknown).
nlohmann::json castleReport(const CastleHealth& health, const table::Table& table,
                            const castle::Castle* castle, const CastleWiring& wiring, Timestamp now);

}  // namespace vivaref::server
