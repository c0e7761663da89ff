#include "drivers/rfid/mfrc522_chip.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vivaref::drivers::mfrc522 {
namespace {

// §8.5: with TPrescaler = 6 the timer ticks every 13 / 13.56 MHz = 0.96 us,
// and a 16-bit reload value reaches 62 ms: fine steps, ample range.
constexpr std::uint16_t kTimerPrescaler = 6;

std::uint16_t timerReloadFor(std::chrono::microseconds timeout) {
    const double tick = (2.0 * kTimerPrescaler + 1.0) / kCarrierHz;
    const double ticks = std::ceil(static_cast<double>(timeout.count()) * 1e-6 / tick);
    return static_cast<std::uint16_t>(std::clamp(ticks, 1.0, 65535.0));
}

std::string hexByte(std::uint8_t v) {
    char text[8];
    std::snprintf(text, sizeof text, "0x%02X", v);
    return text;
}

}  // namespace

Mfrc522Chip::Mfrc522Chip(SpiTransport& spi, std::string name, ChipTiming timing)
    : bus_(spi), name_(std::move(name)), timing_(timing) {}

Status Mfrc522Chip::failure(ScanErrorKind kind, const std::string& what) const {
    return ScanError{kind, "reader " + name_ + ": " + what};
}

Status Mfrc522Chip::busFailure(std::error_code ec, const char* doing) const {
    if (!ec) return std::nullopt;
    return failure(ScanErrorKind::Bus,
                   std::string("SPI transfer failed while ") + doing + ": " + ec.message());
}

Status Mfrc522Chip::waitFor(Register r, std::uint8_t anyOf, std::uint8_t& value, const char* doing) {
    for (int poll = 0; poll < timing_.maxPolls; ++poll) {
        if (auto f = busFailure(bus_.read(r, value), doing)) return f;
        if (value & anyOf) return std::nullopt;
    }
    return failure(ScanErrorKind::NoAnswer, std::string("chip never finished ") + doing + " (" +
                                                std::to_string(timing_.maxPolls) + " polls)");
}

Status Mfrc522Chip::softReset() {
    if (auto f = busFailure(bus_.write(Register::Command, static_cast<std::uint8_t>(Command::SoftReset)),
                            "starting a soft reset")) {
        return f;
    }
    // §10.3.1.10: PowerDown stays set until the oscillator runs again.
    for (int poll = 0; poll < timing_.maxPolls; ++poll) {
        std::uint8_t command = 0;
        if (auto f = busFailure(bus_.read(Register::Command, command), "waiting for the soft reset"))
            return f;
        if (!(command & bits::kPowerDown)) return std::nullopt;
    }
    return failure(ScanErrorKind::NoAnswer, "chip stays powered down after a soft reset");
}

Status Mfrc522Chip::checkVersion(std::uint8_t& version) {
    if (auto f = busFailure(bus_.read(Register::Version, version), "reading VersionReg")) return f;
    if (version == 0x00 || version == 0xFF) {
        return failure(ScanErrorKind::NoAnswer,
                       "VersionReg reads " + hexByte(version) +
                           ": no chip on the bus (unpowered, unplugged, MISO stuck)");
    }
    if (!isKnownVersion(version)) {
        return failure(ScanErrorKind::WrongVersion, "VersionReg reads " + hexByte(version) +
                                                        ", not an MFRC522 (0x91, 0x92) or a known clone");
    }
    return std::nullopt;
}

Status Mfrc522Chip::configureForIso14443A() {
    const std::uint16_t reload = timerReloadFor(timing_.responseTimeout);
    const std::pair<Register, std::uint8_t> settings[] = {
        {Register::TMode, static_cast<std::uint8_t>(bits::kTAuto | (kTimerPrescaler >> 8))},
        {Register::TPrescaler, static_cast<std::uint8_t>(kTimerPrescaler & 0xFF)},
        {Register::TReloadHi, static_cast<std::uint8_t>(reload >> 8)},
        {Register::TReloadLo, static_cast<std::uint8_t>(reload & 0xFF)},
        {Register::TxAsk, bits::kForce100Ask},
        {Register::Mode, bits::kCrcPreset6363},  // ISO/IEC 14443-3 §6.2.4: CRC_A starts at 0x6363
        {Register::Coll, 0x00},                  // ValuesAfterColl = 0: bits after a collision read 0
    };
    for (const auto& [r, value] : settings) {
        if (auto f = busFailure(bus_.write(r, value), "configuring the chip")) return f;
    }
    return std::nullopt;
}

std::error_code Mfrc522Chip::setAntenna(bool on) {
    return bus_.write(Register::TxControl,
                      static_cast<std::uint8_t>(bits::kTxControlReset | (on ? bits::kAntennaBothPins : 0)));
}

