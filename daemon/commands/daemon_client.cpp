#include "daemon/commands/daemon_client.hpp"

#include <charconv>
#include <stdexcept>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

namespace vivaref::daemon {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace {

// Every answer of the API is small; a larger one is not the daemon's.
constexpr std::uint64_t kMaxAnswerBytes = 4 << 20;

bool isIpv6(std::string_view host) { return host.find(':') != std::string_view::npos; }

std::string hostPort(const DaemonAddress& address) {
    const std::string host = isIpv6(address.host) ? "[" + address.host + "]" : address.host;
    return host + ":" + std::to_string(address.port);
}

std::string seconds(std::chrono::milliseconds timeout) {
    const auto ms = timeout.count();
    return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

}  // namespace

std::string DaemonAddress::url() const { return "http://" + hostPort(*this); }

// Boost 1.74 (Debian 12) has no Boost.URL: the one form the commands take
// is read here by hand.
DaemonAddress parseDaemonUrl(std::string_view text) {
    constexpr std::string_view kScheme = "http://";
    const std::string shown = "'" + std::string(text) + "'";
    if (!text.starts_with(kScheme))
        throw std::invalid_argument("the daemon's address " + shown + " is not http://HOST:PORT");
    std::string_view rest = text.substr(kScheme.size());
    if (rest.ends_with('/')) rest.remove_suffix(1);
    if (rest.find_first_of("/?#@ ") != std::string_view::npos)
        throw std::invalid_argument("the daemon's address " + shown +
                                    " is http://HOST:PORT alone (no path, user or query)");
    DaemonAddress address;
    std::optional<std::string_view> portText;  // after a ':'
    if (rest.starts_with('[')) {
        const auto close = rest.find(']');
        if (close == std::string_view::npos)
            throw std::invalid_argument("the daemon's address " + shown + " has an IPv6 '[' without ']'");
        address.host = std::string(rest.substr(1, close - 1));
        rest.remove_prefix(close + 1);
        if (!rest.empty() && !rest.starts_with(':'))
            throw std::invalid_argument("the daemon's address " + shown + " has text after ']'");
        if (!rest.empty()) portText = rest.substr(1);
    } else {
        const auto colon = rest.find(':');
        address.host = std::string(rest.substr(0, colon));
        if (colon != std::string_view::npos) portText = rest.substr(colon + 1);
    }
    if (address.host.empty()) throw std::invalid_argument("the daemon's address " + shown + " names no host");
    address.port = 80;
    if (portText) {
        unsigned port = 0;
        const char* end = portText->data() + portText->size();
        const auto parsed = std::from_chars(portText->data(), end, port);
        if (portText->empty() || parsed.ec != std::errc() || parsed.ptr != end || port == 0 || port > 65535)
            throw std::invalid_argument("the daemon's address " + shown + " has no port from 1 to 65535");
        address.port = static_cast<std::uint16_t>(port);
    }
    return address;
}

DaemonAddress daemonAddressOnThisMachine(const std::string& httpAddress, std::uint16_t port) {
    error_code ec;
    const auto ip = asio::ip::make_address(httpAddress, ec);
    if (!ec && ip.is_unspecified()) return {ip.is_v6() ? "::1" : "127.0.0.1", port};
    return {httpAddress, port};
}

std::variant<DaemonAnswer, std::string> askDaemon(const DaemonAddress& address,
                                                  const DaemonRequest& request) {
    asio::io_context io;
    // A name is looked up by the system's resolver (its own timeouts); an IP
    // address, the usual case, needs no lookup.
    tcp::resolver resolver(io);
    error_code ec;
    const auto endpoints =
        resolver.resolve(address.host, std::to_string(address.port), tcp::resolver::numeric_service, ec);
    if (ec) return "cannot find the host '" + address.host + "': " + ec.message();

    http::request<http::string_body> message{request.post ? http::verb::post : http::verb::get,
                                             request.target, 11};
    message.set(http::field::host, hostPort(address));
    message.set(http::field::user_agent, "vivaref");
    message.set(http::field::accept, "application/json");
    if (!request.bearerToken.empty())
        message.set(http::field::authorization, "Bearer " + request.bearerToken);
    if (request.post) {
        message.set(http::field::content_type, "application/json");
        message.body() = request.body.dump();
    }
    message.keep_alive(false);
    message.prepare_payload();

    beast::tcp_stream stream(io);
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(kMaxAnswerBytes);
    std::string failure;
    auto failed = [&](error_code e, const std::string& what) {
        failure = e == beast::error::timeout ? what + " within " + seconds(request.timeout) : e.message();
    };
    // Asynchronous steps on a private loop, run to their end: the way Beast
    // bounds each step with the stream's timer.
    stream.expires_after(request.timeout);
    stream.async_connect(endpoints, [&](error_code e, const tcp::endpoint&) {
        if (e) return failed(e, "no connection");
        stream.expires_after(request.timeout);
        http::async_write(stream, message, [&](error_code e2, std::size_t) {
            if (e2) return failed(e2, "the request could not be sent");
            http::async_read(stream, buffer, parser, [&](error_code e3, std::size_t) {
                if (e3 == http::error::body_limit)
                    failure = "its answer is larger than any of the API's";
                else if (e3)
                    failed(e3, "no answer");
            });
        });
    });
    io.run();
    if (!failure.empty()) return failure;
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);

    const auto& answer = parser.get();
    DaemonAnswer out;
    out.status = static_cast<int>(answer.result_int());
    out.body = nlohmann::json::parse(answer.body(), nullptr, false);
    return out;
}

}  // namespace vivaref::daemon
