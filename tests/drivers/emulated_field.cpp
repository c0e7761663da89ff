#include "tests/drivers/emulated_field.hpp"

#include <algorithm>

namespace vivaref::drivers::emulation {

bool EmulatedField::remove(const std::vector<std::uint8_t>& uid) {
    return std::erase_if(tags_, [&](const EmulatedTag& t) { return t.uid() == uid; }) > 0;
}

void EmulatedField::removeAfterFrames(const std::vector<std::uint8_t>& uid, int frames) {
    departures_.push_back({uid, framesCarried_ + frames});
}

void EmulatedField::setPowered(bool on) {
    if (powered_ && !on) {
        for (EmulatedTag& tag : tags_) tag.powerOff();
    }
    powered_ = on;
}

std::optional<FieldAnswer> EmulatedField::carry(const Bits& frame) {
    std::erase_if(departures_, [&](const Departure& d) {
        if (framesCarried_ < d.atFrame) return false;
        remove(d.uid);
        return true;
    });
    ++framesCarried_;
    if (!powered_) return std::nullopt;

    std::optional<FieldAnswer> answer;
    for (EmulatedTag& tag : tags_) {
        std::optional<Bits> bits = tag.hear(frame);
        if (!bits) continue;
        if (!answer) {
            answer = FieldAnswer{std::move(*bits), std::nullopt};
            continue;
        }
        // Superpose: a bit only some tags send, or that tags send differently, collides.
        Bits& sum = answer->bits;
        const std::size_t length = std::max(sum.size(), bits->size());
        for (std::size_t i = 0; i < length; ++i) {
            const bool inSum = i < sum.size();
            const bool inThis = i < bits->size();
            if (inSum && inThis && sum[i] == (*bits)[i]) continue;
            if (!answer->firstCollision || i < *answer->firstCollision) answer->firstCollision = i;
        }
        if (bits->size() > sum.size()) sum.resize(bits->size(), 1);
        for (std::size_t i = 0; i < bits->size(); ++i) sum[i] |= (*bits)[i];
    }
    return answer;
}

}  // namespace vivaref::drivers::emulation
