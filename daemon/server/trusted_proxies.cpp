#include "daemon/server/trusted_proxies.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>

namespace vivaref::server {

namespace ip = boost::asio::ip;

namespace {

// IPv4 mapped into IPv6 as IPv4, so one rule covers both ways of writing it.
ip::address unmappedAddress(const ip::address& address) {
    if (address.is_v6() && address.to_v6().is_v4_mapped())
        return ip::make_address_v4(ip::v4_mapped, address.to_v6());
    return address;
}

std::optional<ip::address> bareProxyAddress(std::string_view text) {
    if (text.empty()) return std::nullopt;
    boost::system::error_code error;
    const auto address = ip::make_address(text, error);
    // A zone ("fe80::1%eth0") names an interface of the proxy's, not a client.
    if (error || text.find('%') != std::string_view::npos) return std::nullopt;
    return unmappedAddress(address);
}

bool isPortText(std::string_view text) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return !text.empty() && ec == std::errc() && end == text.data() + text.size() && value <= 65535;
}

std::string_view trimmedEntry(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

template <std::size_t N>
bool samePrefixBits(const std::array<unsigned char, N>& a, const std::array<unsigned char, N>& b,
                    unsigned bits) {
    for (std::size_t i = 0; i < N && bits > 0; ++i) {
        const unsigned take = bits >= 8 ? 8 : bits;
        const auto mask = static_cast<unsigned char>(0xff << (8 - take));
        if ((a[i] & mask) != (b[i] & mask)) return false;
        bits -= take;
    }
    return true;
}

}  // namespace

std::optional<ip::address> forwardedAddress(std::string_view entry) {
    entry = trimmedEntry(entry);
    if (entry.starts_with('[')) {
        const auto close = entry.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        const std::string_view rest = entry.substr(close + 1);
        if (!rest.empty() && !(rest.front() == ':' && isPortText(rest.substr(1)))) return std::nullopt;
        const std::string_view inside = entry.substr(1, close - 1);
        if (inside.find(':') == std::string_view::npos) return std::nullopt;  // "[192.0.2.7]" is not IPv4
        return bareProxyAddress(inside);
    }
    // One colon: IPv4 with its port; more: bare IPv6.
    const auto colon = entry.find(':');
    if (colon != std::string_view::npos && entry.find(':', colon + 1) == std::string_view::npos) {
        if (!isPortText(entry.substr(colon + 1))) return std::nullopt;
        return bareProxyAddress(entry.substr(0, colon));
    }
    return bareProxyAddress(entry);
}

std::optional<std::pair<ip::address, unsigned>> parseProxyNetwork(std::string_view text) {
    text = trimmedEntry(text);
    const auto slash = text.find('/');
    auto address = bareProxyAddress(text.substr(0, slash));
    if (!address) return std::nullopt;
    const bool wasMapped = text.substr(0, slash).find(':') != std::string_view::npos && address->is_v4();
    const unsigned width = address->is_v4() ? 32 : 128;
    unsigned prefix = width;
    if (slash != std::string_view::npos) {
        const std::string_view digits = text.substr(slash + 1);
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
        if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
        // An IPv4 address written as IPv6 (::ffff:10.0.0.1) has no network: 10.0.0.0/8 is written so.
        if (wasMapped || prefix > width) return std::nullopt;
    }
    return std::pair{*address, prefix};
}

TrustedProxies::TrustedProxies(const std::vector<std::string>& entries) {
    for (const auto& entry : entries) {
        const auto network = parseProxyNetwork(entry);
        if (!network)
            throw std::invalid_argument("'" + entry +
                                        "' is neither an IP address nor a network (address/prefix length)");
        networks_.push_back({network->first, network->second});
    }
}

bool TrustedProxies::contains(const ip::address& peer) const {
    const auto address = unmappedAddress(peer);
    for (const auto& network : networks_) {
        if (network.address.is_v4() != address.is_v4()) continue;
        const bool inside = address.is_v4() ? samePrefixBits(network.address.to_v4().to_bytes(),
                                                             address.to_v4().to_bytes(), network.prefix)
                                            : samePrefixBits(network.address.to_v6().to_bytes(),
                                                             address.to_v6().to_bytes(), network.prefix);
        if (inside) return true;
    }
    return false;
}

ip::address TrustedProxies::clientOf(const ip::address& peer,
                                     const std::vector<std::string_view>& forwardedFor) const {
    if (!contains(peer) || forwardedFor.empty()) return peer;
    // The entries in the order the proxies appended them, the nearest last.
    std::vector<std::string_view> entries;
    for (const std::string_view field : forwardedFor) {
        std::size_t at = 0;
        while (at <= field.size()) {
            const auto comma = std::min(field.find(',', at), field.size());
            entries.push_back(field.substr(at, comma - at));
            at = comma + 1;
        }
    }
    std::optional<ip::address> leftmost;
    for (auto entry = entries.rbegin(); entry != entries.rend(); ++entry) {
        const auto address = forwardedAddress(*entry);
        if (!address) return peer;
        if (!contains(*address)) return *address;
        leftmost = address;
    }
    // Every hop was a proxy of ours (the machine's own browser through the
    // proxy): the first of them is where the request began.
    return leftmost ? *leftmost : peer;
}

}  // namespace vivaref::server
