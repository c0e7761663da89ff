// Telling systemd how the daemon is (sd_notify): READY=1 once it listens,
// STATUS= lines as the game goes, STOPPING=1 on the way out, and WATCHDOG=1
// pets from a timer on the event loop, at half the interval systemd asks for
// (WatchdogSec= in the unit; WATCHDOG_USEC in the environment). The pets come
// from the loop itself, so a loop that hangs stops petting and systemd
// restarts the daemon. Without NOTIFY_SOCKET (not under systemd) every call
// does nothing.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

namespace vivaref::server {

class SystemdNotifier {
public:
    explicit SystemdNotifier(boost::asio::io_context& io);

    void ready(const std::string& status);
    void status(const std::string& status);
    void stopping();

    // Starts petting when systemd asked for a watchdog (idempotent).
    void startWatchdog();
    void stopWatchdog();
    // The pet interval, when systemd asked for a watchdog.
    std::optional<std::chrono::microseconds> watchdogInterval() const { return interval_; }

private:
    void send(const std::string& state);
    void pet();

    boost::asio::steady_timer timer_;
    std::optional<std::chrono::microseconds> interval_;
    bool petting_ = false;
};

}  // namespace vivaref::server
