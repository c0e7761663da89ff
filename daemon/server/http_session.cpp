#include "daemon/server/http_session.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/write.hpp>

namespace vivaref::server {

namespace net = boost::asio;
namespace beast = boost::beast;
using beast::error_code;

namespace {

// Retry after a second when the stream breaks (EventSource's own default is 3 s).
constexpr std::string_view kEventStreamHead =
    "HTTP/1.1 200 OK\r\n"
    "Server: vivaref\r\n"
    "Content-Type: text/event-stream; charset=utf-8\r\n"
    "Cache-Control: no-store\r\n"
    "X-Content-Type-Options: nosniff\r\n"
    "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n"
    "X-Frame-Options: DENY\r\n"
    "X-Accel-Buffering: no\r\n"
    "Connection: close\r\n"
    "\r\n"
    "retry: 1000\n\n";

bool isParseError(const error_code& error) {
    return error.category() == beast::http::make_error_code(http::error::bad_method).category();
}

// RFC 7230 section 3.3.3: what a request's Transfer-Encoding allows. Beast
// reads a body as chunked when the last coding is chunked, and a request
// whose last coding is another as having no body at all, which would take
// the body's bytes for the next request (request smuggling behind a proxy
// that reads it otherwise). Only one coding is read here: chunked, once.
std::optional<Response> transferCodingRefusal(const Request& request) {
    std::vector<std::string> codings;
    const auto [from, to] = request.equal_range(http::field::transfer_encoding);
    for (auto field = from; field != to; ++field) {
        const std::string_view value = field->value();
        std::size_t at = 0;
        while (at <= value.size()) {
            const auto comma = std::min(value.find(',', at), value.size());
            std::string_view coding = value.substr(at, comma - at);
            coding = coding.substr(0, coding.find(';'));  // its parameters
            const auto first = coding.find_first_not_of(" \t");
            if (first != std::string_view::npos) {
                coding = coding.substr(first, coding.find_last_not_of(" \t") - first + 1);
                std::string lower(coding);
                for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                codings.push_back(std::move(lower));
            }
            at = comma + 1;
        }
    }
    if (request.find(http::field::transfer_encoding) == request.end()) return std::nullopt;
    if (codings.empty() || codings.back() != "chunked")
        return errorResponse(
            nullptr, http::status::bad_request, "bad-request",
            "the request's Transfer-Encoding does not end in chunked, so its length is unknown");
    if (std::count(codings.begin(), codings.end(), "chunked") > 1)
        return errorResponse(nullptr, http::status::bad_request, "bad-request",
                             "the request's Transfer-Encoding names chunked more than once");
    if (codings.size() > 1)
        return errorResponse(nullptr, http::status::not_implemented, "not-implemented",
                             "this server reads no transfer coding but chunked");
    return std::nullopt;
}

}  // namespace

HttpSession::HttpSession(net::ip::tcp::socket socket, std::shared_ptr<SessionContext> context,
                         net::ip::address client, bool trusted)
    : stream_(std::move(socket)),
      context_(std::move(context)),
      client_(client),
      trusted_(trusted),
      viaProxy_(context_->proxies.contains(client)),
      peer_(client),
      requestTimer_(stream_.get_executor()),
      since_(std::chrono::steady_clock::now()),
      lingerTimer_(stream_.get_executor()) {
    if (viaProxy_) trusted_ = false;  // a proxy carries everyone's requests: trust is per request
}

HttpSession::~HttpSession() {
    // Only the shared context here: the router and the hub may be gone when
    // the loop is torn down with this session's handlers still queued.
    if (state_ == State::Streaming) --context_->eventStreams;
    context_->sessions.erase(this);
}

void HttpSession::start() {
    context_->sessions.insert(this);
    readRequest();
}

ConnectionView HttpSession::view() const {
    ConnectionView view{client_, trusted_, Activity::Idle, since_};
    if (state_ == State::Lingering || state_ == State::Closed) view.activity = Activity::Lingering;
    if (state_ == State::Streaming) view.activity = Activity::Streaming;
    return view;
}

void HttpSession::close() {
    if (state_ == State::Closed) return;
    if (state_ == State::Streaming) --context_->eventStreams;
    state_ = State::Closed;
    error_code ignored;
    lingerTimer_.cancel();
    requestTimer_.cancel();
    stream_.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
    stream_.close();
}

void HttpSession::readRequest() {
    state_ = State::Reading;
    since_ = std::chrono::steady_clock::now();
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(context_->limits.maxHeaderBytes));
    parser_->body_limit(context_->limits.maxBodyBytes);
    // One deadline for the whole request, header and body. When it passes,
    // the read is cancelled, not the socket closed, so that a request begun
    // can still be answered 408.
    stream_.expires_never();
    readTimedOut_ = false;
    headerScanned_ = 0;
    requestTimer_.expires_after(context_->limits.requestTimeout);
    requestTimer_.async_wait([self = shared_from_this()](error_code error) {
        if (error || self->state_ != State::Reading) return;
        self->readTimedOut_ = true;
        error_code ignored;
        self->stream_.socket().cancel(ignored);
    });
    readHeaderBytes();
}

