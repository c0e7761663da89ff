#include "tests/drivers/emulated_mfrc522.hpp"

#include <algorithm>

#include "tests/drivers/crc_a.hpp"

namespace vivaref::drivers::emulation {
namespace {

// Register addresses, data sheet §9.2.
enum : std::uint8_t {
    kCommandReg = 0x01,
    kComIEnReg = 0x02,
    kComIrqReg = 0x04,
    kDivIrqReg = 0x05,
    kErrorReg = 0x06,
    kStatus1Reg = 0x07,
    kFifoDataReg = 0x09,
    kFifoLevelReg = 0x0A,
    kWaterLevelReg = 0x0B,
    kControlReg = 0x0C,
    kBitFramingReg = 0x0D,
    kCollReg = 0x0E,
    kModeReg = 0x11,
    kTxControlReg = 0x14,
    kTxSelReg = 0x16,
    kRxSelReg = 0x17,
    kRxThresholdReg = 0x18,
    kDemodReg = 0x19,
    kMfTxReg = 0x1C,
    kSerialSpeedReg = 0x1F,
    kCrcResultMsbReg = 0x21,
    kCrcResultLsbReg = 0x22,
    kModWidthReg = 0x24,
    kRfCfgReg = 0x26,
    kGsNReg = 0x27,
    kCwGsPReg = 0x28,
    kModGsPReg = 0x29,
    kTModeReg = 0x2A,
    kTPrescalerReg = 0x2B,
    kTReloadHiReg = 0x2C,
    kTReloadLoReg = 0x2D,
    kVersionReg = 0x37,
};
// Commands, §10.3.
enum : std::uint8_t {
    kIdle = 0x0,
    kMem = 0x1,
    kCalcCrc = 0x3,
    kTransmit = 0x4,
    kReceive = 0x8,
    kTransceive = 0xC,
    kSoftReset = 0xF,
};
// ComIrqReg, DivIrqReg, ErrorReg bits, §9.3.1.5-7.
constexpr std::uint8_t kTxIrq = 0x40, kRxIrq = 0x20, kIdleIrq = 0x10, kErrIrq = 0x02, kTimerIrq = 0x01;
constexpr std::uint8_t kCrcIrq = 0x04;
constexpr std::uint8_t kBufferOvfl = 0x10, kCollErr = 0x08, kParityErr = 0x02;
constexpr std::uint8_t kValuesAfterColl = 0x80, kCollPosNotValid = 0x20;

constexpr double kCarrierHz = 13.56e6;
constexpr double kEtuNs = 128.0 / kCarrierHz * 1e9;  // one bit at 106 kbit/s
// ISO/IEC 14443-3 §6.2.1.1: a tag answers 1236/fc after the reader's last (1) bit.
constexpr std::int64_t kFrameDelayNs = static_cast<std::int64_t>(1236.0 / kCarrierHz * 1e9);
constexpr std::int64_t kTimerStopNs = static_cast<std::int64_t>(5 * kEtuNs);
constexpr std::int64_t kSoftResetNs = 50'000;  // the oscillator restarting, §8.8.2

// A frame on air: start of frame, each byte with its parity bit, end of frame.
std::int64_t airTimeNs(std::size_t bits) {
    return static_cast<std::int64_t>(kEtuNs * static_cast<double>(2 + bits + bits / 8));
}

}  // namespace

EmulatedMfrc522::EmulatedMfrc522(EmulatedBusTiming timing) : timing_(timing) { reset(); }

void EmulatedMfrc522::reset() {
    // Reset values, §9.3.
    regs_.fill(0x00);
    regs_[kCommandReg] = 0x20;
    regs_[kComIEnReg] = 0x80;
    regs_[kComIrqReg] = 0x14;
    regs_[kStatus1Reg] = 0x21;
    regs_[kWaterLevelReg] = 0x08;
    regs_[kControlReg] = 0x10;
    regs_[kCollReg] = kValuesAfterColl | kCollPosNotValid;
    regs_[kModeReg] = 0x3F;
    regs_[kTxControlReg] = 0x80;
    regs_[kTxSelReg] = 0x10;
    regs_[kRxSelReg] = 0x84;
    regs_[kRxThresholdReg] = 0x84;
    regs_[kDemodReg] = 0x4D;
    regs_[kMfTxReg] = 0x62;
    regs_[kSerialSpeedReg] = 0xEB;
    regs_[kCrcResultMsbReg] = 0xFF;
    regs_[kCrcResultLsbReg] = 0xFF;
    regs_[kModWidthReg] = 0x26;
    regs_[kRfCfgReg] = 0x48;
    regs_[kGsNReg] = 0x88;
    regs_[kCwGsPReg] = 0x20;
    regs_[kModGsPReg] = 0x20;
    fifo_.clear();
    exchange_.reset();
    field_.setPowered(false);
}

void EmulatedMfrc522::dieAfterTransfers(std::uint64_t transfers, std::uint8_t value) {
    deathAt_ = transfers_ + transfers;
    deadValue_ = value;
}

void EmulatedMfrc522::garbleAnswers(int frames, bool parityVisible, int clean) {
    garbledAnswers_ = frames;
    cleanAnswers_ = clean;
    garbleParityVisible_ = parityVisible;
}

void EmulatedMfrc522::garbleMiso(std::uint32_t seed, int oneIn) {
    misoNoise_.emplace(seed);
    misoOneIn_ = oneIn;
}

std::error_code EmulatedMfrc522::transfer(std::span<const std::uint8_t> tx, std::span<std::uint8_t> rx,
                                          std::chrono::microseconds settle) {
    if (failure_) return failure_;
    if (tx.size() != rx.size()) return std::make_error_code(std::errc::invalid_argument);
    if (tx.empty()) {  // only a wait
        advanceTo(nowNs_ + settle.count() * 1000 + timing_.perTransferOverheadNs);
        return {};
    }
    ++transfers_;
    advanceTo(nowNs_);
    if (deathAt_ && transfers_ > *deathAt_) {
        std::fill(rx.begin(), rx.end(), deadValue_);
    } else if (!tx.empty()) {
        rx[0] = 0x00;
        if (tx[0] & 0x80) {
            // A read: each address byte is answered during the next byte; the last MOSI byte only clocks.
            for (std::size_t i = 0; i + 1 < tx.size(); ++i) rx[i + 1] = readRegister((tx[i] >> 1) & 0x3F);
        } else {
            // A write: one address, then data bytes all for it (§8.1.2.2).
            for (std::size_t i = 1; i < tx.size(); ++i) {
                writeRegister((tx[0] >> 1) & 0x3F, tx[i]);
                rx[i] = 0x00;
            }
        }
        if (misoNoise_) {
            std::uniform_int_distribution<int> pick(0, misoOneIn_ - 1), byte(0, 255);
            for (std::uint8_t& b : rx) {
                if (pick(*misoNoise_) == 0) b = static_cast<std::uint8_t>(byte(*misoNoise_));
            }
        }
    }
    const auto busNs = static_cast<std::int64_t>(tx.size()) * 8 * 1'000'000'000 / timing_.spiClockHz;
    advanceTo(nowNs_ + busNs + timing_.perTransferOverheadNs);
    if (settle.count() > 0) advanceTo(nowNs_ + settle.count() * 1000);
    return {};
}

std::uint8_t EmulatedMfrc522::readRegister(std::uint8_t address) {
    if (nowNs_ < resetDoneNs_) return address == kCommandReg ? 0x30 | kSoftReset : 0x00;
    switch (address) {
        case kComIrqReg:
            return regs_[address] & 0x7F;
        case kDivIrqReg:
            return regs_[address] & 0x14;
        case kFifoDataReg: {
            if (fifo_.empty()) return 0x00;
            const std::uint8_t b = fifo_.front();
            fifo_.pop_front();
            return b;
        }
        case kFifoLevelReg:
            return static_cast<std::uint8_t>(fifo_.size());
        case kVersionReg:
            return version_;
        default:
            return regs_[address];
    }
}

void EmulatedMfrc522::pushFifo(std::uint8_t byte) {
    if (fifo_.size() >= 64) {
        regs_[kErrorReg] |= kBufferOvfl;
        return;
    }
    fifo_.push_back(byte);
}

void EmulatedMfrc522::writeRegister(std::uint8_t address, std::uint8_t value) {
    if (nowNs_ < resetDoneNs_) return;  // the oscillator is still starting
    switch (address) {
        case kCommandReg:
            regs_[kCommandReg] = static_cast<std::uint8_t>((value & 0x30) | (regs_[kCommandReg] & 0x0F));
            startCommand(value & 0x0F);
            break;
        case kComIrqReg:
        case kDivIrqReg:
            // Bit 7 (Set1/Set2) says whether the marked bits are set or cleared (§9.3.1.5).
            if (value & 0x80)
                regs_[address] |= value & 0x7F;
            else
                regs_[address] &= static_cast<std::uint8_t>(~value);
            break;
        case kErrorReg:
        case kStatus1Reg:
        case kVersionReg:
        case kCrcResultMsbReg:
        case kCrcResultLsbReg:
            break;  // read only
        case kFifoDataReg:
            pushFifo(value);
            break;
        case kFifoLevelReg:
            if (value & 0x80) {
                fifo_.clear();
                regs_[kErrorReg] &= static_cast<std::uint8_t>(~kBufferOvfl);
            }
            break;
        case kBitFramingReg:
            regs_[kBitFramingReg] = value & 0x7F;
            if ((value & 0x80) && (regs_[kCommandReg] & 0x0F) == kTransceive) startTransmission(true);
            break;
        case kCollReg:
            regs_[kCollReg] = static_cast<std::uint8_t>((regs_[kCollReg] & 0x7F) | (value & 0x80));
            break;
        case kTxControlReg:
            regs_[kTxControlReg] = value;
            field_.setPowered((value & 0x03) != 0);  // Tx1RFEn, Tx2RFEn
            break;
        default:
            regs_[address] = value;
            break;
    }
}

void EmulatedMfrc522::startCommand(std::uint8_t command) {
    exchange_.reset();  // any new command ends what ran (§10.3)
    auto setCommand = [&](std::uint8_t c) {
        regs_[kCommandReg] = static_cast<std::uint8_t>((regs_[kCommandReg] & 0xF0) | c);
    };
    setCommand(command);
    switch (command) {
        case kMem:
            // §10.3.1.2: 25 bytes from the FIFO into the internal buffer, or back when the FIFO is empty.
            if (fifo_.empty()) {
                for (std::uint8_t b : memBuffer_) pushFifo(b);
            } else {
                for (std::uint8_t& b : memBuffer_) {
                    b = fifo_.empty() ? 0 : fifo_.front();
                    if (!fifo_.empty()) fifo_.pop_front();
                }
            }
            setCommand(kIdle);
            regs_[kComIrqReg] |= kIdleIrq;
            break;
        case kCalcCrc: {
            // §10.3.1.4 and ModeReg CRCPreset (§9.3.2.2); the command runs until Idle.
            static constexpr std::uint16_t kPresets[] = {0x0000, 0x6363, 0xA671, 0xFFFF};
            std::vector<std::uint8_t> data(fifo_.begin(), fifo_.end());
            fifo_.clear();
            const std::uint16_t crc = crcA(data, kPresets[regs_[kModeReg] & 0x03]);
            regs_[kCrcResultMsbReg] = static_cast<std::uint8_t>(crc >> 8);
            regs_[kCrcResultLsbReg] = static_cast<std::uint8_t>(crc & 0xFF);
            regs_[kDivIrqReg] |= kCrcIrq;
            break;
        }
        case kTransmit:
            startTransmission(false);
            break;
        case kReceive:
        case kTransceive:
        case kIdle:
            break;  // Transceive sends on StartSend; Receive hears nothing no tag was asked for
        case kSoftReset:
            reset();
            resetDoneNs_ = nowNs_ + kSoftResetNs;
            break;
        default:
            setCommand(kIdle);
            break;  // GenerateRandomID, MFAuthent: not modelled
    }
}

std::int64_t EmulatedMfrc522::timerPeriodNs() const {
    // §8.5: (2 * TPrescaler + 1) * (TReload + 1) / 13.56 MHz.
    const int prescaler = ((regs_[kTModeReg] & 0x0F) << 8) | regs_[kTPrescalerReg];
    const int reload = (regs_[kTReloadHiReg] << 8) | regs_[kTReloadLoReg];
    return static_cast<std::int64_t>((2.0 * prescaler + 1.0) * (reload + 1.0) / kCarrierHz * 1e9);
}

void EmulatedMfrc522::startTransmission(bool receive) {
    const std::size_t bytes = fifo_.size();
    const int lastBits = regs_[kBitFramingReg] & 0x07;  // TxLastBits, 0 = whole byte
    const std::size_t bitCount =
        bytes == 0 ? 0 : (bytes - 1) * 8 + static_cast<std::size_t>(lastBits ? lastBits : 8);
    std::vector<std::uint8_t> data(fifo_.begin(), fifo_.end());
    fifo_.clear();
    regs_[kErrorReg] &= kBufferOvfl;
    regs_[kCollReg] = static_cast<std::uint8_t>((regs_[kCollReg] & kValuesAfterColl) | kCollPosNotValid);

    Exchange ex;
    ex.receive = receive;
    ex.rxAlign = (regs_[kBitFramingReg] >> 4) & 0x07;
    ex.txEndNs = nowNs_ + airTimeNs(bitCount);
    ex.answer = field_.carry(bitsOf(data, bitCount));
    std::optional<std::int64_t> answerStart;
    if (ex.answer) {
        answerStart = ex.txEndNs + kFrameDelayNs;
        ex.rxEndNs = *answerStart + airTimeNs(ex.answer->bits.size());
    }
    // TAuto (§9.3.3.10): the timer starts when sending ends and stops once an
    // answer's first five bits (start bit and four data bits) have arrived.
    if (regs_[kTModeReg] & 0x80) {
        const std::int64_t expiry = ex.txEndNs + timerPeriodNs();
        if (!answerStart || expiry < *answerStart + kTimerStopNs) ex.timerExpiryNs = expiry;
    }
    ++radio_.frames;
    radio_.airNs += ex.txEndNs - nowNs_;
    if (answerStart) {
        radio_.frameDelayNs += kFrameDelayNs;
        radio_.airNs += ex.rxEndNs - *answerStart;
    } else if (receive && ex.timerExpiryNs) {
        radio_.timeoutNs += *ex.timerExpiryNs - ex.txEndNs;
    }
    exchange_ = std::move(ex);
}

void EmulatedMfrc522::deliverAnswer(const Exchange& ex) {
    Bits bits = ex.answer->bits;
    if (cleanAnswers_ > 0 && !bits.empty()) {
        --cleanAnswers_;
    } else if (garbledAnswers_ > 0 && !bits.empty()) {
        --garbledAnswers_;
        if (garbleParityVisible_) {
            bits[0] ^= 1;
            regs_[kErrorReg] |= kParityErr;
        } else if (bits.size() >= 3) {
            // Two bits of the same byte as the tag sent it: its parity still holds.
            const std::size_t first = ex.rxAlign == 7 ? 1 : 0;
            bits[first] ^= 1;
            bits[first + 1] ^= 1;
        }
    }
    if (ex.answer->firstCollision) {
        const std::size_t first = *ex.answer->firstCollision;
        if (!(regs_[kCollReg] & kValuesAfterColl))
            std::fill(bits.begin() + static_cast<std::ptrdiff_t>(first), bits.end(), 0);
        regs_[kErrorReg] |= kCollErr;
        // CollPos counts from the first FIFO bit, RxAlign included; 32 reads 0 (§9.3.1.15).
        const std::size_t position = ex.rxAlign + first + 1;
        const std::uint8_t keep = regs_[kCollReg] & kValuesAfterColl;
        regs_[kCollReg] =
            static_cast<std::uint8_t>(keep | (position <= 32 ? (position & 0x1F) : kCollPosNotValid));
    }
    const std::size_t total = ex.rxAlign + bits.size();
    std::vector<std::uint8_t> bytes((total + 7) / 8, 0);
    for (std::size_t i = 0; i < bits.size(); ++i) {
        const std::size_t at = ex.rxAlign + i;
        bytes[at / 8] |= static_cast<std::uint8_t>(bits[i] << (at % 8));
    }
    for (std::uint8_t b : bytes) pushFifo(b);
    regs_[kControlReg] = static_cast<std::uint8_t>((regs_[kControlReg] & 0xF8) | (total % 8));  // RxLastBits
    regs_[kComIrqReg] |= kRxIrq;
    if (regs_[kErrorReg]) regs_[kComIrqReg] |= kErrIrq;
}

void EmulatedMfrc522::advanceTo(std::int64_t ns) {
    nowNs_ = ns;
    if (!exchange_) return;
    Exchange& ex = *exchange_;
    if (!ex.txDone && ns >= ex.txEndNs) {
        ex.txDone = true;
        regs_[kComIrqReg] |= kTxIrq;
        if (!ex.receive) {  // Transmit ends by itself (§10.3.1.5)
            regs_[kComIrqReg] |= kIdleIrq;
            regs_[kCommandReg] &= 0xF0;
            exchange_.reset();
            return;
        }
    }
    if (!ex.txDone) return;
    if (ex.timerExpiryNs && ns >= *ex.timerExpiryNs) {
        regs_[kComIrqReg] |= kTimerIrq;
        ex.timerExpiryNs.reset();
    }
    if (ex.answer && ns >= ex.rxEndNs) {
        deliverAnswer(ex);
        exchange_.reset();  // Transceive stays the command, waiting for the next StartSend
    } else if (!ex.answer && !ex.timerExpiryNs) {
        exchange_.reset();  // nobody answered and the timer has spoken
    }
}

}  // namespace vivaref::drivers::emulation
