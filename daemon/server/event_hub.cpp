#include "daemon/server/event_hub.hpp"

#include <algorithm>

namespace vivaref::server {

void EventHub::prune() {
    std::erase_if(subscribers_, [](const auto& s) { return s.expired(); });
}

bool EventHub::subscribe(const std::shared_ptr<EventSubscriber>& subscriber) {
    prune();
    if (subscribers_.size() >= maxSubscribers_) return false;
    subscribers_.push_back(subscriber);
    for (const auto& [kind, frame] : latest_) subscriber->deliver(kind, frame);
    return true;
}

void EventHub::unsubscribe(const EventSubscriber* subscriber) {
    std::erase_if(subscribers_, [&](const auto& s) {
        auto locked = s.lock();
        return !locked || locked.get() == subscriber;
    });
}

std::size_t EventHub::subscribers() {
    prune();
    return subscribers_.size();
}

std::string EventHub::frame(std::string_view kind, const nlohmann::json& data) {
    // One data line: dump() without indentation never holds a newline.
    std::string out = "event: ";
    out += kind;
    out += "\ndata: ";
    out += data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out += "\n\n";
    return out;
}

void EventHub::publish(std::string_view kind, const nlohmann::json& data) {
    std::string text = frame(kind, data);
    auto it = latest_.find(kind);
    if (it != latest_.end() && it->second == text) return;
    if (it == latest_.end()) it = latest_.emplace(std::string(kind), std::string()).first;
    it->second = std::move(text);
    // A subscriber may drop out while delivering (a failed write): work on a copy.
    const auto current = subscribers_;
    for (const auto& weak : current)
        if (auto s = weak.lock()) s->deliver(it->first, it->second);
}

void EventHub::keepAlive() {
    static const std::string kComment = ": keep-alive\n\n";
    const auto current = subscribers_;
    for (const auto& weak : current)
        if (auto s = weak.lock()) s->deliver("", kComment);
    prune();
}

}  // namespace vivaref::server