// The header's bytes are read whole before Beast parses them: its parser
// unfolds an obsolete folded line (RFC 7230 section 3.2.4) into one value,
// which must be refused instead, and only the raw bytes still show it. A
// header larger than the limit is left to the parser, which refuses it.
void HttpSession::readHeaderBytes() {
    const auto data = buffer_.cdata();
    const std::string_view bytes(static_cast<const char*>(data.data()), data.size());
    // The end of the header: an empty line (CRLF, or a bare LF, which the parser refuses).
    std::size_t end = std::string_view::npos;
    for (std::size_t at = headerScanned_; at < bytes.size() && end == std::string_view::npos; ++at) {
        if (bytes[at] != '\n') continue;
        if (at + 1 < bytes.size() && bytes[at + 1] == '\n') end = at + 1;
        if (at + 2 < bytes.size() && bytes[at + 1] == '\r' && bytes[at + 2] == '\n') end = at + 2;
    }
    if (end != std::string_view::npos || bytes.size() > context_->limits.maxHeaderBytes) {
        const std::string_view header = bytes.substr(0, end == std::string_view::npos ? bytes.size() : end);
        for (std::size_t line = header.find('\n'); line != std::string_view::npos && line + 1 < header.size();
             line = header.find('\n', line + 1)) {
            if (header[line + 1] != ' ' && header[line + 1] != '\t') continue;
            ++context_->counters.badRequests;
            return write(errorResponse(nullptr, http::status::bad_request, "bad-request",
                                       "the request folds a header line onto the next (obsolete line "
                                       "folding, RFC 7230 section 3.2.4): write each field on one line"),
                         true);
        }
        return parseHeader();
    }
    // A line ending may be split across reads: look again from before it.
    headerScanned_ = bytes.size() >= 2 ? bytes.size() - 2 : 0;
    stream_.async_read_some(
        buffer_.prepare(4096), [self = shared_from_this()](error_code error, std::size_t n) {
            if (self->state_ == State::Closed) return;
            self->buffer_.commit(n);
            if (error == net::error::eof) {
                // Closed before a request began, or in the middle of one.
                return self->onRead(self->buffer_.size() == 0 ? error_code(http::error::end_of_stream)
                                                              : error_code(http::error::partial_message));
            }
            if (error) return self->onRead(error);
            self->readHeaderBytes();
        });
}

void HttpSession::parseHeader() {
    http::async_read_header(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](error_code error, std::size_t) { self->onHeader(error); });
}

