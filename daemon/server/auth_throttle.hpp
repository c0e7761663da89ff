// Wrong host secrets, counted per source address, so the secret cannot be
// guessed at the network's speed. The first few wrong secrets from an
// address (`freeFailures`) are answered as usual (a mistyped link); the
// last of them and each further wrong one close the address's requests
// that carry the host secret (the host's routes and the simulated castle's
// POSTs) for a while: 1 s, doubling, at most a minute. So with 5 free, the
// 6th wrong secret within the second is refused. While closed, such a request is answered 429 with
// Retry-After without its secret being looked at, even a right one (a
// guesser could otherwise tell a right secret from the speed of the
// answer); requests without a secret and other addresses are answered as
// usual, at once. Nothing waits: a refusal is an answer. A right secret
// clears the address's count; a count with no wrong secret for
// `forgetAfter` is forgotten. One journal line when an address is first
// slowed, and at most one per `logEvery` while it goes on, never one per
// guess. IPv6 addresses count by their /64 (one device may hold many).
// The table holds at most `maxAddresses`; when full, the address quiet for
// the longest is forgotten first. Time is an input: every call takes `now`.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>

#include <boost/asio/ip/address.hpp>

namespace vivaref::server {

struct AuthThrottleOptions {
    int freeFailures = 5;
    std::chrono::milliseconds firstDelay{1'000};
    std::chrono::milliseconds maxDelay{60'000};
    std::chrono::milliseconds forgetAfter{10 * 60'000};
    std::chrono::milliseconds logEvery{10 * 60'000};
    std::size_t maxAddresses = 1024;
};

class AuthThrottle {
public:
    using Clock = std::chrono::steady_clock;

    // Lines go to `log` ("vivaref serve: ..."); null: nowhere.
    explicit AuthThrottle(AuthThrottleOptions options = {}, std::ostream* log = nullptr);

    // Before a request with the host secret from `peer` is looked at: how
    // long it must wait (nullopt: answer it now).
    std::optional<std::chrono::milliseconds> closedFor(const boost::asio::ip::address& peer,
                                                       Clock::time_point now);
    // The request from `peer` had a wrong (or no) host secret.
    void failed(const boost::asio::ip::address& peer, Clock::time_point now);
    // The request from `peer` had the right one.
    void succeeded(const boost::asio::ip::address& peer);

    std::size_t addresses() const { return table_.size(); }

private:
    using Key = std::array<std::uint8_t, 16>;
    struct Record {
        int failures = 0;  // wrong secrets since the burst began
        int refused = 0;   // requests refused while closed
        Clock::time_point firstFailure;
        Clock::time_point lastFailure;
        Clock::time_point closedUntil;
        std::optional<Clock::time_point> loggedAt;
    };

    static Key keyOf(const boost::asio::ip::address& peer);
    Record& recordFor(const Key& key, Clock::time_point now);
    void say(const boost::asio::ip::address& peer, const Record& record, std::chrono::milliseconds delay,
             Clock::time_point now);

    AuthThrottleOptions options_;
    std::ostream* log_;
    std::map<Key, Record> table_;
};

// "12 s" for the Retry-After header and the messages: whole seconds, rounded up, at least 1.
std::int64_t wholeSeconds(std::chrono::milliseconds delay);

}  // namespace vivaref::server
