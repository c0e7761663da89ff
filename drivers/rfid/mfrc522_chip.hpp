// One MFRC522 as a set of operations: reset, version, antenna, and the
// commands the tag protocol needs (Transceive, Transmit, CalcCRC), each
// bounded in time by the chip's own timer and in bus polls by a counter so
// that a dead or confused chip can never hang the loop. What the frames mean
// is Mfrc522Reader's business.
//
// Few bus transfers per frame: Transceive stays the chip's command between
// frames (it sends again on each StartSend, §10.3.1.8) and is only restarted
// after a silence or an error; the radio's timing is known (frames at 106
// kbit/s, the tag's fixed frame delay), so instead of polling the chip while
// the frames are on air we wait, in the same system call as the StartSend
// write, until the chip can tell, then read all its status registers at once.
// Or, with RadioWaits::GiveBusBack, the frame and answer commands stop at
// each such wait (radio_task.hpp) and the bus is free for other chips until
// the caller resumes them: the chip's timer and FIFO do not need the host.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "drivers/rfid/mfrc522_bus.hpp"
#include "drivers/rfid/radio_task.hpp"
#include "drivers/rfid/tag_reader.hpp"

namespace vivaref::drivers::mfrc522 {

// No value means success.
using Status = std::optional<ScanError>;

struct ChipTiming {
    // How long the chip's timer waits for a tag's answer after each frame it
    // sends. Every frame the driver sends (REQA, ANTICOLLISION, SELECT) has the
    // fixed frame delay of ISO/IEC 14443-3 §6.2.1.1, 1236/fc = 91 us, and the
    // timer stops once the answer's first 5 bits are in (47 us more, TModeReg
    // TAuto): 138 us. 200 us leaves margin for the tag's and the receiver's
    // tolerances; an empty field costs this much per REQA.
    std::chrono::microseconds responseTimeout{200};
    // Status polls per command before we give up on the chip: far more than its
    // timer needs at any SPI clock the Pi offers, so only a dead chip reaches it.
    int maxPolls = 5000;
};

struct Reply {
    enum class Outcome { NoReply, Received, Collision };
    Outcome outcome = Outcome::NoReply;
    std::array<std::uint8_t, Mfrc522Bus::kFifoSize> bytes{};
    std::size_t size = 0;
    std::uint8_t lastBits = 0;  // valid bits in the last byte, 0 = all eight (ControlReg RxLastBits)
    int collisionPosition = 0;  // 1-based, counting RxAlign (CollReg CollPos, 0 read as 32)

    std::span<const std::uint8_t> data() const { return {bytes.data(), size}; }
};

// How the host spends a radio wait.
enum class RadioWaits {
    OnTheBus,     // in the delay of the transfer that started it: the bus is held (one scan at a time)
    GiveBusBack,  // the command stops (pause()) and the caller resumes it once the wait is over
};

// What a VersionReg byte says the chip is (§9.3.4.8, and the clones sold
// on cheap RC522 boards): 0x91 "MFRC522 v1.0", 0x92 "MFRC522 v2.0", 0x88
// "FM17522" and 0x12 "MFRC522", both clones (the name a product's, for any
// language's page; `clone` says what it is);
// 0x00/0xFF (no chip) and anything else (not an MFRC522): no model.
struct ChipModel {
    std::string version;  // "0x92"
    std::string model;    // "MFRC522 v2.0"
    bool known = false;   // a genuine chip or a known clone: the driver takes it
    bool clone = false;
};
ChipModel describeVersion(std::uint8_t version);

class Mfrc522Chip {
public:
    Mfrc522Chip(SpiTransport& spi, std::string name, ChipTiming timing);

    const std::string& name() const { return name_; }
    const BusCounters& counters() const { return bus_.counters(); }

    Status softReset();
    // Reads VersionReg; NoAnswer for 0x00/0xFF, WrongVersion for anything else unknown.
    Status checkVersion(std::uint8_t& version);
    // Timer, 100 % ASK, CRC preset 0x6363 and cleared bits after a collision.
    Status configureForIso14443A();
    std::error_code setAntenna(bool on);

    void setRadioWaits(RadioWaits waits) { radioWaits_ = waits; }
    // Where a command stopped for the radio (GiveBusBack).
    RadioPause& pause() { return pause_; }

    // Sends `frame` (its last byte holding `txLastBits` bits, 0 = 8) and
    // receives the answer aligned at bit `rxAlign` of the first FIFO byte.
    // `replyBits`, the answer's expected length, tells when to look.
    RadioTask<Status> transceive(std::span<const std::uint8_t> frame, std::uint8_t txLastBits,
                                 std::uint8_t rxAlign, std::size_t replyBits, Reply& reply);
    // Sends `frame` and expects no answer (HLTA).
    RadioTask<Status> transmit(std::span<const std::uint8_t> frame);
    // CRC_A of `data` by the chip's coprocessor (§10.3.1.4), low byte first as sent.
    Status calculateCrc(std::span<const std::uint8_t> data, std::array<std::uint8_t, 2>& crc);

private:
    Status busFailure(std::error_code ec, const char* doing) const;
    Status failure(ScanErrorKind kind, const std::string& what) const;
    Status waitFor(Register r, std::uint8_t anyOf, std::uint8_t& value, const char* doing);
    Status setFraming(std::uint8_t framing);
    // After a frame: ComIrq, Error, FIFOLevel, Control and Coll, read in one transfer.
    using AnswerStatus = std::array<std::uint8_t, 5>;
    // Makes Transceive the chip's command again, waiting for StartSend with
    // the FIFO empty (after a silence, an error, HLTA or CalcCRC).
    Status armTransceive();
    // Polls the status of the frame just sent until the chip has decided:
    // its timer ran out, or an answer ended (`replyBits` long, expected).
    RadioTask<Status> awaitAnswer(std::size_t replyBits, AnswerStatus& status);
    // What that status says of the answer; the answer itself from the FIFO.
    Status takeAnswer(const AnswerStatus& status, Reply& reply);
    // Writes `r` and lets `wait` of radio time pass, the RadioWaits way.
    RadioTask<Status> writeThenWait(Register r, std::uint8_t value, std::chrono::microseconds wait,
                                    const char* doing);

    Mfrc522Bus bus_;
    std::string name_;
    ChipTiming timing_;
    // Transceive is the chip's command, waiting for StartSend, with the FIFO empty.
    bool armed_ = false;
    // BitFramingReg's TxLastBits and RxAlign as last written; -1 unknown.
    int framing_ = -1;
    RadioWaits radioWaits_ = RadioWaits::OnTheBus;
    RadioPause pause_;
};

}  // namespace vivaref::drivers::mfrc522
