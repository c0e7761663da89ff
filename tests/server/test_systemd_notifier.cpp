// sd_notify against a fake systemd: a unix datagram socket the test makes,
// named by NOTIFY_SOCKET, as systemd does for Type=notify units.
#include <unistd.h>

#include <string>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <doctest/doctest.h>

#include "daemon/server/systemd_notifier.hpp"
#include "fake_systemd.hpp"

using namespace vivaref::server;
using namespace vivaref::server::testing;
using namespace std::chrono_literals;

TEST_CASE("without NOTIFY_SOCKET nothing is sent and nothing fails") {
    ScopedEnvironment env({{"NOTIFY_SOCKET", std::nullopt}, {"WATCHDOG_USEC", std::nullopt}});
    boost::asio::io_context io;
    SystemdNotifier notifier(io);
    CHECK_FALSE(notifier.watchdogInterval().has_value());
    notifier.ready("listening");
    notifier.startWatchdog();
    notifier.stopping();
    CHECK(io.poll() == 0);  // no timer was armed
}

TEST_CASE("READY=1 with a status, then WATCHDOG=1 at half of WATCHDOG_USEC, then STOPPING=1") {
    FakeSystemd systemd;
    ScopedEnvironment env(
        {{"NOTIFY_SOCKET", systemd.path()}, {"WATCHDOG_USEC", "100000"}, {"WATCHDOG_PID", std::nullopt}});
    boost::asio::io_context io;
    SystemdNotifier notifier(io);
    REQUIRE(notifier.watchdogInterval().has_value());
    CHECK(*notifier.watchdogInterval() == 50ms);

    notifier.ready("listening on 127.0.0.1:1");
    auto ready = systemd.receive(5000ms);
    REQUIRE(ready);
    CHECK(*ready == "READY=1\nSTATUS=listening on 127.0.0.1:1");

    auto work = boost::asio::make_work_guard(io);
    std::thread loop([&] { io.run(); });
    boost::asio::post(io, [&] { notifier.startWatchdog(); });
    int pets = 0;
    const auto start = std::chrono::steady_clock::now();
    while (pets < 3) {
        auto message = systemd.receive(5000ms);
        REQUIRE(message);
        CHECK(*message == "WATCHDOG=1");
        ++pets;
    }
    const auto elapsed = std::chrono::steady_clock::now() - start;
    // The first pet is at once, then one every 50 ms.
    CHECK(elapsed >= 90ms);
    boost::asio::post(io, [&] { notifier.stopping(); });
    for (;;) {
        auto message = systemd.receive(5000ms);
        REQUIRE(message);
        if (*message == "WATCHDOG=1") continue;  // one may have been on its way
        CHECK(*message == "STOPPING=1");
        break;
    }
    work.reset();
    loop.join();
}

TEST_CASE("WATCHDOG_PID naming another process turns the watchdog off") {
    FakeSystemd systemd;
    ScopedEnvironment env({{"NOTIFY_SOCKET", systemd.path()},
                           {"WATCHDOG_USEC", "100000"},
                           {"WATCHDOG_PID", std::to_string(::getpid() + 1)}});
    boost::asio::io_context io;
    SystemdNotifier notifier(io);
    CHECK_FALSE(notifier.watchdogInterval().has_value());
}
