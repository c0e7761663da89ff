#include "daemon/config/config_values.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <vector>

#include <arpa/inet.h>

namespace vivaref::config {
namespace {

bool allDigits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

// "/dev/NAME" where NAME starts with `prefix` and the rest passes `rest`.
bool isDevicePath(std::string_view text, std::string_view prefix) {
    return text.starts_with("/dev/") && text.substr(5).starts_with(prefix) && text.size() > 5 + prefix.size();
}

}  // namespace

std::optional<std::int64_t> parseInteger(std::string_view text, std::int64_t min, std::int64_t max,
                                         std::string& why) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec == std::errc::invalid_argument || end != text.data() + text.size()) {
        why = "'" + std::string(text) + "' is not a whole number";
        return std::nullopt;
    }
    if (ec == std::errc::result_out_of_range || value < min || value > max) {
        why = std::string(text) + " is out of range: from " + std::to_string(min) + " to " +
              std::to_string(max);
        return std::nullopt;
    }
    return value;
}

std::vector<std::string_view> spaceSeparated(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
        if (i > start) out.push_back(text.substr(start, i - start));
    }
    return out;
}

std::optional<bool> parseBoolean(std::string_view text, std::string& why) {
    if (text == "true" || text == "yes" || text == "on" || text == "1") return true;
    if (text == "false" || text == "no" || text == "off" || text == "0") return false;
    why = "'" + std::string(text) + "' is not true or false";
    return std::nullopt;
}

std::optional<Bias> parseBias(std::string_view text, std::string& why) {
    for (Bias b : {Bias::AsIs, Bias::PullUp, Bias::PullDown, Bias::Disabled})
        if (text == biasName(b)) return b;
    why = "'" + std::string(text) + "' is not a bias: pull-up, pull-down, disabled or as-is";
    return std::nullopt;
}

std::optional<GpioLine> parseGpioLine(std::string_view text, std::string& why) {
    const auto colon = text.find(':');
    const std::string_view chip = text.substr(0, colon);
    if (colon == std::string_view::npos || !chip.starts_with("gpiochip") || !allDigits(chip.substr(8))) {
        why = "'" + std::string(text) + "' is not a GPIO line: write CHIP:LINE, e.g. gpiochip0:17";
        return std::nullopt;
    }
    std::string lineWhy;
    const auto line = parseInteger(text.substr(colon + 1), 0, 1023, lineWhy);
    if (!line) {
        why = "'" + std::string(text) + "': the line number " + lineWhy;
        return std::nullopt;
    }
    return GpioLine{std::string(chip), static_cast<unsigned>(*line)};
}

std::optional<GpioPin> parseGpioPin(std::string_view text, bool isInput, const GpioPin& defaults,
                                    std::string& why) {
    const auto parts = spaceSeparated(text);
    if (parts.empty()) {
        why = "no GPIO line given: write CHIP:LINE, e.g. gpiochip0:17";
        return std::nullopt;
    }
    GpioPin pin = defaults;
    const auto line = parseGpioLine(parts.front(), why);
    if (!line) return std::nullopt;
    pin.gpio = *line;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const std::string_view word = parts[i];
        if (word == "active-low") {
            pin.activeLow = true;
        } else if (word == "active-high") {
            pin.activeLow = false;
        } else if (isInput && word == "bias-disabled") {
            pin.bias = Bias::Disabled;
        } else if (isInput && (word == "pull-up" || word == "pull-down" || word == "as-is")) {
            pin.bias = *parseBias(word, why);
        } else {
            why = "'" + std::string(word) + "' is not a wiring word here: " +
                  (isInput ? "active-low, active-high, pull-up, pull-down, bias-disabled or as-is"
                           : "active-low or active-high (an output has no bias)");
            return std::nullopt;
        }
    }
    return pin;
}

bool isSpidevPath(std::string_view text, std::string& why) {
    // spidevB.C: bus B, chip select C (Documentation/spi/spidev).
    if (isDevicePath(text, "spidev")) {
        const std::string_view rest = text.substr(11);
        const auto dot = rest.find('.');
        if (dot != std::string_view::npos && allDigits(rest.substr(0, dot)) &&
            allDigits(rest.substr(dot + 1)))
            return true;
    }
    why = "'" + std::string(text) + "' is not a spidev device: write /dev/spidevBUS.CS, e.g. /dev/spidev0.0";
    return false;
}

bool isPn532Connection(std::string_view text, std::string& why) {
    const auto colon = text.find(':');
    const std::string_view driver = text.substr(0, colon);
    std::string_view rest = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
    const auto speed = rest.find(':');
    const std::string_view device = rest.substr(0, speed);
    const bool speedOk = speed == std::string_view::npos || allDigits(rest.substr(speed + 1));
    std::string ignored;
    const bool ok = speedOk && ((driver == "pn532_uart" && isDevicePath(device, "tty")) ||
                                (driver == "pn532_spi" && isSpidevPath(device, ignored)) ||
                                (driver == "pn532_i2c" && isDevicePath(device, "i2c-")));
    if (!ok) {
        why = "'" + std::string(text) +
              "' is not a libnfc PN532 connection: write pn532_uart:/dev/ttyS0, pn532_spi:/dev/spidev0.0 or "
              "pn532_i2c:/dev/i2c-1";
    }
    return ok;
}

bool isListenAddress(std::string_view text, std::string& why) {
    const std::string address(text);
    unsigned char buffer[16];
    if (inet_pton(AF_INET, address.c_str(), buffer) == 1 || inet_pton(AF_INET6, address.c_str(), buffer) == 1)
        return true;
    why = "'" + address +
          "' is not an IP address: 0.0.0.0 listens on every interface, 127.0.0.1 on this machine";
    return false;
}

