// GPIO lines as vivaref uses them (buttons, LEDs, chip-selects), whatever the
// libgpiod version underneath.
//
// The version split: Debian 12 ships libgpiod 1.6, whose C API requests one
// line at a time (gpiod_chip_open_lookup, gpiod_line_request,
// gpiod_line_event_read_fd_multiple); libgpiod 2.x (newer Raspberry Pi OS)
// replaced it with line settings, request configs and edge-event buffers.
// Everything that knows a version sits behind this header: gpiod_v1.cpp
// implements it for 1.6, and drivers/gpio/CMakeLists.txt picks that file by
// the installed libgpiod's version. A 2.x backend is one more file,
// gpiod_v2.cpp, implementing the same three classes; nothing else in vivaref
// includes <gpiod.h>.
//
// Every handle is RAII: a requested line is released when its object goes,
// and the chip handle it shares with the other lines of its chip is closed
// with the last of them. Lines are held by unique_ptr, so they move and never
// copy. Tests use an in-memory GpioLines; the libgpiod backend itself is
// tested against the kernel's gpio-sim (tests/gpio/).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "drivers/time/timestamp.hpp"

namespace vivaref::drivers {

// A GPIO chip as the configuration names it: "gpiochip0", "/dev/gpiochip0",
// its number "0", or its label ("pinctrl-bcm2711"), as gpiodetect shows.
struct GpioChipName {
    std::string name;
    friend auto operator<=>(const GpioChipName&, const GpioChipName&) = default;
};

// A line's offset within its chip (the Pi's BCM GPIO number on gpiochip0).
struct LineOffset {
    unsigned value = 0;
    friend auto operator<=>(const LineOffset&, const LineOffset&) = default;
};

struct LineAddress {
    GpioChipName chip;
    LineOffset offset;
    friend auto operator<=>(const LineAddress&, const LineAddress&) = default;
};

// "gpiochip0 line 17": how errors and logs name a line.
std::string describeLine(const LineAddress& line);

// Which electrical level means "active" (pressed, lit, selected). The kernel
// applies it: every level below is the active/inactive one, not the voltage.
enum class Polarity { ActiveHigh, ActiveLow };

// The line's internal pull resistor. AsIs leaves whatever the firmware set.
enum class Bias { AsIs, Disabled, PullUp, PullDown };

// "as-is", "disabled", "pull-up", "pull-down": as in the configuration file.
const char* biasName(Bias bias);
std::optional<Bias> biasFromName(std::string_view name);

// One edge the kernel saw: the level the line went to, and when. `at` is the
// kernel's timestamp on CLOCK_MONOTONIC, which is std::chrono::steady_clock
// on Linux: the daemon's loop gives the drivers steady_clock time.
struct LineEdge {
    bool active = false;
    Timestamp at{};
    friend bool operator==(const LineEdge&, const LineEdge&) = default;
};

// A failure inside the event loop, as a value: which line, what went wrong.
// The loop logs it and goes on.
struct GpioFault {
    std::string line;  // describeLine(), or the LED's name when it has no line
    std::error_code error;
    std::string message() const;  // "gpiochip0 line 5: Input/output error"
};

// An input line requested for events on both edges.
class EdgeInputLine {
public:
    virtual ~EdgeInputLine() = default;
    // Readable when edges are queued; the loop watches it (posix::stream_descriptor).
    virtual int eventDescriptor() const = 0;
    // Appends every queued edge, oldest first, and returns at once when none
    // is queued (the descriptor is non-blocking).
    virtual std::error_code readEdges(std::vector<LineEdge>& edges) = 0;
    virtual std::error_code readLevel(bool& active) = 0;
};

class OutputLine {
public:
    virtual ~OutputLine() = default;
    virtual std::error_code write(bool active) = 0;
};

// Requests lines. Both requests throw std::system_error naming the line (and
// who holds it, when it is busy) when the kernel refuses: a start-up error.
class GpioLines {
public:
    virtual ~GpioLines() = default;
    virtual std::unique_ptr<EdgeInputLine> requestEdges(const LineAddress& line, Polarity polarity,
                                                        Bias bias) = 0;
    virtual std::unique_ptr<OutputLine> requestOutput(const LineAddress& line, Polarity polarity,
                                                      bool initiallyActive) = 0;
};

// The kernel's GPIO lines through the installed libgpiod; `consumer` is the
// name the kernel shows as the lines' user (gpioinfo).
std::unique_ptr<GpioLines> kernelGpioLines(std::string consumer = "vivaref");

}  // namespace vivaref::drivers
