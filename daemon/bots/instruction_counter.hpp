// Instructions retired by this thread in user space, from the kernel's
// performance counters (perf_event_open): the figure that carries from
// this machine to a Raspberry Pi, where time does not. Virtual machines
// and locked-down kernels often have no such counter: open() then says why.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace vivaref::daemon::bots {

class InstructionCounter {
public:
    // A counter for the calling thread, or nothing with `why` set.
    static std::optional<InstructionCounter> open(std::string& why);
    InstructionCounter(InstructionCounter&& other) noexcept;
    InstructionCounter& operator=(InstructionCounter&& other) noexcept;
    InstructionCounter(const InstructionCounter&) = delete;
    InstructionCounter& operator=(const InstructionCounter&) = delete;
    ~InstructionCounter();

    // Instructions since open().
    std::uint64_t read() const;

private:
    explicit InstructionCounter(int fd) : fd_(fd) {}
    int fd_ = -1;
};

}  // namespace vivaref::daemon::bots
