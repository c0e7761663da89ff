// A deliberately plain HTTP client for the server's tests: blocking POSIX
// sockets on 127.0.0.1, every wait bounded by poll() with a deadline, so a
// test that goes wrong fails instead of hanging. It sends exactly the bytes
// a test gives (malformed ones included) and parses answers with Beast.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

namespace vivaref::server::testing {

using namespace std::chrono_literals;

struct HttpAnswer {
    int status = 0;
    boost::beast::http::fields headers;
    std::string body;
    nlohmann::json json() const { return nlohmann::json::parse(body, nullptr, false); }
    std::string header(std::string_view name) const;
};

class TestConnection {
public:
    explicit TestConnection(std::uint16_t port);
    ~TestConnection();
    TestConnection(TestConnection&& other) noexcept;
    TestConnection(const TestConnection&) = delete;
    TestConnection& operator=(const TestConnection&) = delete;
    TestConnection& operator=(TestConnection&& other) noexcept;

    bool connected() const { return fd_ >= 0; }
    // False when the peer has closed or the send fails.
    bool send(std::string_view bytes);
    // One answer; nullopt when the connection ends or the deadline passes first.
    std::optional<HttpAnswer> readAnswer(std::chrono::milliseconds timeout = 5000ms, bool head = false);
    // Reads until `needle` is in what was read since the last call; the text
    // read (also on failure). `found` says whether it came.
    std::string readUntil(std::string_view needle, std::chrono::milliseconds timeout, bool& found);
    // True when the server closes the connection within the deadline.
    bool closedWithin(std::chrono::milliseconds timeout);
    void shutdownSend();

private:
    // Up to `max` bytes, waiting at most until `deadline`; 0: closed; -1: timed out or failed.
    long receive(char* data, std::size_t max, std::chrono::steady_clock::time_point deadline);

    int fd_ = -1;
    std::string unread_;
};

// GET/POST with keep-alive off, one connection each.
std::optional<HttpAnswer> get(std::uint16_t port, std::string_view target,
                              std::string_view extraHeaders = {});
std::optional<HttpAnswer> post(std::uint16_t port, std::string_view target, std::string_view body,
                               std::string_view extraHeaders = "Content-Type: application/json\r\n");
std::string request(std::string_view method, std::string_view target, std::string_view body = {},
                    std::string_view extraHeaders = {}, bool keepAlive = false);

}  // namespace vivaref::server::testing
