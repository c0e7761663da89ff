// The HTTP messages the server reads and writes (Boost.Beast, HTTP/1.1),
// and the answers every route shares: JSON with a status, and the JSON
// error {"error": CODE, "message": SENTENCE} of every 4xx and 5xx.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "engine/message.hpp"

namespace vivaref::server {

namespace http = boost::beast::http;

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

// The content security policy of the web pages' files (README "Private by
// default", NOTES.md "Framing and the content security policy"): scripts,
// styles, fetches and event streams from this origin only, no inline script
// or style, images from here and the blob: URLs of the players' QR codes, no
// plugins, no <base>, and no other site may frame a page (clickjacking).
inline constexpr std::string_view kPagePolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
// Of every other answer (JSON, the QR codes, errors): it loads nothing and is framed nowhere.
inline constexpr std::string_view kAnswerPolicy = "default-src 'none'; frame-ancestors 'none'";

// Sets Content-Security-Policy (`policy`) and X-Frame-Options: DENY (for
// browsers older than frame-ancestors) on `response`.
void setFramingHeaders(Response& response, std::string_view policy = kAnswerPolicy);

// A response to `request` (its HTTP version and keep-alive) with a JSON body.
Response jsonResponse(const Request& request, http::status status, const nlohmann::json& body);
// The same with a body that already is JSON text.
Response jsonTextResponse(const Request& request, http::status status, std::string body);
// A JSON error. `request` may be null when the request could not be read:
// the answer is then HTTP/1.1 and closes the connection.
Response errorResponse(const Request* request, http::status status, std::string_view code,
                       std::string_view message);
// The same with what it says as a message (the body's "says": web-ui/API.md).
Response errorResponse(const Request& request, http::status status, std::string_view code,
                       std::string_view message, const engine::Message& says);

// A target's path or query text with its %XX escapes decoded (and `+` as a
// space in a query's names and values); nothing when an escape is broken.
// By hand: Debian 12's Boost (1.74) has no Boost.URL and Beast decodes
// nothing of a target.
std::optional<std::string> percentDecoded(std::string_view text, bool plusIsSpace = false);

}  // namespace vivaref::server