bool isStrongHostToken(std::string_view text, std::string& why) {
    const std::string advice =
        "; a host token needs at least " + std::to_string(kMinHostTokenLength) +
        " characters mixing two kinds (lower case, upper case, digits, punctuation), or leave host_token "
        "out and serve makes a strong secret of its own (host-secret in the state directory)";
    bool lower = false, upper = false, digit = false, other = false;
    std::array<bool, 128> seen{};
    std::size_t different = 0;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= ' ' || u >= 127) {
            why = "the host token may hold only visible ASCII characters (no spaces)" + advice;
            return false;
        }
        if (!seen[u]) ++different;
        seen[u] = true;
        lower = lower || (c >= 'a' && c <= 'z');
        upper = upper || (c >= 'A' && c <= 'Z');
        digit = digit || (c >= '0' && c <= '9');
        other = other || !std::isalnum(u);
    }
    std::string lowered(text);
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lowered.find("change-me") != std::string::npos) {
        why = "the host token is still the example's placeholder" + advice;
        return false;
    }
    if (text.size() < kMinHostTokenLength) {
        why = "the host token is too short to be safe (" + std::to_string(text.size()) +
              (text.size() == 1 ? " character)" : " characters)") + advice;
        return false;
    }
    if (int{lower} + int{upper} + int{digit} + int{other} < 2) {
        why = "the host token is too easy to guess (one kind of character only)" + advice;
        return false;
    }
    if (different < 6) {
        why = "the host token is too easy to guess (" + std::to_string(different) + " different characters)" +
              advice;
        return false;
    }
    return true;
}

namespace {

// A DNS name: labels of 1-63 letters, digits and hyphens (not at either
// end), 253 characters at most; one trailing dot allowed.
bool isDnsName(std::string_view name) {
    if (name.ends_with('.')) name.remove_suffix(1);
    if (name.empty() || name.size() > 253) return false;
    std::size_t start = 0;
    while (start <= name.size()) {
        const auto dot = std::min(name.find('.', start), name.size());
        const std::string_view label = name.substr(start, dot - start);
        if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') return false;
        for (const char c : label)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
        start = dot + 1;
    }
    return true;
}

// A list written "a, b ,c": each item with its spaces and tabs trimmed
// (an empty one kept, for the caller to name); nothing at all: no item.
std::vector<std::string_view> commaList(std::string_view text) {
    std::vector<std::string_view> items;
    if (text.find_first_not_of(" \t") == std::string_view::npos) return items;
    for (std::size_t start = 0; start <= text.size();) {
        const auto comma = std::min(text.find(',', start), text.size());
        std::string_view item = text.substr(start, comma - start);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
        items.push_back(item);
        start = comma + 1;
    }
    return items;
}

}  // namespace

std::optional<std::vector<std::string>> parseHttpNames(std::string_view text, std::string& why) {
    std::vector<std::string> names;
    for (const auto item : commaList(text)) {
        std::string name(item);
        if (name.size() > 2 && name.front() == '[' && name.back() == ']')
            name = name.substr(1, name.size() - 2);
        unsigned char buffer[16];
        const bool address =
            inet_pton(AF_INET, name.c_str(), buffer) == 1 || inet_pton(AF_INET6, name.c_str(), buffer) == 1;
        if (name.empty()) {
            why =
                "an empty name in the list: write names and addresses separated by commas, e.g. "
                "castle.lan, 192.168.4.1";
            return std::nullopt;
        }
        if (!address && !isDnsName(name)) {
            why = "'" + std::string(item) +
                  "' is neither a host name (letters, digits, hyphens and dots, no port) nor an IP address";
            return std::nullopt;
        }
        names.push_back(name);
    }
    return names;
}

std::optional<std::vector<std::string>> parseTrustedProxies(std::string_view text, std::string& why) {
    std::vector<std::string> proxies;
    for (const auto item : commaList(text)) {
        if (item.empty()) {
            why =
                "an empty entry in the list: write the proxies' addresses separated by commas, e.g. "
                "127.0.0.1, ::1";
            return std::nullopt;
        }
        const auto slash = item.find('/');
        const std::string address(item.substr(0, slash));
        unsigned char buffer[16];
        const bool v4 = inet_pton(AF_INET, address.c_str(), buffer) == 1;
        const bool v6 = !v4 && inet_pton(AF_INET6, address.c_str(), buffer) == 1;
        bool good = v4 || v6;
        if (good && slash != std::string_view::npos) {
            const std::string_view digits = item.substr(slash + 1);
            unsigned prefix = 0;
            const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
            good = !digits.empty() && ec == std::errc() && end == digits.data() + digits.size() &&
                   prefix <= (v4 ? 32U : 128U);
            // An IPv4 address written as IPv6 (::ffff:10.0.0.1) has no network: write 10.0.0.0/8.
            const bool mapped = v6 &&
                                std::all_of(buffer, buffer + 10, [](unsigned char b) { return b == 0; }) &&
                                buffer[10] == 0xff && buffer[11] == 0xff;
            if (mapped) good = false;
        }
        if (!good) {
            why = "'" + std::string(item) +
                  "' is neither an IP address nor a network (address/prefix length, e.g. 10.0.0.0/8): "
                  "name the reverse proxies by address, not by host name";
            return std::nullopt;
        }
        proxies.emplace_back(item);
    }
    return proxies;
}

}  // namespace vivaref::config
