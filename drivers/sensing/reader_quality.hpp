// How well one reader is reading, for the status page and the logs.
#pragma once

#include <cstdint>
#include <optional>

#include "drivers/rfid/tag_reader.hpp"
#include "drivers/sensing/sensing_types.hpp"

namespace vivaref::drivers {

struct ReaderQuality {
    std::uint64_t scans = 0;
    std::uint64_t successes = 0;
    std::uint64_t unknownTagReads = 0;  // UIDs seen that nobody enrolled (garbage or strays)
    std::uint32_t consecutiveFailures = 0;
    std::optional<ScanError> lastError;
    std::optional<Timestamp> lastErrorAt;
    std::optional<Timestamp> lastSuccessAt;
    // Set after SensingConfig::faultyAfterFailures failures in a row, cleared
    // by the next success. While set, the reader's tags are held, uncertain.
    bool faulty = false;
    // Set by any failed scan, cleared by SensingConfig::majorityScans
    // successful scans in a row after it: until then the reader's window
    // still holds reads from before the gap, so a tag put on or lifted from
    // its place meanwhile may not show yet.
    bool failing = false;
    std::uint32_t successesSinceFailure = 0;

    // 1 before the first scan: a reader that was never asked is not a bad reader.
    double successRate() const { return scans == 0 ? 1.0 : static_cast<double>(successes) / scans; }
};

}  // namespace vivaref::drivers