// A client that sent "Expect: 100-continue" (curl does for bodies over 1 KiB)
// waits for a go-ahead before sending its body; the header passed the limits.
void HttpSession::onHeader(error_code error) {
    if (state_ == State::Closed) return;
    if (!error) {
        if (viaProxy_)
            adoptForwardedClient(parser_->get());
        else
            // Only a trusted proxy says how its client reached it: the
            // router may then believe what is left (https links in QR codes).
            parser_->get().erase("X-Forwarded-Proto");
        if (auto refusal = transferCodingRefusal(parser_->get())) {
            ++context_->counters.badRequests;
            return write(std::move(*refusal), true);
        }
    }
    if (error || parser_->is_done()) return onRead(error);
    auto readBody = [self = shared_from_this()] {
        http::async_read(self->stream_, self->buffer_, *self->parser_,
                         [self](error_code e, std::size_t) { self->onRead(e); });
    };
    const auto expect = parser_->get().find(http::field::expect);
    if (expect == parser_->get().end() || !beast::iequals(expect->value(), "100-continue")) return readBody();
    static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
    net::async_write(stream_, net::buffer(kContinue.data(), kContinue.size()),
                     [self = shared_from_this(), readBody](error_code e, std::size_t) {
                         if (self->state_ == State::Closed) return;
                         if (e) return self->onRead(e);
                         readBody();
                     });
}

void HttpSession::onRead(error_code error) {
    if (state_ == State::Closed) return;
    requestTimer_.cancel();
    if (readTimedOut_ && error == net::error::operation_aborted) {
        ++context_->counters.timedOut;
        // A request begun and not finished is told why it ends; a kept-alive
        // connection that sent nothing just closes.
        if (buffer_.size() == 0 && !parser_->got_some()) return close();
        return write(
            errorResponse(nullptr, http::status::request_timeout, "request-timeout",
                          "the request did not arrive whole within " +
                              std::to_string((context_->limits.requestTimeout.count() + 999) / 1000) + " s"),
            true);
    }
    // Closed before a request began: nothing to answer. Closed (for sending)
    // in the middle of one: it was cut short, and the client may still read
    // why (a half-closed socket reads on).
    if (error == http::error::end_of_stream) return close();
    if (error == http::error::partial_message) {
        ++context_->counters.badRequests;
        return write(errorResponse(nullptr, http::status::bad_request, "bad-request",
                                   "the request ended before it was whole"),
                     true);
    }
    if (error && isParseError(error)) return refuseUnreadable(error);
    if (error) return close();  // reset by the peer, aborted: nothing to answer

    ++context_->counters.requests;
    // A client over its pace waits for its answer (client_limits.hpp); the
    // connection counts as waiting meanwhile.
    if (!trusted_) {
        const auto wait = context_->rates.take(client_, std::chrono::steady_clock::now());
        if (wait > std::chrono::steady_clock::duration::zero()) {
            ++context_->paced;
            lingerTimer_.expires_after(wait);
            lingerTimer_.async_wait([self = shared_from_this()](error_code e) {
                if (!e && self->state_ != State::Closed) self->answer();
            });
            return;
        }
    }
    answer();
}

void HttpSession::answer() {
    const Request& request = parser_->get();
    ApiRouter::Reply reply;
    try {
        // The client's address (the forwarded one behind a trusted proxy),
        // for the router's count of wrong host secrets.
        reply = context_->router.handle(request, client_);
    } catch (const std::exception& e) {
        // Our bug, not the client's: answer, say so, keep serving.
        std::cerr << "vivaref serve: " << request.method_string() << " " << request.target()
                  << " failed: " << e.what() << "\n";
        reply.response = errorResponse(&request, http::status::internal_server_error, "internal",
                                       "the daemon could not answer this request (see its log)");
    }
    if (reply.eventStream) return startEventStream(request);
    if (reply.later) {
        // Answered from another thread, posted back to the loop: the
        // connection waits (it reads nothing meanwhile), and an answer that
        // finds it closed is dropped.
        state_ = State::Writing;
        since_ = std::chrono::steady_clock::now();
        reply.later([self = shared_from_this()](Response response) {
            if (self->state_ == State::Closed) return;
            if (!self->trusted_) self->context_->rates.charge(self->client_, response.body().size());
            self->write(std::move(response), false);
        });
        return;
    }
    noteHost(request, reply.response);
    if (!trusted_) context_->rates.charge(client_, reply.response.body().size());
    write(std::move(reply.response), false);
}

