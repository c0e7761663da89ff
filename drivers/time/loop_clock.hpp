// The time the table and its castle run on, in milliseconds (Timestamp).
// `vivaref serve` uses the steady clock from its start; tests use a manual
// one and move it themselves, so the same code runs in virtual time.
#pragma once

#include <chrono>

#include "drivers/time/timestamp.hpp"

namespace vivaref::drivers {

class LoopClock {
public:
    virtual ~LoopClock() = default;
    virtual Timestamp now() const = 0;
    // The same time in microseconds, for the readers' radio waits (a tag's
    // 5.1 ms power-up would round to 6 ms on the millisecond clock).
    virtual std::chrono::microseconds nowMicros() const { return now(); }
};

class SteadyLoopClock final : public LoopClock {
public:
    SteadyLoopClock() : start_(std::chrono::steady_clock::now()) {}
    Timestamp now() const override { return std::chrono::floor<Timestamp>(nowMicros()); }
    std::chrono::microseconds nowMicros() const override {
        return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                                     start_);
    }
    // The steady clock's time at this clock's 0 (a timer's expiry is startedAt() + t).
    std::chrono::steady_clock::time_point startedAt() const { return start_; }

private:
    std::chrono::steady_clock::time_point start_;
};

class ManualClock final : public LoopClock {
public:
    Timestamp now() const override { return std::chrono::floor<Timestamp>(now_); }
    std::chrono::microseconds nowMicros() const override { return now_; }
    void set(std::chrono::microseconds t) { now_ = t; }
    void advance(std::chrono::microseconds by) { now_ += by; }

private:
    std::chrono::microseconds now_{0};
};

}  // namespace vivaref::drivers
