// What the simulation rig (simulation_rig.hpp) tells those who watch it:
// the trace lines it consumes, the castle's scans it takes or leaves out,
// the chance decisions the referee makes from its own generator. Each is
// told synchronously, with the referee's game at that moment, before or
// after it acts as each event says; an observer acts on nothing of the
// rig's. The trace recorder (trace_recorder.hpp) is one.
#pragma once

#include <optional>

#include "daemon/referee/referee.hpp"
#include "daemon/store/decision_log.hpp"
#include "daemon/trace/trace_line.hpp"
#include "drivers/rfid/tag_reader.hpp"
#include "drivers/sensing/board_layout.hpp"

namespace vivaref::simulation {

using drivers::Timestamp;

class RigObserver {
public:
    virtual ~RigObserver() = default;

    // A trace line the rig consumed (not a `once` line: that is a castle's
    // scan, told by castleScanned()). Told before the line acts, so that a
    // log writes it in the same transaction as any decision it leads to; a
    // new game's request after it acted and the referee's answers were
    // drained, so that `game` is the game it made (when accepted).
    virtual void lineConsumed(const trace::TraceLine& /*line*/, std::optional<store::GameId> /*game*/) {}

    // A scan of a castle that scans on its own (castle mode), at `at`, told
    // before it goes in. `taken`: it goes through the pipeline to the
    // referee; false: it only repeated the reader's last ones (ScanRuns) and
    // is left out.
    virtual void castleScanned(drivers::ReaderIndex /*reader*/, const drivers::ScanResult& /*result*/,
                               Timestamp /*at*/, bool /*taken*/, std::optional<store::GameId> /*game*/) {}

    // A deal or pile the referee made from its own generator, after it made it.
    virtual void ownChance(const referee::OwnChance& /*chance*/, std::optional<store::GameId> /*game*/) {}
};

}  // namespace vivaref::simulation
