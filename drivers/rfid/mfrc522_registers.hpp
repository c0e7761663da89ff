// The MFRC522's registers, bits and commands that the driver uses, from the
// NXP MFRC522 data sheet (Rev. 3.9): §9.2 register overview, §9.3 register
// descriptions, §10.3 command set. There is no Debian library for this chip,
// so vivaref speaks its register protocol itself.
#pragma once

#include <cstdint>

namespace vivaref::drivers::mfrc522 {

enum class Register : std::uint8_t {
    Command = 0x01,       // §9.3.1.2: command bits 3..0, PowerDown bit 4
    ComIrq = 0x04,        // §9.3.1.5
    DivIrq = 0x05,        // §9.3.1.6
    Error = 0x06,         // §9.3.1.7
    FifoData = 0x09,      // §9.3.1.10: 64-byte FIFO
    FifoLevel = 0x0A,     // §9.3.1.11: level bits 6..0, FlushBuffer bit 7
    Control = 0x0C,       // §9.3.1.13: RxLastBits bits 2..0
    BitFraming = 0x0D,    // §9.3.1.14: StartSend bit 7, RxAlign 6..4, TxLastBits 2..0
    Coll = 0x0E,          // §9.3.1.15: ValuesAfterColl bit 7, CollPosNotValid bit 5, CollPos 4..0
    Mode = 0x11,          // §9.3.2.2: CRCPreset bits 1..0
    TxControl = 0x14,     // §9.3.2.5: Tx2RFEn bit 1, Tx1RFEn bit 0
    TxAsk = 0x15,         // §9.3.2.6: Force100ASK bit 6
    CrcResultMsb = 0x21,  // §9.3.3.2
    CrcResultLsb = 0x22,
    TMode = 0x2A,       // §9.3.3.10: TAuto bit 7, TPrescaler_Hi bits 3..0
    TPrescaler = 0x2B,  // §9.3.3.11: TPrescaler_Lo
    TReloadHi = 0x2C,   // §9.3.3.12
    TReloadLo = 0x2D,
    Version = 0x37,  // §9.3.4.8
};

// §10.3: CommandReg command codes.
enum class Command : std::uint8_t {
    Idle = 0x0,
    CalcCrc = 0x3,
    Transmit = 0x4,
    Transceive = 0xC,
    SoftReset = 0xF,
};

namespace bits {
inline constexpr std::uint8_t kPowerDown = 0x10;  // CommandReg: set while the soft reset runs

inline constexpr std::uint8_t kTxIrq = 0x40;  // ComIrqReg
inline constexpr std::uint8_t kRxIrq = 0x20;
inline constexpr std::uint8_t kIdleIrq = 0x10;
inline constexpr std::uint8_t kErrIrq = 0x02;
inline constexpr std::uint8_t kTimerIrq = 0x01;
inline constexpr std::uint8_t kAllComIrqs = 0x7F;  // written with Set1 = 0: clears them all

inline constexpr std::uint8_t kCrcIrq = 0x04;  // DivIrqReg

inline constexpr std::uint8_t kTempErr = 0x40;  // ErrorReg
inline constexpr std::uint8_t kBufferOvfl = 0x10;
inline constexpr std::uint8_t kCollErr = 0x08;
inline constexpr std::uint8_t kCrcErr = 0x04;
inline constexpr std::uint8_t kParityErr = 0x02;
inline constexpr std::uint8_t kProtocolErr = 0x01;

inline constexpr std::uint8_t kFlushBuffer = 0x80;      // FIFOLevelReg
inline constexpr std::uint8_t kStartSend = 0x80;        // BitFramingReg
inline constexpr std::uint8_t kCollPosNotValid = 0x20;  // CollReg
inline constexpr std::uint8_t kAntennaBothPins = 0x03;  // TxControlReg: TX1 and TX2 drive the antenna
inline constexpr std::uint8_t kTxControlReset = 0x80;   // TxControlReg reset value (§9.3.2.5)
inline constexpr std::uint8_t kForce100Ask = 0x40;      // TxASKReg: ISO/IEC 14443-A needs 100 % ASK
inline constexpr std::uint8_t kCrcPreset6363 = 0x3D;    // ModeReg: reset value 0x3F with CRCPreset = 01
inline constexpr std::uint8_t kTAuto = 0x80;  // TModeReg: timer starts at the end of each transmission
}  // namespace bits

// §8.1.2.3: the SPI address byte; bit 7 reads, bits 6..1 the address, bit 0 zero.
inline constexpr std::uint8_t readAddress(Register r) {
    return static_cast<std::uint8_t>(0x80 | (static_cast<std::uint8_t>(r) << 1));
}
inline constexpr std::uint8_t writeAddress(Register r) {
    return static_cast<std::uint8_t>(static_cast<std::uint8_t>(r) << 1);
}

// §9.3.4.8: VersionReg of genuine chips (1.0, 2.0) and of the clones sold on
// cheap RC522 boards (0x88 FM17522, 0x12 a counterfeit); they speak the same protocol.
inline constexpr bool isKnownVersion(std::uint8_t v) {
    return v == 0x91 || v == 0x92 || v == 0x88 || v == 0x12;
}

// §8.5: the timer ticks at 13.56 MHz / (2 * TPrescaler + 1).
inline constexpr double kCarrierHz = 13.56e6;

}  // namespace vivaref::drivers::mfrc522
