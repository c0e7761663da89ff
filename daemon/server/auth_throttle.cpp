#include "daemon/server/auth_throttle.hpp"

#include <algorithm>
#include <ostream>

#include "daemon/server/host_check.hpp"

namespace vivaref::server {

namespace ip = boost::asio::ip;
using std::chrono::milliseconds;

std::int64_t wholeSeconds(milliseconds delay) {
    return std::max<std::int64_t>(1, (delay.count() + 999) / 1000);
}

AuthThrottle::AuthThrottle(AuthThrottleOptions options, std::ostream* log) : options_(options), log_(log) {}

// IPv4 (also as ::ffff:a.b.c.d) by its address, IPv6 by its /64.
AuthThrottle::Key AuthThrottle::keyOf(const ip::address& peer) {
    Key key{};
    if (peer.is_v4() || peer.to_v6().is_v4_mapped()) {
        const auto v4 = peer.is_v4() ? peer.to_v4() : ip::make_address_v4(ip::v4_mapped, peer.to_v6());
        const auto bytes = v4.to_bytes();
        key[10] = key[11] = 0xff;
        std::copy(bytes.begin(), bytes.end(), key.begin() + 12);
        return key;
    }
    const auto bytes = peer.to_v6().to_bytes();
    std::copy(bytes.begin(), bytes.begin() + 8, key.begin());
    return key;
}

std::optional<milliseconds> AuthThrottle::closedFor(const ip::address& peer, Clock::time_point now) {
    const auto found = table_.find(keyOf(peer));
    if (found == table_.end() || now >= found->second.closedUntil) return std::nullopt;
    ++found->second.refused;
    return std::chrono::ceil<milliseconds>(found->second.closedUntil - now);
}

AuthThrottle::Record& AuthThrottle::recordFor(const Key& key, Clock::time_point now) {
    if (auto found = table_.find(key); found != table_.end()) {
        // A new burst after a quiet while: the old one is forgotten.
        if (now - found->second.lastFailure >= options_.forgetAfter) found->second = Record{};
        return found->second;
    }
    if (table_.size() >= options_.maxAddresses) {
        std::erase_if(table_, [&](const auto& entry) {
            return now - entry.second.lastFailure >= options_.forgetAfter && now >= entry.second.closedUntil;
        });
        if (table_.size() >= options_.maxAddresses) {
            const auto quietest = std::min_element(
                table_.begin(), table_.end(),
                [](const auto& a, const auto& b) { return a.second.lastFailure < b.second.lastFailure; });
            table_.erase(quietest);
        }
    }
    return table_[key];
}

void AuthThrottle::failed(const ip::address& peer, Clock::time_point now) {
    Record& record = recordFor(keyOf(peer), now);
    if (record.failures == 0) record.firstFailure = now;
    ++record.failures;
    record.lastFailure = now;
    // The last free one already closes the address: the next guess within
    // the delay is the first refused (5 free: the 6th gets 429).
    const int over = record.failures - options_.freeFailures + 1;
    if (over <= 0) return;
    // 1 s, 2 s, 4 s... up to the cap (the shift stops before it can overflow).
    milliseconds delay = options_.maxDelay;
    if (over <= 30)
        delay = std::min(options_.maxDelay, options_.firstDelay * (std::int64_t{1} << (over - 1)));
    record.closedUntil = now + delay;
    if (!record.loggedAt || now - *record.loggedAt >= options_.logEvery) {
        record.loggedAt = now;
        say(peer, record, delay, now);
    }
}

void AuthThrottle::succeeded(const ip::address& peer) { table_.erase(keyOf(peer)); }

void AuthThrottle::say(const ip::address& peer, const Record& record, milliseconds delay,
                       Clock::time_point now) {
    if (!log_) return;
    const auto span = std::chrono::duration_cast<milliseconds>(now - record.firstFailure);
    *log_ << "vivaref serve: " << record.failures << " wrong host secrets from " << addressName(peer)
          << " in " << wholeSeconds(span) << " s";
    if (record.refused > 0) *log_ << " (and " << record.refused << " requests refused while slowed)";
    *log_ << "; its host requests are refused for " << wholeSeconds(delay)
          << " s after each further wrong one, growing to " << wholeSeconds(options_.maxDelay) << " s\n";
    log_->flush();
}

}  // namespace vivaref::server
