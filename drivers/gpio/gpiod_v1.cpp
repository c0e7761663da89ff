// GpioLines for libgpiod 1.x (Debian 12's 1.6): the only file that includes
// <gpiod.h>. See gpio_chip.hpp for the version split.
#include <fcntl.h>
#include <gpiod.h>

#include <array>
#include <cerrno>
#include <map>
#include <memory>
#include <system_error>

#include "drivers/gpio/gpio_chip.hpp"

namespace vivaref::drivers {
namespace {

struct ChipCloser {
    void operator()(gpiod_chip* chip) const { gpiod_chip_close(chip); }
};
struct LineReleaser {
    void operator()(gpiod_line* line) const { gpiod_line_release(line); }
};
// A chip stays open while any line requested from it lives.
using ChipHandle = std::shared_ptr<gpiod_chip>;
using LineHandle = std::unique_ptr<gpiod_line, LineReleaser>;

std::error_code lastError() { return {errno, std::generic_category()}; }

// A requested line and the chip it belongs to: the members' order releases
// the line before the chip can close.
struct RequestedLine {
    ChipHandle chip;
    LineHandle line;
};

int polarityFlags(Polarity polarity) {
    return polarity == Polarity::ActiveLow ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
}

int biasFlags(Bias bias) {
    switch (bias) {
        case Bias::AsIs:
            return 0;
        case Bias::Disabled:
            return GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
        case Bias::PullUp:
            return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
        case Bias::PullDown:
            return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
    }
    return 0;
}

Timestamp timestampOf(const timespec& ts) {
    return std::chrono::duration_cast<Timestamp>(std::chrono::seconds(ts.tv_sec) +
                                                 std::chrono::nanoseconds(ts.tv_nsec));
}

class V1EdgeInputLine final : public EdgeInputLine {
public:
    explicit V1EdgeInputLine(RequestedLine line, int fd) : line_(std::move(line)), fd_(fd) {}

    int eventDescriptor() const override { return fd_; }

    std::error_code readEdges(std::vector<LineEdge>& edges) override {
        // The kernel queues at most 16 events a line (GPIO uAPI v1).
        std::array<gpiod_line_event, 16> events{};
        for (;;) {
            const int count = gpiod_line_event_read_fd_multiple(fd_, events.data(), events.size());
            if (count < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK) return {};
                return lastError();
            }
            // With both edges requested, the kernel reports the level the
            // line read after the edge, active-low applied: rising = active.
            for (int i = 0; i < count; ++i) {
                edges.push_back(
                    {events[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE, timestampOf(events[i].ts)});
            }
            if (count < static_cast<int>(events.size())) return {};
        }
    }

    std::error_code readLevel(bool& active) override {
        const int value = gpiod_line_get_value(line_.line.get());
        if (value < 0) return lastError();
        active = value == 1;
        return {};
    }

private:
    RequestedLine line_;
    int fd_;  // owned by the request: closed when the line is released
};

class V1OutputLine final : public OutputLine {
public:
    explicit V1OutputLine(RequestedLine line) : line_(std::move(line)) {}

    std::error_code write(bool active) override {
        if (gpiod_line_set_value(line_.line.get(), active ? 1 : 0) < 0) return lastError();
        return {};
    }

private:
    RequestedLine line_;
};

class V1GpioLines final : public GpioLines {
public:
    explicit V1GpioLines(std::string consumer) : consumer_(std::move(consumer)) {}

    std::unique_ptr<EdgeInputLine> requestEdges(const LineAddress& address, Polarity polarity,
                                                Bias bias) override {
        auto [chip, line] = findLine(address);
        gpiod_line_request_config config{};
        config.consumer = consumer_.c_str();
        config.request_type = GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES;
        config.flags = polarityFlags(polarity) | biasFlags(bias);
        if (gpiod_line_request(line, &config, 0) < 0) throwRefused(address, line, "as a button input");
        RequestedLine requested{std::move(chip), LineHandle(line)};

        const int fd = gpiod_line_event_get_fd(line);
        if (fd < 0) throwFor(address, "has no event descriptor");
        // Reading must never block the loop: a spurious wake-up finds EAGAIN.
        const int flags = ::fcntl(fd, F_GETFL);
        if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
            throwFor(address, "cannot make its event descriptor non-blocking");
        }
        return std::make_unique<V1EdgeInputLine>(std::move(requested), fd);
    }

    std::unique_ptr<OutputLine> requestOutput(const LineAddress& address, Polarity polarity,
                                              bool initiallyActive) override {
        auto [chip, line] = findLine(address);
        if (gpiod_line_request_output_flags(line, consumer_.c_str(), polarityFlags(polarity),
                                            initiallyActive ? 1 : 0) < 0) {
            throwRefused(address, line, "as an output");
        }
        return std::make_unique<V1OutputLine>(RequestedLine{std::move(chip), LineHandle(line)});
    }

private:
    [[noreturn]] static void throwFor(const LineAddress& address, const std::string& what) {
        throw std::system_error(lastError(), describeLine(address) + ": " + what);
    }

    [[noreturn]] static void throwRefused(const LineAddress& address, gpiod_line* line, const char* as) {
        const int error = errno;
        std::string what = std::string("cannot request it ") + as;
        if (error == EBUSY) {
            const char* holder = gpiod_line_consumer(line);
            what += std::string(": already in use") + (holder ? std::string(" by ") + holder : "");
        }
        throw std::system_error(error, std::generic_category(), describeLine(address) + ": " + what);
    }

    std::pair<ChipHandle, gpiod_line*> findLine(const LineAddress& address) {
        ChipHandle chip;
        if (auto it = chips_.find(address.chip.name); it != chips_.end()) {
            chip = it->second;
        } else {
            gpiod_chip* opened = gpiod_chip_open_lookup(address.chip.name.c_str());
            if (!opened) {
                throw std::system_error(lastError(), "GPIO chip '" + address.chip.name + "': cannot open it");
            }
            chip = ChipHandle(opened, ChipCloser());
            chips_.emplace(address.chip.name, chip);
        }
        const unsigned lineCount = gpiod_chip_num_lines(chip.get());
        if (address.offset.value >= lineCount) {
            throw std::system_error(
                std::make_error_code(std::errc::invalid_argument),
                describeLine(address) + ": no such line (the chip has " + std::to_string(lineCount) + ")");
        }
        gpiod_line* line = gpiod_chip_get_line(chip.get(), address.offset.value);
        if (!line) throwFor(address, "cannot get the line");
        return {chip, line};
    }

    std::string consumer_;
    // Each chip opened once; lines keep their chip open after this goes.
    std::map<std::string, ChipHandle> chips_;
};

}  // namespace

std::unique_ptr<GpioLines> kernelGpioLines(std::string consumer) {
    return std::make_unique<V1GpioLines>(std::move(consumer));
}

}  // namespace vivaref::drivers
