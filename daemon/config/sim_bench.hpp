// The simulated castle's bench (issue 36): what the hardware under a
// simulated castle really is, where it differs from what the configuration
// says. Without a bench the simulated castle is exactly its configuration (a
// perfect castle); a bench file (`[daemon] sim_bench = PATH`) states its
// faults in wiring terms, so they hold whatever configuration is later
// written for the same castle:
//
//     chip gpiochip0:17 under 3        # that chip's antenna is under place 3 (or a reader's spot)
//     no-chip gpiochip0:22             # nothing answers on that line (a dead reader)
//     couple gpiochip0:17 gpiochip0:18 # a tag over either is read by both
//     version gpiochip0:6 0x12         # the chip answers this VersionReg
//     stuck station.2.yes              # that key reads pressed, always
//     crossed station.0.yes station.0.no  # two keys' wires swapped: each press read as the other
//     dead-led place.3                 # that LED line drives nothing
//
// A chip (its "wire") is named by its chip-select line (`gpiochip0:17`),
// else by its bus (`/dev/spidev0.0`, a PN532's libnfc string), else (a
// `type = sim` reader) by its configured name. A key is `station.S.KEY`
// (yes, no, stomachache) or its GPIO line; an LED `place.P`, `turn.S`,
// `station.S` or its GPIO line. What the statements mean to the castle's
// readers: daemon/castle/bench_wiring.hpp. This file only reads them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/config/config_problem.hpp"

namespace vivaref::config {

struct SimBench {
    // `chip WIRE under WHERE`: the chips on WIRE are exactly those its
    // statements put (one each), and a spot so claimed loses the chip the
    // configuration put there.
    struct Chip {
        std::string wire;
        std::string under;  // a place ("3") or a reader's name (its spot)
        int line = 0;
    };
    struct Couple {
        std::string a;
        std::string b;
        int line = 0;
    };
    struct Version {
        std::string wire;
        std::uint8_t value = 0;
        int line = 0;
    };
    struct Named {  // no-chip, stuck, dead-led: one name
        std::string name;
        int line = 0;
    };

    std::filesystem::path file;  // where it was read (empty: made in code)
    std::vector<Chip> chips;
    std::vector<Named> noChips;
    std::vector<Couple> couples;
    std::vector<Version> versions;
    std::vector<Named> stuckKeys;
    std::vector<Couple> crossedKeys;  // `crossed KEY KEY`: a and b, each read on the other's line
    std::vector<Named> deadLeds;

    bool empty() const {
        return chips.empty() && noChips.empty() && couples.empty() && versions.empty() && stuckKeys.empty() &&
               crossedKeys.empty() && deadLeds.empty();
    }
};

// A bench file larger than this is not a bench.
inline constexpr std::size_t kMaxSimBenchBytes = 64 * 1024;

// The statements of a bench file's text. Every bad statement is a problem
// naming `fileName`, its line and what is wrong (`key`: the statement's
// first word); the good ones are kept. Never throws on any text.
SimBench parseSimBench(std::string_view text, const std::filesystem::path& fileName,
                       ConfigProblems& problems);

// The same from a file; one problem (line 0) when it cannot be read.
SimBench readSimBench(const std::filesystem::path& file, ConfigProblems& problems);

// A key's bench name (`station.2.yes`) or its GPIO line (`gpiochip0:17`); an LED's likewise.
bool isBenchKeyName(std::string_view name);
bool isBenchLedName(std::string_view name);

}  // namespace vivaref::config
