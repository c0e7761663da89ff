// A reader under one castle floor: which tags are in its field right now.
// The sensing pipeline switches each reader's antenna on, lets the tags power
// up, scans, and switches it off again; it knows nothing of the chip. The real
// one is Mfrc522Reader, the simulated twin SimulatedTagReader.
#pragma once

#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <variant>

#include "drivers/rfid/tag_uid.hpp"

namespace vivaref::drivers {

enum class ScanErrorKind {
    NoAnswer,      // the chip does not answer on the bus (reads all 0x00 or 0xFF, never finishes)
    WrongVersion,  // something answers, but it is not an MFRC522 (or a known clone)
    Protocol,      // garbage: a frame that breaks ISO/IEC 14443-3 or the chip's own rules
    Bus,           // the SPI transfer itself failed (the error_code is in the message)
    AntennaOff,    // scan() with the field off: the caller forgot antennaOn()
};

const char* errorKindName(ScanErrorKind kind);

struct ScanError {
    ScanErrorKind kind;
    std::string message;  // what and where, ready for the log: "reader floor-3: ..."
};

using TagSet = std::set<TagUid>;

// Either the tags in the field or why we cannot tell.
class ScanResult {
public:
    ScanResult(TagSet tags) : value_(std::move(tags)) {}
    ScanResult(ScanError error) : value_(std::move(error)) {}

    bool ok() const { return std::holds_alternative<TagSet>(value_); }
    explicit operator bool() const { return ok(); }
    const TagSet& tags() const { return std::get<TagSet>(value_); }
    const ScanError& error() const { return std::get<ScanError>(value_); }

private:
    std::variant<TagSet, ScanError> value_;
};

class TagReader {
public:
    virtual ~TagReader() = default;

    virtual const std::string& name() const = 0;

    // Field on: tags in it power up in their IDLE state (ISO/IEC 14443-3 §5.2.4:
    // give them up to 5 ms before scan()). Field off: every tag forgets it was read.
    virtual std::error_code antennaOn() = 0;
    virtual std::error_code antennaOff() = 0;

    // Every tag in the field that has not been read since the field came on.
    // Each tag read is sent to sleep (HLTA) so that the others can answer, so
    // scan once per antennaOn(); a second scan only finds tags placed since.
    virtual ScanResult scan() = 0;
};

}  // namespace vivaref::drivers