Status Mfrc522Chip::loadFifo(std::span<const std::uint8_t> frame) {
    // Stop whatever runs (a Transceive never stops by itself, §10.3.1.8), then start clean.
    if (auto f =
            busFailure(bus_.write(Register::Command, static_cast<std::uint8_t>(Command::Idle)), "idling")) {
        return f;
    }
    if (auto f = busFailure(bus_.write(Register::ComIrq, bits::kAllComIrqs), "clearing interrupts")) return f;
    if (auto f = busFailure(bus_.write(Register::FifoLevel, bits::kFlushBuffer), "flushing the FIFO"))
        return f;
    return busFailure(bus_.writeFifo(frame), "filling the FIFO");
}

Status Mfrc522Chip::transceive(std::span<const std::uint8_t> frame, std::uint8_t txLastBits,
                               std::uint8_t rxAlign, Reply& reply) {
    reply = Reply{};
    if (auto f = loadFifo(frame)) return f;
    const auto framing = static_cast<std::uint8_t>((rxAlign << 4) | txLastBits);
    if (auto f = busFailure(bus_.write(Register::BitFraming, framing), "setting the bit framing")) return f;
    if (auto f = busFailure(bus_.write(Register::Command, static_cast<std::uint8_t>(Command::Transceive)),
                            "starting Transceive")) {
        return f;
    }
    if (auto f = busFailure(bus_.write(Register::BitFraming, framing | bits::kStartSend), "sending"))
        return f;

    std::uint8_t irq = 0;
    if (auto f = waitFor(Register::ComIrq, bits::kRxIrq | bits::kIdleIrq | bits::kTimerIrq, irq,
                         "waiting for a tag's answer")) {
        return f;
    }
    const Register statusRegs[] = {Register::Error, Register::FifoLevel, Register::Control, Register::Coll};
    std::array<std::uint8_t, 4> status{};
    if (auto f = busFailure(bus_.readMany(statusRegs, status), "reading the reception status")) return f;
    const auto [error, fifoLevel, control, coll] = status;

    if (irq == 0xFF && error == 0xFF) return failure(ScanErrorKind::NoAnswer, "chip reads all ones");
    if (!(irq & bits::kRxIrq)) return std::nullopt;  // the timer ran out: no tag answered
    const bool collision = (error & bits::kCollErr) != 0;
    // A collision garbles parity too; any other error means the frame is not to be trusted.
    const std::uint8_t fatal =
        bits::kTempErr | bits::kBufferOvfl | bits::kProtocolErr | (collision ? 0 : bits::kParityErr);
    if (error & fatal)
        return failure(ScanErrorKind::Protocol, "ErrorReg " + hexByte(error) + " after a frame");
    if (collision) {
        if (coll & bits::kCollPosNotValid) return failure(ScanErrorKind::Protocol, "collision out of range");
        reply.outcome = Reply::Outcome::Collision;
        reply.collisionPosition = (coll & 0x1F) == 0 ? 32 : (coll & 0x1F);  // §9.3.1.15
    } else {
        reply.outcome = Reply::Outcome::Received;
    }
    reply.size = fifoLevel & 0x7F;
    if (reply.size == 0 || reply.size > Mfrc522Bus::kFifoSize) {
        return failure(ScanErrorKind::Protocol,
                       "FIFO level " + std::to_string(reply.size) + " after a frame");
    }
    reply.lastBits = control & 0x07;
    return busFailure(bus_.readFifo(std::span<std::uint8_t>(reply.bytes.data(), reply.size)),
                      "reading a tag's answer");
}

Status Mfrc522Chip::transmit(std::span<const std::uint8_t> frame) {
    if (auto f = loadFifo(frame)) return f;
    if (auto f = busFailure(bus_.write(Register::BitFraming, 0x00), "setting the bit framing")) return f;
    if (auto f = busFailure(bus_.write(Register::Command, static_cast<std::uint8_t>(Command::Transmit)),
                            "starting Transmit")) {
        return f;
    }
    std::uint8_t irq = 0;
    return waitFor(Register::ComIrq, bits::kTxIrq | bits::kIdleIrq, irq, "transmitting");
}

Status Mfrc522Chip::calculateCrc(std::span<const std::uint8_t> data, std::array<std::uint8_t, 2>& crc) {
    if (auto f =
            busFailure(bus_.write(Register::Command, static_cast<std::uint8_t>(Command::Idle)), "idling")) {
        return f;
    }
    if (auto f = busFailure(bus_.write(Register::DivIrq, bits::kCrcIrq), "clearing CRCIRq")) return f;
    if (auto f = busFailure(bus_.write(Register::FifoLevel, bits::kFlushBuffer), "flushing the FIFO"))
        return f;
    if (auto f = busFailure(bus_.writeFifo(data), "filling the FIFO")) return f;
    if (auto f = busFailure(bus_.write(Register::Command, static_cast<std::uint8_t>(Command::CalcCrc)),
                            "starting CalcCRC")) {
        return f;
    }
    std::uint8_t irq = 0;
    if (auto f = waitFor(Register::DivIrq, bits::kCrcIrq, irq, "calculating a CRC")) return f;
    const Register resultRegs[] = {Register::CrcResultLsb, Register::CrcResultMsb};
    return busFailure(bus_.readMany(resultRegs, crc), "reading the CRC");
}

}  // namespace vivaref::drivers::mfrc522
