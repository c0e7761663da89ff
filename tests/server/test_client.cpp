#include "test_client.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace vivaref::server::testing {

namespace http = boost::beast::http;
using Clock = std::chrono::steady_clock;

std::string HttpAnswer::header(std::string_view name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : std::string(it->value());
}

TestConnection::TestConnection(std::uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

TestConnection::~TestConnection() {
    if (fd_ >= 0) ::close(fd_);
}

TestConnection::TestConnection(TestConnection&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), unread_(std::move(other.unread_)) {}

TestConnection& TestConnection::operator=(TestConnection&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = std::exchange(other.fd_, -1);
        unread_ = std::move(other.unread_);
    }
    return *this;
}

bool TestConnection::send(std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

void TestConnection::shutdownSend() { ::shutdown(fd_, SHUT_WR); }

long TestConnection::receive(char* data, std::size_t max, Clock::time_point deadline) {
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return -1;
        pollfd p{fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return -1;
        const ssize_t n = ::recv(fd_, data, max, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno == ECONNRESET ? 0 : -1;
        return n;
    }
}

std::optional<HttpAnswer> TestConnection::readAnswer(std::chrono::milliseconds timeout, bool head) {
    const auto deadline = Clock::now() + timeout;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 << 20);
    if (head) parser.skip(true);
    char chunk[16384];
    for (;;) {
        if (!unread_.empty()) {
            boost::beast::error_code error;
            const auto used = parser.put(boost::asio::buffer(unread_), error);
            unread_.erase(0, used);
            if (error && error != http::error::need_more) return std::nullopt;
            if (parser.is_done()) break;
            if (!error && used > 0) continue;
        }
        const long n = receive(chunk, sizeof chunk, deadline);
        if (n < 0) return std::nullopt;
        if (n == 0) {
            // Closed before any byte of an answer: none (Beast asserts on an eof with nothing read).
            if (!parser.got_some()) return std::nullopt;
            boost::beast::error_code error;
            parser.put_eof(error);
            if (error || !parser.is_done()) return std::nullopt;
            break;
        }
        unread_.append(chunk, static_cast<std::size_t>(n));
    }
    auto message = parser.release();
    HttpAnswer answer;
    answer.status = static_cast<int>(message.result_int());
    for (const auto& field : message) answer.headers.insert(field.name_string(), field.value());
    answer.body = std::move(message.body());
    return answer;
}

std::string TestConnection::readUntil(std::string_view needle, std::chrono::milliseconds timeout,
                                      bool& found) {
    const auto deadline = Clock::now() + timeout;
    char chunk[4096];
    found = false;
    for (;;) {
        if (auto at = unread_.find(needle); at != std::string::npos) {
            found = true;
            std::string text = unread_.substr(0, at + needle.size());
            unread_.erase(0, at + needle.size());
            return text;
        }
        const long n = receive(chunk, sizeof chunk, deadline);
        if (n <= 0) return std::exchange(unread_, {});
        unread_.append(chunk, static_cast<std::size_t>(n));
    }
}

bool TestConnection::closedWithin(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    char chunk[4096];
    for (;;) {
        const long n = receive(chunk, sizeof chunk, deadline);
        if (n == 0) return true;
        if (n < 0) return false;
    }
}

std::string request(std::string_view method, std::string_view target, std::string_view body,
                    std::string_view extraHeaders, bool keepAlive) {
    std::string text;
    text += method;
    text += ' ';
    text += target;
    text += " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    text += keepAlive ? "" : "Connection: close\r\n";
    text += extraHeaders;
    if (!body.empty() || method == "POST") text += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    text += "\r\n";
    text += body;
    return text;
}

std::optional<HttpAnswer> get(std::uint16_t port, std::string_view target, std::string_view extraHeaders) {
    TestConnection c(port);
    if (!c.send(request("GET", target, {}, extraHeaders))) return std::nullopt;
    return c.readAnswer();
}

std::optional<HttpAnswer> post(std::uint16_t port, std::string_view target, std::string_view body,
                               std::string_view extraHeaders) {
    TestConnection c(port);
    if (!c.send(request("POST", target, body, extraHeaders))) return std::nullopt;
    return c.readAnswer();
}

}  // namespace vivaref::server::testing
