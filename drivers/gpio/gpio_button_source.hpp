// The vote stations' keys on GPIO lines: a ButtonSource whose presses come
// from the lines' edge events, debounced in software (debouncer.hpp says
// what a press is) on the kernel's timestamps.
//
// No polling: each line's event descriptor is handed to the daemon's loop,
// which watches it (Boost.Asio posix::stream_descriptor, async_wait) and
// calls readReady() when it is readable, and runs a timer to nextDeadline(),
// calling advance(). Both only read what is queued: a spurious call reads
// nothing and does nothing. Times are steady_clock's (gpio_chip.hpp). The
// descriptors stay the lines': a stream_descriptor wrapping one must
// release() it rather than close it.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "drivers/buttons/button_source.hpp"
#include "drivers/gpio/debouncer.hpp"
#include "drivers/gpio/gpio_chip.hpp"

namespace vivaref::drivers {

// One key of one station, as the configuration describes it. The defaults
// are the usual wiring: the key connects the line to ground, the line's pull-up
// holds it high otherwise.
struct ButtonLineSpec {
    StationId station;
    VoteKey key = VoteKey::Yes;
    LineAddress line;
    Polarity polarity = Polarity::ActiveLow;
    Bias bias = Bias::PullUp;
    std::chrono::milliseconds debounce{20};
};

class GpioButtonSource final : public ButtonSource {
public:
    // Requests every line for both-edge events and reads its level (a key
    // held at start-up is not a press). Throws std::system_error naming the
    // line the kernel refuses, std::invalid_argument for a (station, key)
    // given twice or a negative debounce window.
    GpioButtonSource(const std::vector<ButtonLineSpec>& specs, GpioLines& lines);
    // The same on the kernel's lines.
    explicit GpioButtonSource(const std::vector<ButtonLineSpec>& specs);

    GpioButtonSource(GpioButtonSource&&) noexcept = default;
    GpioButtonSource& operator=(GpioButtonSource&&) noexcept = default;

    // One descriptor a line, for the loop to watch.
    std::vector<int> eventDescriptors() const;

    // `fd` is readable: reads the edges queued on its line. Returns the
    // failure as a value; an fd that is not ours is ignored.
    std::optional<GpioFault> readReady(int fd);

    // The loop's timer: reads every line first (so an edge queued before
    // `now` is never overtaken), then confirms the presses stable by `now`.
    std::vector<GpioFault> advance(Timestamp now);

    // When advance() should next run; none while every key is settled.
    std::optional<Timestamp> nextDeadline() const;

    // Confirmed presses, in the order they happened.
    std::vector<ButtonEvent> takeEvents() override;

    // The keys whose debounced level is pressed now, in the order given: a
    // key held down, or one stuck (held since start-up, which is no press).
    std::vector<std::pair<StationId, VoteKey>> keysDown() const;

private:
    struct Key {
        ButtonLineSpec spec;
        std::unique_ptr<EdgeInputLine> line;
        Debouncer debouncer;
    };

    std::optional<GpioFault> readKey(Key& key);
    void record(const Key& key, std::optional<Timestamp> press);

    std::vector<Key> keys_;
    std::vector<ButtonEvent> pending_;
    std::vector<LineEdge> edges_;  // reused between reads
};

}  // namespace vivaref::drivers
