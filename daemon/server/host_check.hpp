// Which Host headers the daemon answers, against DNS rebinding: a page on
// another site cannot make a browser talk to the castle under the other
// site's name (its name pointed at the castle's address), because such a
// request says that name in its Host header and gets 421 Misdirected
// Request. Answered: the address serve listens on (when it listens on every
// interface, every address of the machine's interfaces, looked up again at
// most every few seconds when an unknown address comes), the loopback names
// (localhost, 127.0.0.1, ::1), the machine's host name and NAME.local (mDNS:
// "raspberrypi.local"), and the configuration's `http_names`. Any port, or
// none. A request without a Host header (HTTP/1.0 tools; a browser always
// sends one) is answered.
#pragma once

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/ip/address.hpp>

namespace vivaref::server {

class HostCheck {
public:
    using Clock = std::chrono::steady_clock;

    // `listen`: the address serve listens on; `configured`: http_names
    // (names or addresses); `machineName`: empty for the kernel's host name.
    HostCheck(const boost::asio::ip::address& listen, const std::vector<std::string>& configured,
              std::string machineName = {});

    // Whether a request whose Host header is `header` is answered (nullopt:
    // the request has none). `now` paces the look-ups of the interfaces.
    bool allows(std::optional<std::string_view> header, Clock::time_point now);

    // The names and addresses answered at the moment, sorted (for the log and tests).
    std::vector<std::string> names() const;

    // The interfaces are looked up again at most this often, when a Host
    // header names an address not known yet.
    static constexpr std::chrono::seconds kRefreshEvery{5};

private:
    void lookUpInterfaces(Clock::time_point now);

    bool everyInterface_ = false;
    std::set<std::string, std::less<>> fixed_;       // lower case, no trailing dot
    std::set<std::string, std::less<>> interfaces_;  // the interfaces' addresses
    std::optional<Clock::time_point> lookedUp_;
};

// The name part of a Host header, lower case, without the port, the
// brackets of an IPv6 address or a trailing dot; nullopt when it is not a
// name[:port] at all.
std::optional<std::string> hostOfHeader(std::string_view header);

// An address as a Host header names it (IPv6 without its zone: "fe80::1").
std::string addressName(const boost::asio::ip::address& address);

}  // namespace vivaref::server
