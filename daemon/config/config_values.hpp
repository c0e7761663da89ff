// The kinds of value a castle configuration holds, read from their text:
// numbers in a range, yes/no, GPIO lines with their wiring, device paths.
// Each returns nothing and says why when the text is not such a value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/config/castle_config.hpp"

namespace vivaref::config {

// A decimal integer in [min, max].
std::optional<std::int64_t> parseInteger(std::string_view text, std::int64_t min, std::int64_t max,
                                         std::string& why);

// The words of `text` between spaces and tabs.
std::vector<std::string_view> spaceSeparated(std::string_view text);

// true/false, yes/no, on/off, 1/0.
std::optional<bool> parseBoolean(std::string_view text, std::string& why);

// "pull-up", "pull-down", "disabled", "as-is".
std::optional<Bias> parseBias(std::string_view text, std::string& why);

// "gpiochip0:17": a chip as the kernel names it and a line number.
std::optional<GpioLine> parseGpioLine(std::string_view text, std::string& why);

// A line and its wiring: "gpiochip0:17", then any of the words active-low,
// active-high, and for inputs pull-up, pull-down, bias-disabled, as-is.
// Words not given keep the values in `defaults`.
std::optional<GpioPin> parseGpioPin(std::string_view text, bool isInput, const GpioPin& defaults,
                                    std::string& why);

// "/dev/spidev0.0": a spidev device (bus 0, chip select 0).
bool isSpidevPath(std::string_view text, std::string& why);

// A libnfc connection string for a PN532: "pn532_uart:/dev/ttyS0[:115200]",
// "pn532_spi:/dev/spidev0.0[:500000]" or "pn532_i2c:/dev/i2c-1".
bool isPn532Connection(std::string_view text, std::string& why);

// An IPv4 or IPv6 address to listen on ("0.0.0.0", "::", "127.0.0.1").
bool isListenAddress(std::string_view text, std::string& why);

// A host_token hard enough to guess: at least kMinHostTokenLength visible
// ASCII characters (no spaces), at least two kinds of character (lower
// case, upper case, digits, punctuation), at least 6 different characters,
// and not the example configuration's placeholder. Empty is not a token
// (the daemon then makes its own secret); the caller decides that.
inline constexpr std::size_t kMinHostTokenLength = 16;
bool isStrongHostToken(std::string_view text, std::string& why);

// `http_names`: the names and addresses, besides its own, the daemon's
// pages are reached by, separated by commas ("castle.lan, 192.168.4.1").
// Each is a DNS name (letters, digits, hyphens, dots) or an IP address, no
// port. Empty text: none.
std::optional<std::vector<std::string>> parseHttpNames(std::string_view text, std::string& why);

// `trusted_proxies`: the reverse proxies in front of the daemon, separated
// by commas ("127.0.0.1, ::1"): IP addresses, or networks written
// address/prefix length ("10.0.0.0/8", "fd00::/8"). Empty text: none.
std::optional<std::vector<std::string>> parseTrustedProxies(std::string_view text, std::string& why);

}  // namespace vivaref::config
