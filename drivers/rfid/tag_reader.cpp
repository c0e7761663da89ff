#include "drivers/rfid/tag_reader.hpp"

namespace vivaref::drivers {

const char* errorKindName(ScanErrorKind kind) {
    switch (kind) {
        case ScanErrorKind::NoAnswer:
            return "no-answer";
        case ScanErrorKind::WrongVersion:
            return "wrong-version";
        case ScanErrorKind::Protocol:
            return "protocol";
        case ScanErrorKind::Bus:
            return "bus";
        case ScanErrorKind::AntennaOff:
            return "antenna-off";
    }
    return "unknown";
}

}  // namespace vivaref::drivers
