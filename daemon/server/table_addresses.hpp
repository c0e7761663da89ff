// Where a phone at the table opens the castle's pages. serve listens on one
// address; when that is every interface (0.0.0.0, ::) a phone needs one of
// this machine's addresses on the table's network, and 127.0.0.1 (what a
// browser on the machine itself opens) is the one address no phone can.
// The choice is a pure function of what serve listens on, the machine's
// interface addresses and its mDNS name, so that it is tested with fixed
// interfaces; the two look-ups of the machine are beside it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/ip/address.hpp>

namespace vivaref::server {

// One address of one of the machine's network interfaces.
struct InterfaceAddress {
    std::string interface;  // "wlan0", "eth0", "docker0"
    boost::asio::ip::address address;
};

// The machine's interface addresses as the kernel gives them now
// (getifaddrs); empty when it cannot say.
std::vector<InterfaceAddress> machineAddresses();

// NAME.local when a phone can plausibly find this machine by that name:
// its host name has no dot and an mDNS responder answers for it here
// (avahi-daemon's socket, `avahiSocket`, exists: as on Raspberry Pi OS and
// a desktop Debian). Else empty: a name nobody answers for would be a link
// that does not open.
std::string mdnsName(std::string_view avahiSocket = "/run/avahi-daemon/socket");

struct TableAddresses {
    // As written in a URL ("192.168.1.20", "[fd00::20]", castle.local),
    // best first: the first is the one to print and to put in a QR code.
    std::vector<std::string> hosts;
    // serve listens on a loopback address: no phone can reach it.
    bool loopbackOnly = false;
    // serve listens on every interface, but no interface has an address a
    // phone could reach (no network yet): `hosts` is the loopback address.
    bool noNetwork = false;
};

// The addresses a phone opens, for serve listening on `listen`:
// - a loopback address: that address, `loopbackOnly`;
// - another single address: that address;
// - every interface: the interfaces' addresses without loopback, link-local
//   (169.254/16, fe80::/10), multicast and unspecified ones, private IPv4
//   first (10/8, 172.16/12, 192.168/16), then other IPv4, then (listening
//   on ::) IPv6 unique-local (fc00::/7), then other IPv6, each in the
//   kernel's order; a virtual bridge's (docker*, br-*, veth*, virbr*, lxc*,
//   podman*, cni*) after all of those, in the same order; each address once. Then
//   `mdnsName` when given (it may change address under DHCP, but is found
//   only where mDNS works: an address comes first so that any phone opens it).
TableAddresses tableAddresses(const boost::asio::ip::address& listen,
                              const std::vector<InterfaceAddress>& interfaces, std::string_view mdnsName);

// `tableAddresses` of this machine now.
TableAddresses tableAddressesNow(const boost::asio::ip::address& listen);

// An address as a URL writes it: IPv6 in brackets, without a zone.
std::string urlHost(const boost::asio::ip::address& address);

// "http://HOST:PORT/".
std::string tableUrl(std::string_view host, std::uint16_t port);

// Whether `host` (a Host header's name part, as hostOfHeader gives it:
// lower case, no brackets) names this machine's loopback: localhost,
// 127.0.0.0/8 or ::1.
bool isLoopbackHost(std::string_view host);

}  // namespace vivaref::server
