// The example castle (28 MFRC522 readers: three on floor 0, four on floors
// 1-4, three on floor 5, the throne, two WCs, three dungeons) on emulated
// chips sharing one SPI bus and one virtual clock, driven by the
// FieldScheduler and the real Mfrc522Reader code: fields on as the coupling
// allows, power-ups overlapping inventories, the known-tag check. Tags move
// between cycles; every scan is compared with what its field really holds.
// The scans of readers whose fields are on are interleaved on the bus
// (InterleavedScans), or, for comparison, run one at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "drivers/sensing/field_scheduler.hpp"
#include "tests/drivers/emulated_reader.hpp"

namespace vivaref::drivers::emulation {

enum class CastleFields { OneAtATime, AdjacentLevels, SameOrAdjacentLevels };
const char* castleFieldsName(CastleFields fields);

struct PipelinedCastleOptions {
    EmulatedBusTiming bus;
    Mfrc522ReaderConfig reader;  // name ignored
    CastleFields fields = CastleFields::AdjacentLevels;
    std::size_t maxFieldsOn = 0;
    std::vector<std::size_t> uidSizes = {7};  // dealt in turn
    bool onePerReader = true;                 // else dealt at random (some readers hold 2-3)
    int tags = 14;
    int cycles = 200;       // measured, after one warm-up cycle
    int movesPerCycle = 1;  // tags moved to another reader after each cycle
    int swapEvery = 4;      // and every this many cycles two tags swap readers (0: never)
    std::uint64_t seed = 1;
    // Readers whose fields are on scan together, the bus serving one while
    // the others wait for the radio (InterleavedScans); else one scan at a
    // time, each holding the bus through its radio waits.
    bool interleave = true;
};

struct PipelinedCastleFigures {
    std::vector<double> cycleMs;  // each measured cycle, end to end
    double firstCycleMs = 0;
    double medianMs = 0, worstMs = 0, meanMs = 0;
    std::size_t groups = 0;
    std::size_t coupledPairs = 0;
    std::size_t maxFieldsOn = 0;
    double minPowerUpUs = 0;  // the shortest field-on-to-scan seen (must be >= the guard)
    std::uint64_t scans = 0, wrongScans = 0, failedScans = 0;
    std::uint64_t confirmed = 0;    // known-tag checks that found the tag alone
    std::uint64_t inventories = 0;  // scans that ran the full inventory
    std::uint64_t moves = 0;
    std::size_t maxScansUnderWay = 0;  // scans interleaved at once, at most
};

PipelinedCastleFigures runPipelinedCastle(const PipelinedCastleOptions& options);

}  // namespace vivaref::drivers::emulation
