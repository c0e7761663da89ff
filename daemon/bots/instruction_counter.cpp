#include "daemon/bots/instruction_counter.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

namespace vivaref::daemon::bots {

// glibc has no wrapper for perf_event_open: the system call by hand.
std::optional<InstructionCounter> InstructionCounter::open(std::string& why) {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    const long fd = ::syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    if (fd < 0) {
        why = std::string("no instruction counter here (perf_event_open: ") + std::strerror(errno) +
              "; a virtual machine often has none, and /proc/sys/kernel/perf_event_paranoid above 2 forbids "
              "it)";
        return std::nullopt;
    }
    ::ioctl(static_cast<int>(fd), PERF_EVENT_IOC_RESET, 0);
    ::ioctl(static_cast<int>(fd), PERF_EVENT_IOC_ENABLE, 0);
    return InstructionCounter(static_cast<int>(fd));
}

InstructionCounter::InstructionCounter(InstructionCounter&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)) {}

InstructionCounter& InstructionCounter::operator=(InstructionCounter&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
}

InstructionCounter::~InstructionCounter() {
    if (fd_ >= 0) ::close(fd_);
}

std::uint64_t InstructionCounter::read() const {
    std::uint64_t count = 0;
    if (::read(fd_, &count, sizeof count) != static_cast<ssize_t>(sizeof count)) return 0;
    return count;
}

}  // namespace vivaref::daemon::bots
