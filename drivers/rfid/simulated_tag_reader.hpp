// The simulated twin of a tag reader: the tags in its field are whatever a
// test or `vivaref simulate` puts there. It keeps the real reader's contract:
// no tags without the field, each tag once per antennaOn().
#pragma once

#include <optional>

#include "drivers/rfid/tag_reader.hpp"

namespace vivaref::drivers {

class SimulatedTagReader final : public TagReader {
public:
    explicit SimulatedTagReader(std::string name) : name_(std::move(name)) {}

    void place(const TagUid& uid) { field_.insert(uid); }
    void remove(const TagUid& uid) {
        field_.erase(uid);
        halted_.erase(uid);
    }
    void setField(TagSet tags) {
        field_ = std::move(tags);
        halted_.clear();
    }
    // The next scans fail with this error until clearFault().
    void injectFault(ScanError error) { fault_ = std::move(error); }
    void clearFault() { fault_.reset(); }

    const std::string& name() const override { return name_; }
    std::error_code antennaOn() override;
    std::error_code antennaOff() override;
    ScanResult scan() override;

private:
    std::string name_;
    TagSet field_;
    TagSet halted_;
    bool antennaOn_ = false;
    std::optional<ScanError> fault_;
};

}  // namespace vivaref::drivers