// Behind a trusted proxy, each request is its forwarded client's: the
// pace, the throttle and the connection cap count that address, and the
// host's device is trusted by it as it would be directly. The machine-itself
// trust never applies (the proxy's address is the machine's own).
void HttpSession::adoptForwardedClient(const Request& request) {
    std::vector<std::string_view> forwarded;
    const auto [from, to] = request.equal_range("X-Forwarded-For");
    for (auto field = from; field != to; ++field) forwarded.push_back(field->value());
    client_ = clientOf(context_->proxies.clientOf(peer_, forwarded));
    trusted_ = context_->trusted.contains(client_);
    if (trusted_) return;
    // A client over its cap gives up its own most idle connection, as a
    // newcomer would at accept (client_limits.hpp).
    std::vector<HttpSession*> others;
    std::vector<ConnectionView> views;
    for (auto* s : context_->sessions)
        if (s != this && s->open()) {
            others.push_back(s);
            views.push_back(s->view());
        }
    const auto admission = admit(views, client_, false, context_->limits.maxConnections,
                                 context_->limits.maxConnectionsPerClient);
    if (admission.kind == Admission::Kind::Evict) {
        others[admission.victim]->close();
        ++context_->counters.evicted;
    }
}

void HttpSession::refuseUnreadable(error_code error) {
    ++context_->counters.badRequests;
    if (error == http::error::header_limit)
        return write(errorResponse(nullptr, http::status::request_header_fields_too_large, "header-too-large",
                                   "the request's header is larger than " +
                                       std::to_string(context_->limits.maxHeaderBytes) + " bytes"),
                     true);
    if (error == http::error::body_limit)
        return write(errorResponse(nullptr, http::status::payload_too_large, "body-too-large",
                                   "the request's body is larger than " +
                                       std::to_string(context_->limits.maxBodyBytes) + " bytes"),
                     true);
    write(errorResponse(nullptr, http::status::bad_request, "bad-request",
                        "the request is not valid HTTP/1.1: " + error.message()),
          true);
}

// A connection that showed the host's secret (a host or sim route that
// did not refuse it) is the host's: trusted from now on, and so are the
// connections its address opens next (client_limits.hpp).
void HttpSession::noteHost(const Request& request, const Response& response) {
    if (trusted_ || request.find(http::field::authorization) == request.end()) return;
    const std::string_view target = request.target();
    if (!target.starts_with("/api/host/") && !target.starts_with("/api/sim/")) return;
    const auto status = response.result_int();
    if (status == 401 || status == 403 || status == 421 || status == 429) return;
    trusted_ = true;
    context_->trusted.add(client_);
}

void HttpSession::write(Response response, bool thenLinger) {
    state_ = State::Writing;
    response_ = std::move(response);
    const bool keepAlive = response_->keep_alive() && !thenLinger;
    if (!keepAlive) response_->keep_alive(false);
    serializer_.emplace(*response_);
    writeStarted_ = since_ = std::chrono::steady_clock::now();
    writeSome(keepAlive, thenLinger);
}

// The answer goes out as the client takes it: each write waits at most the
// stall deadline for the client to take some bytes, and the whole answer at
// most the write deadline.
void HttpSession::writeSome(bool keepAlive, bool thenLinger) {
    const auto now = std::chrono::steady_clock::now();
    const auto left = writeStarted_ + context_->limits.writeTimeout - now;
    const bool stallFirst = left > context_->limits.stallTimeout;
    stream_.expires_after(stallFirst ? std::chrono::steady_clock::duration(context_->limits.stallTimeout)
                                     : left);
    http::async_write_some(
        stream_, *serializer_,
        [self = shared_from_this(), keepAlive, thenLinger, stallFirst](error_code error, std::size_t) {
            if (self->state_ == State::Closed) return;
            if (error == beast::error::timeout && stallFirst) ++self->context_->counters.stalled;
            if (error || self->serializer_->is_done()) return self->onWritten(error, keepAlive, thenLinger);
            self->since_ = std::chrono::steady_clock::now();
            self->writeSome(keepAlive, thenLinger);
        });
}

