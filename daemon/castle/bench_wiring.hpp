// What a simulated bench (config/sim_bench.hpp) means for one configuration
// of the simulated castle: which spots each configured reader's field really
// covers, how many chips answer on its line and which VersionReg they give,
// which keys are stuck and which LEDs dark. The bench names chips by wire
// (chip-select line, bus, or a sim reader's name); the configuration names
// its readers' wires, so the same bench holds under any configuration
// written for the castle.
//
// The physical castle: by default one chip per configured reader, on its
// wire, under its own spot (the reader's place in the layout). A wire named
// by `chip W under X` statements carries exactly those chips, each under the
// spot X names (a reader's name: its spot; a place: the place's first
// reader's spot); a spot so claimed loses its configured reader's chip, so
// that reader answers only if its wire is itself given a chip. `no-chip W`:
// W carries none. `couple A B`: every chip on A also reads the spots of the
// chips on B, and the other way round. `version W 0xHH`: W's chips answer
// that VersionReg (0x92 by default).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "daemon/castle/castle.hpp"
#include "daemon/config/sim_bench.hpp"
#include "drivers/sensing/board_layout.hpp"

namespace vivaref::castle {

// A configured reader as the bench sees it: the wire its chip is on and the
// kind of reader the configuration says ("mfrc522", "pn532", "sim").
struct SimulatedReaderWire {
    std::string wire;
    std::string kind = "sim";
};

struct BenchReader {
    std::vector<drivers::ReaderIndex> spots;  // whose tags its field reads
    std::size_t chips = 1;                    // answering on its wire
    std::uint8_t version = 0x92;              // the first chip's VersionReg
};

struct BenchWiring {
    std::vector<BenchReader> readers;  // by layout reader index
    std::set<std::pair<drivers::StationId, drivers::VoteKey>> stuckKeys;
    // A key pressed -> the key whose line reads it (both ways for each `crossed` pair).
    std::map<std::pair<drivers::StationId, drivers::VoteKey>, std::pair<drivers::StationId, drivers::VoteKey>>
        crossedKeys;
    std::set<drivers::LedId> deadLeds;
    // Statements that name nothing in this castle (a place it does not have),
    // for the daemon's log: "bench.txt:4: chip gpiochip0:17 under wc3: no such place or reader here".
    std::vector<std::string> notes;
};

// `wires` by layout reader index (empty: each reader's wire is its name, a
// sim reader); `lineNames`: a key's or LED's GPIO line ("gpiochip0:5") to its
// bench name (`station.2.yes`, `place.3`), from the configuration.
BenchWiring wireBench(const config::SimBench& bench, const drivers::BoardLayout& layout,
                      const std::vector<SimulatedReaderWire>& wires,
                      const std::map<std::string, std::string>& lineNames = {});

// What a simulated reader's chip says it is: none when no chip answers on its
// wire (or it reads 0x00/0xFF); a sim reader's kind is "sim", an MFRC522's
// "mfrc522" (both "MFRC522 v2.0", "0x92" unless the bench says otherwise); a
// PN532 "pn532", firmware "1.6".
std::optional<ReaderChip> simulatedChip(const BenchReader& reader, const SimulatedReaderWire& wire);

}  // namespace vivaref::castle
