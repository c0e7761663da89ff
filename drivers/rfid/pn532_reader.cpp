#include "drivers/rfid/pn532_reader.hpp"

#include <array>
#include <span>

#include <nfc/nfc.h>

namespace vivaref::drivers {
namespace {

// libnfc's error codes (nfc.h) as std::error_code, for antennaOn()/antennaOff().
class LibnfcCategory final : public std::error_category {
public:
    const char* name() const noexcept override { return "libnfc"; }
    std::string message(int code) const override {
        switch (-code) {
            case -NFC_EIO:
                return "garbled frame or failed serial line";
            case -NFC_EINVARG:
                return "invalid argument";
            case -NFC_EDEVNOTSUPP:
                return "operation not supported by the device";
            case -NFC_ENOTSUCHDEV:
                return "no such device";
            case -NFC_EOVFLOW:
                return "buffer overflow";
            case -NFC_ETIMEOUT:
                return "the chip did not answer in time";
            case -NFC_EOPABORTED:
                return "operation aborted";
            case -NFC_ENOTIMPL:
                return "not implemented by libnfc";
            case -NFC_ETGRELEASED:
                return "target released";
            case -NFC_ERFTRANS:
                return "radio transmission error";
            case -NFC_ECHIP:
                return "the chip reports an error";
            case -NFC_ESOFT:
                return "libnfc internal error";
            default:
                return "libnfc error " + std::to_string(code);
        }
    }
};

const std::error_category& libnfcCategory() {
    static const LibnfcCategory category;
    return category;
}

// libnfc codes are negative; std::error_code's 0 means success.
std::error_code libnfcError(int code) { return {-code, libnfcCategory()}; }

ScanErrorKind kindOf(int code) {
    switch (code) {
        case NFC_ETIMEOUT:
        case NFC_EOPABORTED:
        case NFC_ENOTSUCHDEV:
            return ScanErrorKind::NoAnswer;
        case NFC_EIO:  // a frame that fails libnfc's checks, or a read() that fails
        case NFC_ECHIP:
        case NFC_ERFTRANS:
        case NFC_EOVFLOW:
            return ScanErrorKind::Protocol;
        default:
            return ScanErrorKind::Bus;
    }
}

constexpr nfc_modulation kIso14443a{NMT_ISO14443A, NBR_106};

}  // namespace

void Pn532Reader::ContextCloser::operator()(nfc_context* context) const { nfc_exit(context); }
// nfc_close releases the target and puts the chip to sleep (InRelease, PowerDown), bounded by the command
// timeout.
void Pn532Reader::DeviceCloser::operator()(nfc_device* device) const { nfc_close(device); }

Pn532Reader::Pn532Reader(Pn532ReaderConfig config) : config_(std::move(config)) {}

Pn532Reader::~Pn532Reader() = default;

ScanError Pn532Reader::failure(ScanErrorKind kind, const std::string& what) const {
    return ScanError{kind, "reader " + config_.name + " (" + config_.connection + "): " + what};
}

ScanError Pn532Reader::libnfcFailure(int code, const std::string& doing) const {
    return failure(kindOf(code), doing + ": " + libnfcCategory().message(-code));
}

namespace {

// libnfc's description of an open PN53x starts "chip: PN532 v1.6" (its
// answer to GetFirmwareVersion in the hand-shake).
std::string firmwareOf(nfc_device* device) {
    char* text = nullptr;
    if (nfc_device_get_information_about(device, &text) < 0 || !text) return {};
    const std::string about(text);
    nfc_free(text);
    const auto start = about.find("chip: ");
    if (start == std::string::npos) return {};
    const auto end = about.find('\n', start);
    return about.substr(start + 6, end == std::string::npos ? std::string::npos : end - start - 6);
}

}  // namespace

std::optional<ScanError> Pn532Reader::initialize() {
    device_.reset();
    firmware_.clear();
    antennaOn_ = false;
    if (!context_) {
        nfc_context* context = nullptr;
        nfc_init(&context);
        if (!context) return failure(ScanErrorKind::Bus, "libnfc cannot start (nfc_init failed)");
        context_.reset(context);
    }
    nfc_connstring connection{};
    if (config_.connection.empty() || config_.connection.size() >= sizeof connection) {
        return failure(ScanErrorKind::Bus, "the connection string is empty or longer than libnfc takes (" +
                                               std::to_string(sizeof connection - 1) + " characters)");
    }
    config_.connection.copy(connection, sizeof connection - 1);
    device_.reset(nfc_open(context_.get(), connection));
    if (!device_) {
        // libnfc says no more than NULL: the port cannot be opened, or nothing answers its hand-shake.
        return failure(ScanErrorKind::NoAnswer,
                       "cannot open the device (no such port, port in use, unknown driver, or no PN532 "
                       "answering on it)");
    }
    if (int code = nfc_initiator_init(device_.get()); code < 0) {
        const ScanError error = libnfcFailure(code, "making the chip an initiator");
        device_.reset();
        return error;
    }
    const std::pair<nfc_property, bool> flags[] = {
        // One REQA per InListPassiveTarget instead of retrying for ever.
        {NP_INFINITE_SELECT, false},
        // UIDs are all we need: no RATS to ISO 14443-4 tags.
        {NP_AUTO_ISO14443_4, false},
        {NP_ACTIVATE_FIELD, false},
    };
    if (int code = nfc_device_set_property_int(device_.get(), NP_TIMEOUT_COMMAND,
                                               static_cast<int>(config_.commandTimeout.count()));
        code < 0) {
        const ScanError error = libnfcFailure(code, "setting the command timeout");
        device_.reset();
        return error;
    }
    for (const auto& [property, value] : flags) {
        if (int code = nfc_device_set_property_bool(device_.get(), property, value); code < 0) {
            const ScanError error = libnfcFailure(code, "configuring the chip");
            device_.reset();
            return error;
        }
    }
    firmware_ = firmwareOf(device_.get());
    return std::nullopt;
}

std::error_code Pn532Reader::setField(bool on) {
    antennaError_.reset();
    if (!device_) {
        antennaError_ = failure(ScanErrorKind::NoAnswer, "the device is not open");
        return std::make_error_code(std::errc::no_such_device);
    }
    if (int code = nfc_device_set_property_bool(device_.get(), NP_ACTIVATE_FIELD, on); code < 0) {
        antennaError_ = libnfcFailure(code, on ? "switching the field on" : "switching the field off");
        return libnfcError(code);
    }
    return {};
}

std::error_code Pn532Reader::antennaOn() {
    auto ec = setField(true);
    antennaOn_ = !ec;
    return ec;
}

std::error_code Pn532Reader::antennaOff() {
    antennaOn_ = false;
    return setField(false);
}

ScanResult Pn532Reader::scan() {
    if (!device_) return failure(ScanErrorKind::NoAnswer, "the device is not open");
    if (!antennaOn_) return failure(ScanErrorKind::AntennaOff, "scan with the antenna off");

    // One slot more than a floor may hold, so that "too many" can be told from "just enough".
    std::array<nfc_target, kMaxTagsPerScan + 1> targets{};
    const int found =
        nfc_initiator_list_passive_targets(device_.get(), kIso14443a, targets.data(), targets.size());
    if (found < 0) return libnfcFailure(found, "listing the tags");
    // The listing stops at the first InListPassiveTarget that fails and returns
    // what it had; the failure stays in the device's last error.
    if (int code = nfc_device_get_last_error(device_.get()); code < 0) {
        return libnfcFailure(code, "listing the tags");
    }
    if (static_cast<std::size_t>(found) > kMaxTagsPerScan) {
        return failure(ScanErrorKind::Protocol,
                       "more than " + std::to_string(kMaxTagsPerScan) + " tags in one field");
    }

    TagSet tags;
    for (const nfc_target& target : std::span(targets.data(), static_cast<std::size_t>(found))) {
        const nfc_iso14443a_info& info = target.nti.nai;
        if (target.nm.nmt != NMT_ISO14443A || !TagUid::isValidSize(info.szUidLen) ||
            info.szUidLen > sizeof info.abtUid) {
            return failure(ScanErrorKind::Protocol,
                           "a target with a UID of " + std::to_string(info.szUidLen) + " bytes");
        }
        tags.insert(TagUid(std::span<const std::uint8_t>(info.abtUid, info.szUidLen)));
    }
    return tags;
}

}  // namespace vivaref::drivers
