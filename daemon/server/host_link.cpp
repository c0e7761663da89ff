#include "daemon/server/host_link.hpp"

#include <unistd.h>

#include <array>

#include <boost/asio/ip/address.hpp>

namespace vivaref::server {

namespace {

std::string machineName() {
    std::array<char, 256> name{};
    if (::gethostname(name.data(), name.size() - 1) != 0 || name[0] == '\0') return "localhost";
    std::string text(name.data());
    if (text.find('.') == std::string::npos && text != "localhost") text += ".local";
    return text;
}

}  // namespace

std::string castleUrl(std::string_view address, std::uint16_t port) {
    boost::system::error_code ec;
    const auto ip = boost::asio::ip::make_address(std::string(address), ec);
    std::string host;
    if (ec)
        host = std::string(address);  // a name
    else if (ip.is_unspecified())
        host = machineName();
    else if (ip.is_v6())
        host = "[" + ip.to_string() + "]";
    else
        host = ip.to_string();
    return "http://" + host + ":" + std::to_string(port) + "/";
}

std::string hostLink(const std::string& castleUrl, std::string_view token) {
    return castleUrl + "host.html#" + std::string(token);
}

std::string simLink(const std::string& castleUrl, std::string_view token) {
    return castleUrl + "sim.html#" + std::string(token);
}

}  // namespace vivaref::server
