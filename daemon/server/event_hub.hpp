// The live updates behind GET /api/events (server-sent events): each kind of
// event ("status", "leds") carries the whole latest state as one JSON line,
// so a page that missed one loses nothing and a slow page is sent only the
// latest of each kind (a subscriber coalesces what it could not write yet).
// A new subscriber gets the latest of each kind at once. The hub holds its
// subscribers weakly: a closed connection drops out by itself.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace vivaref::server {

class EventSubscriber {
public:
    virtual ~EventSubscriber() = default;
    // `frame` is ready-to-send text/event-stream; a later frame of the same
    // `kind` supersedes it if it is not written yet ("" for keep-alives).
    virtual void deliver(const std::string& kind, const std::string& frame) = 0;
};

class EventHub {
public:
    explicit EventHub(std::size_t maxSubscribers) : maxSubscribers_(maxSubscribers) {}

    // False when the hub is full (the caller answers 503).
    bool subscribe(const std::shared_ptr<EventSubscriber>& subscriber);
    void unsubscribe(const EventSubscriber* subscriber);
    std::size_t subscribers();

    // Sends `data` as event `kind` to every subscriber, unless it equals the
    // last one of that kind.
    void publish(std::string_view kind, const nlohmann::json& data);
    // A comment line: keeps proxies from closing an idle stream and finds dead peers.
    void keepAlive();

    // The text/event-stream frame of one event.
    static std::string frame(std::string_view kind, const nlohmann::json& data);

private:
    void prune();

    std::size_t maxSubscribers_;
    std::vector<std::weak_ptr<EventSubscriber>> subscribers_;
    std::map<std::string, std::string, std::less<>> latest_;  // kind -> frame
};

}  // namespace vivaref::server
