#include "drivers/gpio/debouncer.hpp"

#include <algorithm>

namespace vivaref::drivers {

Debouncer::Debouncer(std::chrono::milliseconds window, bool initiallyActive)
    : window_(window), settled_(initiallyActive), level_(initiallyActive) {}

std::optional<Timestamp> Debouncer::edge(Timestamp at, bool active) {
    at = std::max(at, since_);
    std::optional<Timestamp> press = settle(at);
    level_ = active;
    since_ = at;
    return press;
}

std::optional<Timestamp> Debouncer::advance(Timestamp now) { return settle(now); }

std::optional<Timestamp> Debouncer::deadline() const {
    if (level_ == settled_) return std::nullopt;
    return since_ + window_;
}

std::optional<Timestamp> Debouncer::settle(Timestamp now) {
    if (level_ == settled_ || now - since_ < window_) return std::nullopt;
    settled_ = level_;
    if (settled_) return since_;
    return std::nullopt;
}

}  // namespace vivaref::drivers
