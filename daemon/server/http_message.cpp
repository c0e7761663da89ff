#include "daemon/server/http_message.hpp"

namespace vivaref::server {

namespace {

// Headers of every answer: no caching of live state, no content sniffing.
void commonHeaders(Response& response) {
    response.set(http::field::server, "vivaref");
    response.set(http::field::cache_control, "no-store");
    response.set("X-Content-Type-Options", "nosniff");
}

}  // namespace

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

}  // namespace vivaref::server
