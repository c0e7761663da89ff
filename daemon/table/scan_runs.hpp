// Each reader's run of alike scans (the same tags, or failures) as a castle
// that scans on its own takes them, and whether one more of them could
// change anything the sensing pipeline decides (daemon/simulation/NOTES.md,
// "A castle's scans go straight in"). The rig leaves such repeats out of the
// pipeline; the trace recorder knows from the same runs what each reader's
// window holds when a game starts.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "drivers/rfid/tag_reader.hpp"
#include "drivers/sensing/board_layout.hpp"
#include "drivers/sensing/sensing_config.hpp"

namespace vivaref::table {

using drivers::Timestamp;

class ScanRuns {
public:
    ScanRuns(std::size_t readers, const drivers::SensingConfig& sensing);

    // Notes a scan of `reader` at `at`. True when it only repeats the
    // reader's last ones: after majority_scans alike in a row (failures:
    // faulty_after_failures), one of them taken a stability window or more
    // after the first, the pipeline's window for the reader holds nothing
    // else (or the reader is already faulty) and each of its tags has been
    // read across the window, so one more changes nothing it decides.
    bool repeats(drivers::ReaderIndex reader, const drivers::ScanResult& result, Timestamp at);

    // The reader's last scan noted (none before the first).
    const std::optional<drivers::ScanResult>& last(drivers::ReaderIndex reader) const {
        return runs_[reader].last;
    }
    // How many scans in a row like the last one the pipeline took: the run's
    // length, at most what a repeat needs (the scans left out after those
    // said nothing new).
    std::size_t taken(drivers::ReaderIndex reader) const;
    std::size_t readerCount() const { return runs_.size(); }

private:
    std::size_t enough(const drivers::ScanResult& result) const;

    struct Run {
        std::optional<drivers::ScanResult> last;  // the reader's last scan taken or left out
        std::size_t length = 0;                   // scans in a row like it
        Timestamp since{0};                       // the first of them
        bool spanned = false;  // one of them taken at least the stability window after the first
    };
    drivers::SensingConfig sensing_;
    std::vector<Run> runs_;
};

}  // namespace vivaref::table
