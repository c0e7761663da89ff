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

// ISO/IEC 14443-2 §8.1 and 14443-3 §6.1: one bit (etu) lasts 128/fc at 106 kbit/s; a
// frame is a start bit, each byte with its parity bit, and the end of frame.
constexpr std::chrono::nanoseconds kEtu{static_cast<std::int64_t>(128.0 / kCarrierHz * 1e9)};
// §6.2.1.1: a tag answers REQA, ANTICOLLISION and SELECT 1236/fc after the reader's last bit.
constexpr std::chrono::nanoseconds kFrameDelay{static_cast<std::int64_t>(1236.0 / kCarrierHz * 1e9)};
// Between polls of an answer that takes longer than expected: about one byte on air.
constexpr std::chrono::microseconds kByteTime{10};

std::chrono::nanoseconds frameAirTime(std::size_t bits) {
    return kEtu * static_cast<std::int64_t>(2 + bits + bits / 8);
}

std::chrono::microseconds ceilMicroseconds(std::chrono::nanoseconds t) {
    return std::chrono::ceil<std::chrono::microseconds>(t);
}

std::string hexByte(std::uint8_t v) {
    char text[8];
    std::snprintf(text, sizeof text, "0x%02X", v);
    return text;
}

}  // namespace

ChipModel describeVersion(std::uint8_t version) {
    char text[8];
    std::snprintf(text, sizeof text, "0x%02x", version);
    ChipModel out{text, "", isKnownVersion(version), false};
    switch (version) {
        case 0x91:
            out.model = "MFRC522 v1.0";
            break;
        case 0x92:
            out.model = "MFRC522 v2.0";
            break;
        case 0x88:
            out.model = "FM17522";
            out.clone = true;
            break;
        case 0x12:
            out.model = "MFRC522";  // a copy: only its version tells it
            out.clone = true;
            break;
        default:
            break;  // no chip (0x00 / 0xFF), or not an MFRC522: no product to name
    }
    return out;
}

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
    armed_ = false;
    framing_ = -1;
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

Status Mfrc522Chip::setFraming(std::uint8_t framing) {
    if (framing_ == framing) return std::nullopt;
    if (auto f = busFailure(bus_.write(Register::BitFraming, framing), "setting the bit framing")) return f;
    framing_ = framing;
    return std::nullopt;
}

RadioTask<Status> Mfrc522Chip::writeThenWait(Register r, std::uint8_t value, std::chrono::microseconds wait,
                                             const char* doing) {
    const bool onTheBus = radioWaits_ == RadioWaits::OnTheBus;
    if (auto f = busFailure(bus_.write(r, value, onTheBus ? wait : std::chrono::microseconds{0}), doing))
        co_return f;
    if (!onTheBus) co_await RadioWait{pause_, wait};
    co_return std::nullopt;
}

RadioTask<Status> Mfrc522Chip::transceive(std::span<const std::uint8_t> frame, std::uint8_t txLastBits,
                                          std::uint8_t rxAlign, std::size_t replyBits, Reply& reply) {
    reply = Reply{};
    if (auto f = armTransceive()) co_return f;
    if (auto f = busFailure(bus_.write(Register::ComIrq, bits::kAllComIrqs), "clearing interrupts"))
        co_return f;
    if (auto f = busFailure(bus_.writeFifo(frame), "filling the FIFO")) co_return f;
    const auto framing = static_cast<std::uint8_t>((rxAlign << 4) | txLastBits);
    const std::size_t txBits = (frame.size() - 1) * 8 + (txLastBits ? txLastBits : 8);
    // The first moment the chip can tell: its timer ran out, or an answer has begun and stopped it.
    const auto decideAt = ceilMicroseconds(frameAirTime(txBits) + timing_.responseTimeout);
    armed_ = false;  // until the exchange ends cleanly
    framing_ = framing;
    if (auto f = co_await writeThenWait(
            Register::BitFraming, static_cast<std::uint8_t>(framing | bits::kStartSend), decideAt, "sending"))
        co_return f;
    AnswerStatus status{};
    if (auto f = co_await awaitAnswer(replyBits, status)) co_return f;
    co_return takeAnswer(status, reply);
}

