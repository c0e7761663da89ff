// Who a request is from when a reverse proxy stands in front of the daemon
// (`[daemon] trusted_proxies`). A connection from one of those addresses
// carries other people's requests, and the proxy names each one's client in
// `X-Forwarded-For` (each proxy appends the address it was reached from).
// The client is the rightmost address of that list that is not itself a
// trusted proxy: everything left of it was written by the client, who may
// write anything. From any other peer the header is ignored, so nobody
// picks their own address. A list whose deciding entry is not an address
// (`unknown`, garbage, empty) gives the peer: a proxy that writes that is
// misconfigured, and the peer is what the daemon can vouch for.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/ip/address.hpp>

namespace vivaref::server {

class TrustedProxies {
public:
    TrustedProxies() = default;
    // Addresses ("127.0.0.1", "::1") or networks ("10.0.0.0/8", "fd00::/8");
    // an IPv4 address is also trusted as ::ffff:a.b.c.d. Throws
    // std::invalid_argument naming the entry when one is neither.
    explicit TrustedProxies(const std::vector<std::string>& entries);

    bool empty() const { return networks_.empty(); }
    bool contains(const boost::asio::ip::address& peer) const;

    // The client of a request from `peer` whose X-Forwarded-For fields are
    // `forwardedFor` (in the order they came; empty when it had none): the
    // peer itself unless it is a trusted proxy.
    boost::asio::ip::address clientOf(const boost::asio::ip::address& peer,
                                      const std::vector<std::string_view>& forwardedFor) const;

private:
    struct Network {
        boost::asio::ip::address address;  // IPv4 as IPv4 (mapped ones unmapped)
        unsigned prefix = 0;               // bits that must match
    };
    std::vector<Network> networks_;
};

// One entry of X-Forwarded-For as an address: "192.0.2.7", "2001:db8::7",
// "[2001:db8::7]", with a port ("192.0.2.7:4711", "[2001:db8::7]:4711", as
// some proxies write); an IPv4-mapped IPv6 address as IPv4. Nullopt for
// anything else.
std::optional<boost::asio::ip::address> forwardedAddress(std::string_view entry);

// "10.0.0.0/8", "::1" -> the network; nullopt when it is neither an address
// nor an address with a prefix length in range (0-32, 0-128).
std::optional<std::pair<boost::asio::ip::address, unsigned>> parseProxyNetwork(std::string_view text);

}  // namespace vivaref::server
