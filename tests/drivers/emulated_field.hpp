// The RF field of one reader and the tags in it. A frame the reader sends
// reaches every powered tag; their answers superpose, and where two tags send
// different bits the reader sees a collision (ISO/IEC 14443-3 §6.2.3.3:
// Manchester coding makes a collided bit visible as such).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tests/drivers/emulated_tag.hpp"

namespace vivaref::drivers::emulation {

struct FieldAnswer {
    Bits bits;                                  // the superposed answer (collided bits read 1)
    std::optional<std::size_t> firstCollision;  // index of the first collided bit
};

class EmulatedField {
public:
    void add(EmulatedTag tag) { tags_.push_back(std::move(tag)); }
    // The tag is taken off the floor: it answers nothing from now on.
    bool remove(const std::vector<std::uint8_t>& uid);
    // The tag leaves after the field has carried `frames` more frames.
    void removeAfterFrames(const std::vector<std::uint8_t>& uid, int frames);
    const std::vector<EmulatedTag>& tags() const { return tags_; }

    void setPowered(bool on);
    bool powered() const { return powered_; }
    int framesCarried() const { return framesCarried_; }

    // Every tag hears the frame; no value when none answers.
    std::optional<FieldAnswer> carry(const Bits& frame);

private:
    struct Departure {
        std::vector<std::uint8_t> uid;
        int atFrame;
    };
    std::vector<EmulatedTag> tags_;
    std::vector<Departure> departures_;
    bool powered_ = false;
    int framesCarried_ = 0;
};

}  // namespace vivaref::drivers::emulation