Status Mfrc522Chip::armTransceive() {
    if (armed_) return std::nullopt;
    // Stop whatever runs (a Transceive still listening after a silence never stops by itself),
    // empty the FIFO, and start Transceive: it waits for StartSend.
    const std::pair<Register, std::uint8_t> restart[] = {
        {Register::Command, static_cast<std::uint8_t>(Command::Idle)},
        {Register::FifoLevel, bits::kFlushBuffer},
        {Register::Command, static_cast<std::uint8_t>(Command::Transceive)},
    };
    for (const auto& [r, value] : restart) {
        if (auto f = busFailure(bus_.write(r, value), "starting Transceive")) return f;
    }
    armed_ = true;
    return std::nullopt;
}

RadioTask<Status> Mfrc522Chip::awaitAnswer(std::size_t replyBits, AnswerStatus& status) {
    // ComIrq first, then what a finished reception leaves, all in one transfer.
    const Register statusRegs[] = {Register::ComIrq, Register::Error, Register::FifoLevel, Register::Control,
                                   Register::Coll};
    const std::uint8_t done = bits::kRxIrq | bits::kIdleIrq | bits::kTimerIrq;
    for (int poll = 0;; ++poll) {
        if (poll == timing_.maxPolls) {
            co_return failure(ScanErrorKind::NoAnswer, "chip never finished waiting for a tag's answer (" +
                                                           std::to_string(timing_.maxPolls) + " polls)");
        }
        if (auto f = busFailure(bus_.readMany(statusRegs, status), "waiting for a tag's answer")) co_return f;
        if (status[0] & done) co_return std::nullopt;
        // An answer is on air: wait for its expected end, then a byte at a time.
        const auto rest =
            poll == 0 ? ceilMicroseconds(kFrameDelay + frameAirTime(replyBits)) - timing_.responseTimeout
                      : std::chrono::microseconds(0);
        if (radioWaits_ == RadioWaits::GiveBusBack) {
            co_await RadioWait{pause_, std::max(rest, kByteTime)};
        } else if (auto f = busFailure(bus_.pause(std::max(rest, kByteTime)), "waiting for a tag's answer")) {
            co_return f;
        }
    }
}

Status Mfrc522Chip::takeAnswer(const AnswerStatus& status, Reply& reply) {
    const auto [irq, error, fifoLevel, control, coll] = status;
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
    if (reply.size == 0 || reply.size > Mfrc522Bus::kFifoSize)
        return failure(ScanErrorKind::Protocol,
                       "FIFO level " + std::to_string(reply.size) + " after a frame");
    reply.lastBits = control & 0x07;
    if (auto f = busFailure(bus_.readFifo(std::span<std::uint8_t>(reply.bytes.data(), reply.size)),
                            "reading a tag's answer")) {
        return f;
    }
    armed_ = true;  // the FIFO is empty again and Transceive waits for the next StartSend
    return std::nullopt;
}

RadioTask<Status> Mfrc522Chip::transmit(std::span<const std::uint8_t> frame) {
    armed_ = false;
    const std::pair<Register, std::uint8_t> prepare[] = {
        {Register::Command, static_cast<std::uint8_t>(Command::Idle)},
        {Register::ComIrq, bits::kAllComIrqs},
    };
    for (const auto& [r, value] : prepare) {
        if (auto f = busFailure(bus_.write(r, value), "preparing Transmit")) co_return f;
    }
    if (auto f = busFailure(bus_.writeFifo(frame), "filling the FIFO")) co_return f;
    if (auto f = setFraming(0x00)) co_return f;
    // Transmit starts at once and ends by itself (§10.3.1.5): wait for the frame to be on air.
    const auto airTime = ceilMicroseconds(frameAirTime(frame.size() * 8));
    if (auto f = co_await writeThenWait(Register::Command, static_cast<std::uint8_t>(Command::Transmit),
                                        airTime, "starting Transmit")) {
        co_return f;
    }
    std::uint8_t irq = 0;
    co_return waitFor(Register::ComIrq, bits::kTxIrq | bits::kIdleIrq, irq, "transmitting");
}

Status Mfrc522Chip::calculateCrc(std::span<const std::uint8_t> data, std::array<std::uint8_t, 2>& crc) {
    armed_ = false;
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
