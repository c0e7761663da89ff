#include "daemon/server/table_addresses.hpp"

#include <ifaddrs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <memory>

#include <netinet/in.h>

namespace vivaref::server {

namespace ip = boost::asio::ip;

namespace {

// Lower ranks are printed first (tableAddresses' order).
enum class AddressRank { PrivateV4, OtherV4, UniqueLocalV6, OtherV6, Unreachable };

AddressRank rankOf(const ip::address& address) {
    if (address.is_unspecified() || address.is_loopback() || address.is_multicast())
        return AddressRank::Unreachable;
    if (address.is_v4()) {
        const auto b = address.to_v4().to_bytes();
        if (b[0] == 169 && b[1] == 254) return AddressRank::Unreachable;  // link-local
        if (b[0] == 10 || (b[0] == 172 && (b[1] & 0xf0) == 16) || (b[0] == 192 && b[1] == 168))
            return AddressRank::PrivateV4;
        return AddressRank::OtherV4;
    }
    const auto v6 = address.to_v6();
    if (v6.is_link_local() || v6.is_v4_mapped()) return AddressRank::Unreachable;
    if ((v6.to_bytes()[0] & 0xfe) == 0xfc) return AddressRank::UniqueLocalV6;
    return AddressRank::OtherV6;
}

// A bridge to containers or virtual machines: its address is on no table's network.
bool isVirtualBridge(std::string_view name) {
    for (std::string_view prefix : {"docker", "br-", "veth", "virbr", "lxc", "podman", "cni"})
        if (name.starts_with(prefix)) return true;
    return false;
}

}  // namespace

std::vector<InterfaceAddress> machineAddresses() {
    std::vector<InterfaceAddress> found;
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) != 0) return found;
    const std::unique_ptr<ifaddrs, void (*)(ifaddrs*)> owner(list, ::freeifaddrs);
    for (const ifaddrs* i = list; i; i = i->ifa_next) {
        if (!i->ifa_addr) continue;
        const std::string name = i->ifa_name ? i->ifa_name : "";
        if (i->ifa_addr->sa_family == AF_INET) {
            sockaddr_in in{};
            std::memcpy(&in, i->ifa_addr, sizeof in);
            ip::address_v4::bytes_type bytes{};
            std::memcpy(bytes.data(), &in.sin_addr, bytes.size());
            found.push_back({name, ip::address_v4(bytes)});
        } else if (i->ifa_addr->sa_family == AF_INET6) {
            sockaddr_in6 in6{};
            std::memcpy(&in6, i->ifa_addr, sizeof in6);
            ip::address_v6::bytes_type bytes{};
            std::memcpy(bytes.data(), &in6.sin6_addr, bytes.size());
            found.push_back({name, ip::address_v6(bytes)});
        }
    }
    return found;
}

std::string mdnsName(std::string_view avahiSocket) {
    std::array<char, 256> name{};
    if (::gethostname(name.data(), name.size() - 1) != 0) return {};
    const std::string text(name.data());
    if (text.empty() || text == "localhost" || text.find('.') != std::string::npos) return {};
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::path(std::string(avahiSocket)), ec)) return {};
    return text + ".local";
}

std::string urlHost(const ip::address& address) {
    if (!address.is_v6()) return address.to_string();
    auto v6 = address.to_v6();
    v6.scope_id(0);
    return "[" + v6.to_string() + "]";
}

TableAddresses tableAddresses(const ip::address& listen, const std::vector<InterfaceAddress>& interfaces,
                              std::string_view mdnsName) {
    TableAddresses chosen;
    if (listen.is_loopback()) {
        chosen.hosts.push_back(urlHost(listen));
        chosen.loopbackOnly = true;
        return chosen;
    }
    if (!listen.is_unspecified()) {
        chosen.hosts.push_back(urlHost(listen));
        return chosen;
    }
    // A socket on 0.0.0.0 takes IPv4 only; one on :: takes both (Linux's default).
    const bool v6 = listen.is_v6();
    struct Candidate {
        AddressRank rank;
        bool bridge;
        std::size_t order;
        std::string host;
    };
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i < interfaces.size(); ++i) {
        const auto& a = interfaces[i];
        const AddressRank rank = rankOf(a.address);
        if (rank == AddressRank::Unreachable || (a.address.is_v6() && !v6)) continue;
        candidates.push_back({rank, isVirtualBridge(a.interface), i, urlHost(a.address)});
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        if (a.bridge != b.bridge) return !a.bridge;
        if (a.rank != b.rank) return a.rank < b.rank;
        return a.order < b.order;
    });
    for (const auto& c : candidates)
        if (std::find(chosen.hosts.begin(), chosen.hosts.end(), c.host) == chosen.hosts.end())
            chosen.hosts.push_back(c.host);
    if (chosen.hosts.empty()) {
        chosen.noNetwork = true;
        chosen.hosts.push_back(v6 ? "[::1]" : "127.0.0.1");
        return chosen;
    }
    if (!mdnsName.empty()) chosen.hosts.emplace_back(mdnsName);
    return chosen;
}

TableAddresses tableAddressesNow(const ip::address& listen) {
    if (!listen.is_unspecified()) return tableAddresses(listen, {}, {});
    return tableAddresses(listen, machineAddresses(), mdnsName());
}

std::string tableUrl(std::string_view host, std::uint16_t port) {
    return "http://" + std::string(host) + ":" + std::to_string(port) + "/";
}

bool isLoopbackHost(std::string_view host) {
    if (host == "localhost") return true;
    boost::system::error_code ec;
    const auto address = ip::make_address(std::string(host), ec);
    return !ec && address.is_loopback();
}

}  // namespace vivaref::server
