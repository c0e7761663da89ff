// A TagReader on an NXP PN532 through libnfc (Debian's libnfc-dev, 1.8),
// which already speaks that chip over UART, SPI and I2C: the connection
// string comes from the castle's configuration ("pn532_uart:/dev/ttyS0",
// "pn532_uart:/dev/ttyUSB0:115200", "pn532_spi:/dev/spidev0.0",
// "pn532_i2c:/dev/i2c-1").
//
// What the PN532 path supports:
// - ISO/IEC 14443-A tags at 106 kbit/s with 4-, 7- and 10-byte UIDs; only the
//   UIDs are read (no RATS: libnfc's automatic ISO 14443-4 switch is off).
// - Every tag in the field, up to kMaxTagsPerScan: libnfc lists one target per
//   InListPassiveTarget (MaxTg = 1) and sends InDeselect after each, stopping
//   when no tag answers or a tag it already has answers again. The chip itself
//   holds at most two activated targets at once (InListPassiveTarget's MaxTg is
//   1 or 2), so a floor with 3 or 4 tags is fully listed only because each
//   deselected tag stays quiet for the following REQA; a tag that came back
//   anyway would end the listing early, and the missed tags would come with the
//   next field cycle (the sensing pipeline's majority over K scans absorbs it).
//   Our fake PN532 (tests/drivers/fake_pn532.hpp) models exactly that; check a
//   real reader with 3 or 4 tags on it with `nfc-list -t 1`.
// - The field on and off (RFConfiguration), so that only one reader of the
//   castle radiates at a time, as for the MFRC522s.
// Every wait is bounded: libnfc's command timeout (config.commandTimeout) for
// the field and the other short commands, libnfc 1.8's own 300 ms for each
// InListPassiveTarget, 0.5 to 1 s for the hand-shake when the device opens.
// libnfc checks each frame (start code, length and data checksums, TFI,
// command code) and reports a mangled one; it trusts the content of a frame
// that passes those checks (target lengths), which a real chip gets right.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "drivers/rfid/tag_reader.hpp"

// libnfc's handles, kept out of this header so that only pn532_reader.cpp sees <nfc/nfc.h>.
struct nfc_context;
struct nfc_device;

namespace vivaref::drivers {

struct Pn532ReaderConfig {
    std::string name;        // the reader's name in the configuration and the logs
    std::string connection;  // a libnfc connection string
    // libnfc's limit for the chip's ACK and answer to each short command
    // (NP_TIMEOUT_COMMAND). A PN532 answers within a few milliseconds at 115200 baud.
    std::chrono::milliseconds commandTimeout{100};
};

class Pn532Reader final : public TagReader {
public:
    // A floor holds at most four characters; more in one scan is reported as garbage.
    static constexpr std::size_t kMaxTagsPerScan = 8;

    // No I/O: initialize() opens the device.
    explicit Pn532Reader(Pn532ReaderConfig config);
    ~Pn532Reader() override;
    Pn532Reader(const Pn532Reader&) = delete;
    Pn532Reader& operator=(const Pn532Reader&) = delete;

    // Opens the device (libnfc's hand-shake: wake-up, SAMConfiguration,
    // Diagnose, GetFirmwareVersion), makes it an initiator and switches the field
    // off. At start-up, and again after the chip stopped answering: it closes
    // whatever was open first.
    std::optional<ScanError> initialize();
    bool isOpen() const { return device_ != nullptr; }
    // The chip and firmware the last initialize() read (GetFirmwareVersion),
    // as libnfc words them: "PN532 v1.6"; empty while closed.
    const std::string& firmware() const { return firmware_; }

    const std::string& name() const override { return config_.name; }
    std::error_code antennaOn() override;
    std::error_code antennaOff() override;
    ScanResult scan() override;

    // The error of the last antennaOn()/antennaOff() that failed, for the log.
    const std::optional<ScanError>& lastAntennaError() const { return antennaError_; }

private:
    struct ContextCloser {
        void operator()(nfc_context* context) const;
    };
    struct DeviceCloser {
        void operator()(nfc_device* device) const;
    };

    ScanError failure(ScanErrorKind kind, const std::string& what) const;
    ScanError libnfcFailure(int code, const std::string& doing) const;
    std::error_code setField(bool on);

    Pn532ReaderConfig config_;
    // Declared in this order so that the device closes before its context.
    std::unique_ptr<nfc_context, ContextCloser> context_;
    std::unique_ptr<nfc_device, DeviceCloser> device_;
    bool antennaOn_ = false;
    std::optional<ScanError> antennaError_;
    std::string firmware_;
};

}  // namespace vivaref::drivers
