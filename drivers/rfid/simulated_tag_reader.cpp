#include "drivers/rfid/simulated_tag_reader.hpp"

namespace vivaref::drivers {

std::error_code SimulatedTagReader::antennaOn() {
    antennaOn_ = true;
    return {};
}

std::error_code SimulatedTagReader::antennaOff() {
    antennaOn_ = false;
    halted_.clear();  // unpowered tags forget their HALT state
    return {};
}

ScanResult SimulatedTagReader::scan() {
    if (fault_) return *fault_;
    if (!antennaOn_)
        return ScanError{ScanErrorKind::AntennaOff, "reader " + name_ + ": scan with the antenna off"};
    TagSet found;
    for (const TagUid& uid : field_) {
        if (halted_.insert(uid).second) found.insert(uid);
    }
    return found;
}

}  // namespace vivaref::drivers
