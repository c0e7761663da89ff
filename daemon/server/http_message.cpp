#include "daemon/server/http_message.hpp"

#include "daemon/words/message_json.hpp"

namespace vivaref::server {

namespace {

// Headers of every answer: no caching of live state, no content sniffing, no framing.
void commonHeaders(Response& response) {
    response.set(http::field::server, "vivaref");
    response.set(http::field::cache_control, "no-store");
    response.set("X-Content-Type-Options", "nosniff");
    setFramingHeaders(response);
}

}  // namespace

void setFramingHeaders(Response& response, std::string_view policy) {
    response.set("Content-Security-Policy", policy);
    response.set("X-Frame-Options", "DENY");
}

Response jsonResponse(const Request& request, http::status status, const nlohmann::json& body) {
    Response response{status, request.version()};
    commonHeaders(response);
    response.set(http::field::content_type, "application/json; charset=utf-8");
    response.keep_alive(request.keep_alive());
    // Invalid UTF-8 from a client (echoed in a message) is replaced, never thrown.
    response.body() = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    response.prepare_payload();
    return response;
}

Response jsonTextResponse(const Request& request, http::status status, std::string body) {
    Response response{status, request.version()};
    commonHeaders(response);
    response.set(http::field::content_type, "application/json; charset=utf-8");
    response.keep_alive(request.keep_alive());
    response.body() = std::move(body);
    response.prepare_payload();
    return response;
}

Response errorResponse(const Request* request, http::status status, std::string_view code,
                       std::string_view message) {
    const nlohmann::json body = {{"error", code}, {"message", message}};
    if (request) return jsonResponse(*request, status, body);
    Response response{status, 11};
    commonHeaders(response);
    response.set(http::field::content_type, "application/json; charset=utf-8");
    response.keep_alive(false);
    response.body() = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    response.prepare_payload();
    return response;
}

Response errorResponse(const Request& request, http::status status, std::string_view code,
                       std::string_view message, const engine::Message& says) {
    return jsonResponse(
        request, status,
        nlohmann::json{{"error", code}, {"message", message}, {"says", words::messageJson(says)}});
}

namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::optional<std::string> percentDecoded(std::string_view text, bool plusIsSpace) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%') {
            if (i + 2 >= text.size()) return std::nullopt;
            const int hi = hexValue(text[i + 1]), lo = hexValue(text[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else if (text[i] == '+' && plusIsSpace) {
            out += ' ';
        } else {
            out += text[i];
        }
    }
    return out;
}

}  // namespace vivaref::server
