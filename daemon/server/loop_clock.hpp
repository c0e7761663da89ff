// The time the referee and the simulated castle run on, in milliseconds
// (drivers::Timestamp). `vivaref serve` uses the steady clock from its start;
// tests use a manual one and move it themselves, so the same code runs in
// virtual time.
#pragma once

#include <chrono>

#include "drivers/sensing/sensing_types.hpp"

namespace vivaref::server {

using drivers::Timestamp;

class LoopClock {
public:
    virtual ~LoopClock() = default;
    virtual Timestamp now() const = 0;
};

class SteadyLoopClock final : public LoopClock {
public:
    SteadyLoopClock() : start_(std::chrono::steady_clock::now()) {}
    Timestamp now() const override {
        return std::chrono::duration_cast<Timestamp>(std::chrono::steady_clock::now() - start_);
    }
    // The steady clock's time at this clock's 0 (a timer's expiry is startedAt() + t).
    std::chrono::steady_clock::time_point startedAt() const { return start_; }

private:
    std::chrono::steady_clock::time_point start_;
};

class ManualClock final : public LoopClock {
public:
    Timestamp now() const override { return now_; }
    void set(Timestamp t) { now_ = t; }
    void advance(Timestamp by) { now_ += by; }

private:
    Timestamp now_{0};
};

}  // namespace vivaref::server
