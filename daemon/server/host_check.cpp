#include "daemon/server/host_check.hpp"

#include <ifaddrs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>

#include <netinet/in.h>

namespace vivaref::server {

namespace ip = boost::asio::ip;

namespace {

std::string lowerCase(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
        return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    });
    return lower;
}

bool isNameCharacter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
}

// An address in its canonical spelling, a name as it is.
std::string canonical(std::string name) {
    boost::system::error_code error;
    const auto address = ip::make_address(name, error);
    return error ? name : addressName(address);
}

std::string kernelHostName() {
    std::array<char, 256> name{};
    if (::gethostname(name.data(), name.size() - 1) != 0) return {};
    return name.data();
}

}  // namespace

std::string addressName(const ip::address& address) {
    if (address.is_v6()) {
        auto v6 = address.to_v6();
        if (v6.is_v4_mapped()) return ip::make_address_v4(ip::v4_mapped, v6).to_string();
        v6.scope_id(0);
        return v6.to_string();
    }
    return address.to_string();
}

std::optional<std::string> hostOfHeader(std::string_view header) {
    std::string_view name = header;
    std::string_view port;
    if (header.starts_with('[')) {
        const auto close = header.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        name = header.substr(1, close - 1);
        const std::string_view after = header.substr(close + 1);
        if (!after.empty() && !after.starts_with(':')) return std::nullopt;
        if (!after.empty()) port = after.substr(1);
        boost::system::error_code error;
        (void)ip::make_address_v6(std::string(name), error);
        if (error) return std::nullopt;
    } else {
        const auto colon = header.find(':');
        if (colon != std::string_view::npos) {
            name = header.substr(0, colon);
            port = header.substr(colon + 1);
        }
    }
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    if (name.empty() || name.size() > 253) return std::nullopt;
    std::string lower = lowerCase(name);
    if (!header.starts_with('[')) {
        if (!std::all_of(lower.begin(), lower.end(), isNameCharacter)) return std::nullopt;
        if (lower.ends_with('.')) lower.pop_back();
        if (lower.empty()) return std::nullopt;
    }
    return canonical(std::move(lower));
}

HostCheck::HostCheck(const ip::address& listen, const std::vector<std::string>& configured,
                     std::string machineName) {
    everyInterface_ = listen.is_unspecified();
    if (!everyInterface_) fixed_.insert(addressName(listen));
    for (const char* loopback : {"localhost", "127.0.0.1", "::1"}) fixed_.insert(loopback);
    if (machineName.empty()) machineName = kernelHostName();
    if (auto name = hostOfHeader(machineName)) {
        fixed_.insert(*name);
        // "raspberrypi" is also reached as "raspberrypi.local" (mDNS).
        if (!name->ends_with(".local")) fixed_.insert(*name + ".local");
    }
    for (const auto& given : configured)
        if (auto name = hostOfHeader(given)) fixed_.insert(*name);
}

bool HostCheck::allows(std::optional<std::string_view> header, Clock::time_point now) {
    if (!header || header->empty()) return true;
    const auto name = hostOfHeader(*header);
    if (!name) return false;
    if (fixed_.contains(*name)) return true;
    if (!everyInterface_) return false;
    if (!lookedUp_) lookUpInterfaces(now);
    if (interfaces_.contains(*name)) return true;
    // Perhaps an address the machine was given since (DHCP): look again, not too often.
    boost::system::error_code notAnAddress;
    (void)ip::make_address(*name, notAnAddress);
    if (notAnAddress || now - *lookedUp_ < kRefreshEvery) return false;
    lookUpInterfaces(now);
    return interfaces_.contains(*name);
}

std::vector<std::string> HostCheck::names() const {
    std::set<std::string, std::less<>> all = fixed_;
    all.insert(interfaces_.begin(), interfaces_.end());
    return {all.begin(), all.end()};
}

void HostCheck::lookUpInterfaces(Clock::time_point now) {
    lookedUp_ = now;
    ifaddrs* list = nullptr;
    // Kept as they were when the kernel cannot say (it then says nothing new).
    if (::getifaddrs(&list) != 0) return;
    const std::unique_ptr<ifaddrs, void (*)(ifaddrs*)> owner(list, ::freeifaddrs);
    std::set<std::string, std::less<>> found;
    for (const ifaddrs* i = list; i; i = i->ifa_next) {
        if (!i->ifa_addr) continue;
        if (i->ifa_addr->sa_family == AF_INET) {
            sockaddr_in in{};
            std::memcpy(&in, i->ifa_addr, sizeof in);
            ip::address_v4::bytes_type bytes{};
            std::memcpy(bytes.data(), &in.sin_addr, bytes.size());
            found.insert(addressName(ip::address_v4(bytes)));
        } else if (i->ifa_addr->sa_family == AF_INET6) {
            sockaddr_in6 in6{};
            std::memcpy(&in6, i->ifa_addr, sizeof in6);
            ip::address_v6::bytes_type bytes{};
            std::memcpy(bytes.data(), &in6.sin6_addr, bytes.size());
            found.insert(addressName(ip::address_v6(bytes)));
        }
    }
    interfaces_ = std::move(found);
}

}  // namespace vivaref::server