void HttpSession::onWritten(error_code error, bool keepAlive, bool thenLinger) {
    if (state_ == State::Closed) return;
    serializer_.reset();
    response_.reset();
    if (error) {
        if (error == beast::error::timeout) ++context_->counters.timedOut;
        return close();
    }
    if (thenLinger) return linger();
    if (keepAlive) return readRequest();
    error_code ignored;
    stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ignored);
    close();
}

// The client may still be sending the request we refused; closing with its
// bytes unread would reset the connection and could destroy our answer
// before it is read. So: stop sending, read and drop for a bounded while.
void HttpSession::linger() {
    state_ = State::Lingering;
    error_code ignored;
    stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, ignored);
    lingerTimer_.expires_after(context_->limits.lingerTimeout);
    lingerTimer_.async_wait([self = shared_from_this()](error_code error) {
        if (!error) self->close();
    });
    struct Drain {
        std::shared_ptr<HttpSession> self;
        void operator()(error_code error, std::size_t n) {
            if (self->state_ == State::Closed) return;
            self->lingered_ += n;
            if (error || self->lingered_ > self->context_->limits.lingerBytes) return self->close();
            self->stream_.socket().async_read_some(net::buffer(self->scratch_), std::move(*this));
        }
    };
    stream_.socket().async_read_some(net::buffer(scratch_), Drain{shared_from_this()});
}

void HttpSession::startEventStream(const Request& request) {
    if (context_->eventStreams >= context_->limits.maxEventStreams)
        return write(errorResponse(&request, http::status::service_unavailable, "too-many-streams",
                                   "too many pages are following the game; try again later"),
                     false);
    state_ = State::Streaming;
    since_ = std::chrono::steady_clock::now();
    ++context_->eventStreams;
    // The head goes out first; what the hub hands over meanwhile waits in pending_.
    outgoing_ = kEventStreamHead;
    writingEvents_ = true;
    if (!context_->hub.subscribe(shared_from_this())) return close();
    stream_.expires_after(context_->limits.writeTimeout);
    net::async_write(stream_, net::buffer(outgoing_),
                     [self = shared_from_this()](error_code error, std::size_t) {
                         if (self->state_ == State::Closed) return;
                         if (error) {
                             if (error == beast::error::timeout) ++self->context_->counters.timedOut;
                             return self->close();
                         }
                         self->writingEvents_ = false;
                         self->writeEvents();
                     });
    watchPeer();
}

void HttpSession::deliver(const std::string& kind, const std::string& frame) {
    if (state_ != State::Streaming) return;
    pending_[kind] = frame;
    if (!writingEvents_) writeEvents();
}

void HttpSession::writeEvents() {
    if (pending_.empty()) return;
    outgoing_.clear();
    for (const auto& [kind, frame] : pending_) outgoing_ += frame;
    pending_.clear();
    writingEvents_ = true;
    stream_.expires_after(context_->limits.writeTimeout);
    net::async_write(stream_, net::buffer(outgoing_),
                     [self = shared_from_this()](error_code error, std::size_t) {
                         if (self->state_ == State::Closed) return;
                         self->writingEvents_ = false;
                         if (error) {
                             if (error == beast::error::timeout) ++self->context_->counters.timedOut;
                             return self->close();
                         }
                         self->writeEvents();
                     });
}

// An event stream only writes; a read that ends tells us the page has gone.
void HttpSession::watchPeer() {
    stream_.socket().async_read_some(net::buffer(scratch_),
                                     [self = shared_from_this()](error_code error, std::size_t) {
                                         if (self->state_ == State::Closed) return;
                                         if (error) return self->close();
                                         self->watchPeer();
                                     });
}

}  // namespace vivaref::server
