#include "daemon/server/systemd_notifier.hpp"

#include <cstring>
#include <iostream>

#include <systemd/sd-daemon.h>

namespace vivaref::server {

SystemdNotifier::SystemdNotifier(boost::asio::io_context& io) : timer_(io) {
    std::uint64_t usec = 0;
    // > 0: WATCHDOG_USEC is set (and WATCHDOG_PID, if set, is us).
    if (sd_watchdog_enabled(0, &usec) > 0 && usec > 0) interval_ = std::chrono::microseconds(usec / 2);
}

void SystemdNotifier::send(const std::string& state) {
    const int r = sd_notify(0, state.c_str());
    // < 0: the socket is there but refuses; worth one line, not a stop.
    if (r < 0) std::cerr << "vivaref serve: sd_notify failed: " << std::strerror(-r) << "\n";
}

void SystemdNotifier::ready(const std::string& status) { send("READY=1\nSTATUS=" + status); }

void SystemdNotifier::status(const std::string& status) { send("STATUS=" + status); }

void SystemdNotifier::stopping() {
    stopWatchdog();
    send("STOPPING=1");
}

void SystemdNotifier::startWatchdog() {
    if (!interval_ || petting_) return;
    petting_ = true;
    pet();
}

void SystemdNotifier::stopWatchdog() {
    petting_ = false;
    timer_.cancel();
}

void SystemdNotifier::pet() {
    send("WATCHDOG=1");
    timer_.expires_after(*interval_);
    timer_.async_wait([this](const boost::system::error_code& error) {
        if (!error && petting_) pet();
    });
}

}  // namespace vivaref::server
