// One ISO/IEC 14443-A tag (a PICC) as the standard describes it (ISO/IEC
// 14443-3 §6.3 states, §6.4 commands, §6.5 select sequence): IDLE, READY
// (through one cascade level after another), ACTIVE and HALT, answering
// REQA/WUPA with an ATQA, ANTICOLLISION with the rest of its UID bits, SELECT
// with a SAK, and going to sleep on HLTA. It hears whole frames and answers
// with bits; collisions between tags are the field's business.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "tests/drivers/radio_bits.hpp"

namespace vivaref::drivers::emulation {

enum class TagState { Idle, Ready, Active, Halt };

class EmulatedTag {
public:
    // 4, 7 or 10 UID bytes; `finalSak` is what the tag says once fully
    // selected (0x08 a MIFARE Classic 1K, 0x00 an Ultralight or NTAG).
    explicit EmulatedTag(std::vector<std::uint8_t> uid, std::uint8_t finalSak = 0x00);

    const std::vector<std::uint8_t>& uid() const { return uid_; }
    TagState state() const { return state_; }

    // The field went off: the tag loses power and forgets everything (§6.3.1).
    void powerOff();
    std::optional<Bits> hear(const Bits& frame);

    // CLn of §6.5.4: four UID bytes (or cascade tag and three) and their BCC.
    std::array<std::uint8_t, 5> cascadeLevelBytes(int level) const;
    int cascadeLevels() const { return static_cast<int>(uid_.size() == 4 ? 1 : uid_.size() == 7 ? 2 : 3); }

private:
    std::optional<Bits> hearSelectCommand(const Bits& frame);
    void
    leaveOnError();  // any unexpected frame: back to IDLE, or to HALT when woken from it (READY*, ACTIVE*)
    Bits atqa() const;
    Bits sakFrame(std::uint8_t sak) const;

    std::vector<std::uint8_t> uid_;
    std::uint8_t finalSak_;
    TagState state_ = TagState::Idle;
    int level_ = 0;  // the cascade level the tag is at in READY
    bool wokenFromHalt_ = false;
};

}  // namespace vivaref::drivers::emulation
