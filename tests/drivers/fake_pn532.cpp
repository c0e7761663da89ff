#include "tests/drivers/fake_pn532.hpp"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>

namespace vivaref::drivers::emulation {
namespace {

// PN532 user manual §6.2.1: the host-to-chip and chip-to-host frame identifiers.
constexpr std::uint8_t kHostToChip = 0xD4;
constexpr std::uint8_t kChipToHost = 0xD5;
const std::vector<std::uint8_t> kAck = {0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00};
// §6.2.1.5: the syntax-error frame, for commands the fake does not know.
const std::vector<std::uint8_t> kSyntaxError = {0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00};

// §7.2: command codes.
enum Command : std::uint8_t {
    kDiagnose = 0x00,
    kGetFirmwareVersion = 0x02,
    kReadRegister = 0x06,
    kWriteRegister = 0x08,
    kSetParameters = 0x12,
    kSamConfiguration = 0x14,
    kPowerDown = 0x16,
    kRfConfiguration = 0x32,
    kInDeselect = 0x44,
    kInListPassiveTarget = 0x4A,
    kInRelease = 0x52,
};

// GetFirmwareVersion: IC 0x32 (PN532), firmware 1.6, ISO 14443-A, -B and ISO 18092 supported.
const std::vector<std::uint8_t> kFirmware = {0x32, 0x01, 0x06, 0x07};

std::vector<std::uint8_t> frame(std::uint8_t command, const std::vector<std::uint8_t>& data) {
    std::vector<std::uint8_t> body = {kChipToHost, static_cast<std::uint8_t>(command + 1)};
    body.insert(body.end(), data.begin(), data.end());
    const auto length = static_cast<std::uint8_t>(body.size());
    std::vector<std::uint8_t> out = {0x00, 0x00, 0xFF, length, static_cast<std::uint8_t>(0x100 - length)};
    out.insert(out.end(), body.begin(), body.end());
    const auto sum = std::accumulate(body.begin(), body.end(), 0u);
    out.push_back(static_cast<std::uint8_t>(0x100 - (sum & 0xFF)));
    out.push_back(0x00);
    return out;
}

}  // namespace

std::unique_ptr<FakePn532> FakePn532::open(std::string& why) {
    FileDescriptor master(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
    if (!master) {
        why = std::string("posix_openpt: ") + std::strerror(errno);
        return nullptr;
    }
    if (::grantpt(master.get()) != 0 || ::unlockpt(master.get()) != 0) {
        why = std::string("grantpt/unlockpt: ") + std::strerror(errno);
        return nullptr;
    }
    char path[128];
    if (::ptsname_r(master.get(), path, sizeof path) != 0) {
        why = std::string("ptsname_r: ") + std::strerror(errno);
        return nullptr;
    }
    FileDescriptor slave(::open(path, O_RDWR | O_NOCTTY | O_CLOEXEC));
    if (!slave) {
        why = std::string("open ") + path + ": " + std::strerror(errno);
        return nullptr;
    }
    // Raw from the start: no echo of what libnfc writes before it sets its own modes.
    termios modes{};
    if (::tcgetattr(slave.get(), &modes) == 0) {
        ::cfmakeraw(&modes);
        ::tcsetattr(slave.get(), TCSANOW, &modes);
    }
    int stop[2];
    if (::pipe2(stop, O_CLOEXEC) != 0) {
        why = std::string("pipe2: ") + std::strerror(errno);
        return nullptr;
    }
    return std::unique_ptr<FakePn532>(new FakePn532(std::move(master), std::move(slave), path,
                                                    FileDescriptor(stop[0]), FileDescriptor(stop[1])));
}

FakePn532::FakePn532(FileDescriptor master, FileDescriptor slave, std::string slavePath,
                     FileDescriptor stopRead, FileDescriptor stopWrite)
    : master_(std::move(master)),
      slave_(std::move(slave)),
      slavePath_(std::move(slavePath)),
      stopRead_(std::move(stopRead)),
      stopWrite_(std::move(stopWrite)) {
    thread_ = std::thread([this] { run(); });
}

FakePn532::~FakePn532() {
    const char byte = 0;
    [[maybe_unused]] auto written = ::write(stopWrite_.get(), &byte, 1);
    thread_.join();
}

void FakePn532::place(FakeTag tag) {
    std::lock_guard lock(mutex_);
    field_.push_back(Tag{std::move(tag)});
    std::sort(field_.begin(), field_.end(), [](const Tag& a, const Tag& b) { return a.tag.uid < b.tag.uid; });
}

void FakePn532::remove(const std::vector<std::uint8_t>& uid) {
    std::lock_guard lock(mutex_);
    std::erase_if(field_, [&](const Tag& t) { return t.tag.uid == uid; });
}

void FakePn532::setFault(Fault fault, int afterCommands) {
    std::lock_guard lock(mutex_);
    fault_ = fault;
    faultAfter_ = afterCommands;
}

std::vector<std::uint8_t> FakePn532::commands() const {
    std::lock_guard lock(mutex_);
    return commands_;
}

bool FakePn532::fieldOn() const {
    std::lock_guard lock(mutex_);
    return fieldOn_;
}

void FakePn532::run() {
    for (;;) {
        pollfd fds[] = {{master_.get(), POLLIN, 0}, {stopRead_.get(), POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            return;
        }
        if (fds[1].revents) return;
        if (fds[0].revents & (POLLERR | POLLNVAL)) return;
        if (!(fds[0].revents & POLLIN)) continue;  // a hang-up with no data: wait for the next open
        std::uint8_t buffer[512];
        const ssize_t n = ::read(master_.get(), buffer, sizeof buffer);
        if (n <= 0) continue;
        std::lock_guard lock(mutex_);
        input_.insert(input_.end(), buffer, buffer + n);
        consume();
    }
}

void FakePn532::send(const std::vector<std::uint8_t>& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(master_.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += static_cast<std::size_t>(n);
    }
}

// Takes every complete frame out of input_ and answers it (mutex_ held).
void FakePn532::consume() {
    for (;;) {
        // Wake-up bytes (0x55), preambles and anything else before a start code are skipped.
        std::size_t start = 0;
        while (start + 1 < input_.size() && !(input_[start] == 0x00 && input_[start + 1] == 0xFF)) ++start;
        input_.erase(input_.begin(), input_.begin() + static_cast<std::ptrdiff_t>(start));
        if (input_.size() < 4) return;
        const std::uint8_t length = input_[2], lengthCheck = input_[3];
        if (length == 0x00 && lengthCheck == 0xFF) {  // the host's ACK (it aborts a command): nothing to say
            input_.erase(input_.begin(), input_.begin() + 4);
            continue;
        }
        if (static_cast<std::uint8_t>(length + lengthCheck) != 0 || length < 2) {
            input_.erase(input_.begin(), input_.begin() + 2);  // not a frame after all: look further
            continue;
        }
        if (input_.size() < 4u + length + 1u) return;
        const std::vector<std::uint8_t> body(input_.begin() + 4, input_.begin() + 4 + length);
        const std::uint8_t dataCheck = input_[4u + length];
        input_.erase(input_.begin(), input_.begin() + 4 + length + 1);
        const auto sum = std::accumulate(body.begin(), body.end(), 0u) + dataCheck;
        if (body[0] != kHostToChip || (sum & 0xFF) != 0) continue;  // a real chip ignores a bad frame too
        answer(body[1], std::vector<std::uint8_t>(body.begin() + 2, body.end()));
    }
}

void FakePn532::answer(std::uint8_t command, const std::vector<std::uint8_t>& params) {
    commands_.push_back(command);
    if (fault_ != Fault::None && faultAfter_-- <= 0) {
        if (fault_ == Fault::Silent) return;
        // An ACK, then bytes that cannot start a frame (no 00 00 FF), different each time.
        send(kAck);
        std::vector<std::uint8_t> garbage = {0xA5};
        for (int i = 0; i < 11; ++i) {
            garbageSeed_ = garbageSeed_ * 1103515245u + 12345u;
            garbage.push_back(static_cast<std::uint8_t>(garbageSeed_ >> 16));
        }
        send(garbage);
        return;
    }
    send(kAck);
    std::vector<std::uint8_t> data;
    switch (command) {
        case kDiagnose:  // test 0x00, "communication line test": the parameters come back
            data = params;
            break;
        case kGetFirmwareVersion:
            data = kFirmware;
            break;
        case kReadRegister:  // 16-bit addresses in, one value each out: the fake's registers read 0
            data.assign(params.size() / 2, 0x00);
            break;
        case kWriteRegister:
        case kSetParameters:
        case kSamConfiguration:
            break;
        case kRfConfiguration:
            // §7.3.1: item 0x01 "RF field", bit 0 of its value switches the field.
            if (params.size() >= 2 && params[0] == 0x01) {
                const bool on = (params[1] & 0x01) != 0;
                if (!on) {
                    for (Tag& t : field_) t.active = t.halted = false;  // unpowered, they forget
                }
                fieldOn_ = on;
            }
            break;
        case kInListPassiveTarget:
            if (params.size() < 2) {
                send(kSyntaxError);
                return;
            }
            data = listTargets(params[0], params[1]);
            break;
        case kInDeselect:
        case kInRelease:
            for (Tag& t : field_) {
                if (t.active) t.halted = true;
                t.active = false;
            }
            data = {0x00};  // status: success
            break;
        case kPowerDown:
            data = {0x00};
            break;
        default:
            send(kSyntaxError);
            return;
    }
    send(frame(command, data));
}

std::vector<std::uint8_t> FakePn532::listTargets(std::uint8_t maxTargets, std::uint8_t baudRate) {
    // The chip switches its field on to poll; a tag still active from an earlier
    // listing takes the REQA as out of sequence and drops back to IDLE (ISO/IEC 14443-3 §6.3).
    fieldOn_ = true;
    for (Tag& t : field_) t.active = false;
    std::vector<std::uint8_t> data = {0x00};  // NbTg
    if (baudRate != 0x00) return data;        // only 106 kbit/s type A here
    std::uint8_t number = 0;
    for (Tag& t : field_) {
        if (number >= std::min<std::uint8_t>(maxTargets, 2)) break;
        if (t.halted) continue;
        t.active = true;
        ++number;
        // Tg, SENS_RES (ATQA: UID size in bits 7-6 of its second byte), SEL_RES (SAK), NFCIDLength, NFCID1.
        const std::uint8_t uidSize = t.tag.uid.size() == 4 ? 0x00 : t.tag.uid.size() == 7 ? 0x40 : 0x80;
        data.insert(data.end(), {number, 0x00, static_cast<std::uint8_t>(0x04 | uidSize), t.tag.sak,
                                 static_cast<std::uint8_t>(t.tag.uid.size())});
        data.insert(data.end(), t.tag.uid.begin(), t.tag.uid.end());
    }
    data[0] = number;
    return data;
}

}  // namespace vivaref::drivers::emulation
