// An MFRC522 as its data sheet describes it, behind the SPI bus: the address
// byte (§8.1.2.3), the registers the driver may touch (§9), the 64-byte FIFO
// (§8.3), the commands Idle, Mem, CalcCRC, Transmit, Receive, Transceive and
// SoftReset (§10.3), bit-oriented framing (BitFramingReg), interrupts
// (ComIrqReg, DivIrqReg), errors and collision position (ErrorReg, CollReg),
// and the timer (§8.5), all in virtual time: each SPI transfer takes its bytes
// at the configured clock and then the wait the driver asked for, radio frames
// take their ISO/IEC 14443-A duration.
// Its field holds emulated tags. Faults can be injected: a dead chip, another
// version, garbled answers, garbage on MISO.
//
// It is a model of the chip, written from the data sheet, not from our driver:
// it keeps its own register numbers.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>

#include "drivers/rfid/spi_transport.hpp"
#include "tests/drivers/emulated_field.hpp"

namespace vivaref::drivers::emulation {

struct EmulatedBusTiming {
    std::uint32_t spiClockHz = 4'000'000;
    std::int64_t perTransferOverheadNs = 0;  // the host's cost per transfer (ioctl, CS), if any
};

class EmulatedMfrc522 final : public SpiTransport {
public:
    explicit EmulatedMfrc522(EmulatedBusTiming timing = {});

    using SpiTransport::transfer;
    std::error_code transfer(std::span<const std::uint8_t> tx, std::span<std::uint8_t> rx,
                             std::chrono::microseconds settle) override;

    EmulatedField& field() { return field_; }
    std::int64_t nowNs() const { return nowNs_; }
    // Several chips on one bus share the host's clock: this chip's time moves
    // on to `ns` (nothing happens when it is already later), as if idle.
    void idleUntil(std::int64_t ns) {
        if (ns > nowNs_) advanceTo(ns);
    }
    std::uint8_t peekRegister(std::uint8_t address) const { return regs_[address & 0x3F]; }

    // Fault injection.
    void setVersion(std::uint8_t version) { version_ = version; }
    // From the next transfer on, every MISO byte reads `value` and writes are lost.
    void dieAfterTransfers(std::uint64_t transfers, std::uint8_t value);
    // The next `frames` tag answers (after `clean` more that arrive intact) are
    // garbled: with a parity error the chip sees, or with two bits of one byte
    // flipped, which parity cannot see.
    void garbleAnswers(int frames, bool parityVisible, int clean = 0);
    // Each MISO byte is replaced by a random one with probability 1/oneIn.
    void garbleMiso(std::uint32_t seed, int oneIn);
    void failTransfers(std::error_code ec) { failure_ = ec; }

    // Transfers that clocked bytes (a pure wait is not one).
    std::uint64_t transfers() const { return transfers_; }

    // Where the radio's time went, for the benchmark.
    struct RadioTime {
        int frames = 0;
        std::int64_t airNs = 0;         // reader frames and tag answers on air
        std::int64_t frameDelayNs = 0;  // tags' reaction time before answering
        std::int64_t timeoutNs = 0;     // the timer running out with no answer
    };
    const RadioTime& radioTime() const { return radio_; }

private:
    struct Exchange {
        bool receive = false;  // Transceive waits for an answer, Transmit does not
        std::int64_t txEndNs = 0;
        std::optional<FieldAnswer> answer;
        std::int64_t rxEndNs = 0;
        std::optional<std::int64_t> timerExpiryNs;
        std::uint8_t rxAlign = 0;
        bool txDone = false;
    };

    std::uint8_t readRegister(std::uint8_t address);
    void writeRegister(std::uint8_t address, std::uint8_t value);
    void startCommand(std::uint8_t command);
    void startTransmission(bool receive);
    void deliverAnswer(const Exchange& exchange);
    void advanceTo(std::int64_t ns);
    void reset();
    std::int64_t timerPeriodNs() const;
    void pushFifo(std::uint8_t byte);

    EmulatedField field_;
    EmulatedBusTiming timing_;
    std::array<std::uint8_t, 64> regs_{};
    std::deque<std::uint8_t> fifo_;
    std::array<std::uint8_t, 25> memBuffer_{};
    std::uint8_t version_ = 0x92;
    std::int64_t nowNs_ = 0;
    std::int64_t resetDoneNs_ = 0;
    std::optional<Exchange> exchange_;

    std::uint64_t transfers_ = 0;
    std::optional<std::uint64_t> deathAt_;
    std::uint8_t deadValue_ = 0;
    int garbledAnswers_ = 0;
    int cleanAnswers_ = 0;  // before the garbled ones
    bool garbleParityVisible_ = true;
    std::optional<std::mt19937> misoNoise_;
    int misoOneIn_ = 0;
    std::error_code failure_;
    RadioTime radio_;
};

}  // namespace vivaref::drivers::emulation
