// A fake PN532 on a pseudo-terminal, for testing the libnfc path without a
// reader: libnfc opens "pn532_uart:" + slavePath() as it would a serial port,
// and a thread on the master side speaks the chip's host protocol (PN532 user
// manual §6.2: frames 00 00 FF LEN LCS TFI data DCS 00, the ACK frame, the
// syntax-error frame, the 0x55 wake-up bytes of the HSU link) and answers the
// commands libnfc 1.8 sends: Diagnose, GetFirmwareVersion, SAMConfiguration,
// SetParameters, ReadRegister, WriteRegister, RFConfiguration,
// InListPassiveTarget, InDeselect, InRelease and PowerDown; anything else gets
// the syntax-error frame.
//
// Its field holds ISO/IEC 14443-A tags. InListPassiveTarget activates up to
// MaxTg (1 or 2) of those that are neither active nor halted, lowest UID
// first; InDeselect and InRelease send the active ones to HALT; the field
// going off wakes them all (they lose power). Faults: silence (no ACK, no
// answer) and garbage (an ACK, then bytes that are no frame).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "drivers/rfid/file_descriptor.hpp"

namespace vivaref::drivers::emulation {

struct FakeTag {
    std::vector<std::uint8_t> uid;  // 4, 7 or 10 bytes
    std::uint8_t sak = 0x00;        // 0x00: NTAG/Ultralight, 0x08: MIFARE Classic 1K
};

class FakePn532 {
public:
    // Null, and `why` says what failed, where the system has no pseudo-terminals.
    static std::unique_ptr<FakePn532> open(std::string& why);
    ~FakePn532();
    FakePn532(const FakePn532&) = delete;
    FakePn532& operator=(const FakePn532&) = delete;

    const std::string& slavePath() const { return slavePath_; }
    std::string connection() const { return "pn532_uart:" + slavePath_; }

    void place(FakeTag tag);
    void remove(const std::vector<std::uint8_t>& uid);

    enum class Fault { None, Silent, Garbage };
    // From the `afterCommands`-th command on (0: the next one).
    void setFault(Fault fault, int afterCommands = 0);

    // Command codes received so far, in order (wake-up and ACK frames left out).
    std::vector<std::uint8_t> commands() const;
    bool fieldOn() const;

private:
    FakePn532(FileDescriptor master, FileDescriptor slave, std::string slavePath, FileDescriptor stopRead,
              FileDescriptor stopWrite);
    void run();
    void consume();
    void answer(std::uint8_t command, const std::vector<std::uint8_t>& params);
    std::vector<std::uint8_t> listTargets(std::uint8_t maxTargets, std::uint8_t baudRate);
    void send(const std::vector<std::uint8_t>& bytes);

    struct Tag {
        FakeTag tag;
        bool active = false;
        bool halted = false;
    };

    FileDescriptor master_;
    FileDescriptor slave_;  // kept open so that the master never sees a hang-up between libnfc's opens
    std::string slavePath_;
    FileDescriptor stopRead_, stopWrite_;

    mutable std::mutex mutex_;  // guards everything below
    std::vector<std::uint8_t> input_;
    std::vector<Tag> field_;
    std::vector<std::uint8_t> commands_;
    bool fieldOn_ = false;
    Fault fault_ = Fault::None;
    int faultAfter_ = 0;
    std::uint32_t garbageSeed_ = 1;

    std::thread thread_;
};

}  // namespace vivaref::drivers::emulation
