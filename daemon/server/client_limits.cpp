#include "daemon/server/client_limits.hpp"

#include <algorithm>
#include <map>

namespace vivaref::server {

namespace {

using Address = boost::asio::ip::address;

// Whether a goes before b: its activity first, then the longer idle.
bool moreIdle(const ConnectionView& a, const ConnectionView& b) {
    if (a.activity != b.activity) return a.activity < b.activity;
    return a.since < b.since;
}

// The most idle of the connections `pick` accepts.
template <class Pick>
std::optional<std::size_t> mostIdleOf(const std::vector<ConnectionView>& open, Pick pick) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < open.size(); ++i)
        if (pick(open[i]) && (!best || moreIdle(open[i], open[*best]))) best = i;
    return best;
}

Admission evict(std::optional<std::size_t> victim) {
    if (!victim) return {Admission::Kind::Refuse, 0};
    return {Admission::Kind::Evict, *victim};
}

}  // namespace

Admission admit(const std::vector<ConnectionView>& open, const Address& client, bool trusted,
                std::size_t maxConnections, std::size_t maxPerClient) {
    std::map<Address, std::size_t> held;
    for (const auto& c : open) ++held[c.client];
    // Over its own cap: it replaces one of its own.
    if (!trusted && held[client] >= maxPerClient)
        return evict(mostIdleOf(open, [&](const ConnectionView& c) { return c.client == client; }));
    if (open.size() < maxConnections) return {};
    // Full: the client holding the most (untrusted first) gives one up.
    std::optional<Address> hog;
    std::size_t most = 0;
    for (const auto& entry : held) {
        // By name, not a structured binding: clang 14 (Debian 12's, the
        // fuzz build's) cannot capture a binding in a lambda.
        const Address& address = entry.first;
        const bool candidate = std::any_of(open.begin(), open.end(), [&](const ConnectionView& c) {
            return c.client == address && !c.trusted;
        });
        if (candidate && entry.second > most) {
            hog = address;
            most = entry.second;
        }
    }
    if (hog)
        return evict(
            mostIdleOf(open, [&](const ConnectionView& c) { return c.client == *hog && !c.trusted; }));
    // Only trusted connections are left: only a trusted newcomer may replace one.
    if (!trusted) return {Admission::Kind::Refuse, 0};
    return evict(mostIdleOf(open, [](const ConnectionView&) { return true; }));
}

std::optional<std::size_t> mostIdle(const std::vector<ConnectionView>& open) {
    return mostIdleOf(open, [](const ConnectionView& c) { return !c.trusted; });
}

Address clientOf(const Address& address) {
    if (address.is_v6() && address.to_v6().is_v4_mapped())
        return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, address.to_v6());
    return address;
}

RequestRates::Clock::duration RequestRates::take(const Address& client, Clock::time_point now) {
    // Full buckets are forgotten now and then: the map holds the clients of the last moments.
    if (buckets_.size() > 4096)
        std::erase_if(buckets_, [&](const auto& entry) {
            return entry.second.level +
                       std::chrono::duration<double>(now - entry.second.at).count() * perSecond_ >=
                   burst_;
        });
    auto [it, fresh] = buckets_.try_emplace(client, Bucket{burst_, now});
    Bucket& b = it->second;
    if (now > b.at) {
        b.level = std::min(burst_, b.level + std::chrono::duration<double>(now - b.at).count() * perSecond_);
        b.at = now;
    }
    // The debt is bounded: a client never waits more than a bucket's worth (2 s by default).
    b.level = std::max(b.level - 1, -burst_);
    if (b.level >= 0) return Clock::duration::zero();
    // In debt: the wait until the bucket is back to zero.
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(-b.level / perSecond_));
}

void RequestRates::charge(const Address& client, std::size_t answerBytes) {
    if (auto it = buckets_.find(client); it != buckets_.end())
        it->second.level = std::max(it->second.level - static_cast<double>(answerBytes / 65536), -burst_);
}

void TrustedClients::add(const Address& client) {
    recent_.erase(std::remove(recent_.begin(), recent_.end(), client), recent_.end());
    recent_.push_back(client);
    if (recent_.size() > keep_) recent_.erase(recent_.begin());
}

bool TrustedClients::contains(const Address& client) const {
    return std::find(recent_.begin(), recent_.end(), client) != recent_.end();
}

}  // namespace vivaref::server
