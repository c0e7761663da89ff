#include "daemon/server/host_link.hpp"

#include <boost/asio/ip/address.hpp>

#include "daemon/server/table_addresses.hpp"

namespace vivaref::server {

std::string castleUrl(std::string_view address, std::uint16_t port) {
    boost::system::error_code ec;
    const auto ip = boost::asio::ip::make_address(std::string(address), ec);
    if (ec) return tableUrl(address, port);  // a name
    return tableUrl(tableAddressesNow(ip).hosts.front(), port);
}

std::string hostLink(const std::string& castleUrl, std::string_view token) {
    return castleUrl + "host.html#" + std::string(token);
}

std::string simLink(const std::string& castleUrl, std::string_view token) {
    return castleUrl + "sim.html#" + std::string(token);
}

}  // namespace vivaref::server
