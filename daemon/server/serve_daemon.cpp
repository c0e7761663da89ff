#include "daemon/server/serve_daemon.hpp"

#include <csignal>
#include <ostream>
#include <sstream>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "daemon/server/loop_clock.hpp"
#include "daemon/server/simulated_table.hpp"
#include "daemon/server/systemd_notifier.hpp"
#include "daemon/server/web_server.hpp"
#include "daemon/store/store_error.hpp"

namespace vivaref::server {

namespace net = boost::asio;
using boost::system::error_code;

namespace {

std::string urlOf(const net::ip::tcp::endpoint& endpoint) {
    std::ostringstream url;
    url << "http://";
    if (endpoint.address().is_v6())
        url << '[' << endpoint.address().to_string() << ']';
    else
        url << endpoint.address().to_string();
    url << ':' << endpoint.port() << '/';
    return url.str();
}

// Advances the table every scan interval on the loop's steady clock. The
// next wake is planned from the last planned one, so the rhythm does not
// drift; after a stall (a suspended machine) it starts again from now.
class TableTimer {
public:
    TableTimer(net::io_context& io, SimulatedTable& table) : timer_(io), table_(table) {}
    void start() {
        next_ = std::chrono::steady_clock::now();
        arm();
    }
    void stop() {
        stopped_ = true;
        timer_.cancel();
    }

private:
    void arm() {
        next_ += table_.advanceEvery();
        const auto now = std::chrono::steady_clock::now();
        if (next_ < now - std::chrono::seconds(1)) next_ = now + table_.advanceEvery();
        timer_.expires_at(next_);
        timer_.async_wait([this](const error_code& error) {
            if (error || stopped_) return;
            table_.advance();
            arm();
        });
    }

    net::steady_timer timer_;
    SimulatedTable& table_;
    std::chrono::steady_clock::time_point next_;
    bool stopped_ = false;
};

}  // namespace

int serveSimulatedCastle(const ServeSettings& settings, std::ostream& out, std::ostream& err) {
    // The log first: without it no game may start.
    std::unique_ptr<store::GameStore> store;
    try {
        if (settings.database.has_parent_path())
            std::filesystem::create_directories(settings.database.parent_path());
        store =
            std::make_unique<store::GameStore>(settings.database, store::GameStore::Access::CreateIfMissing);
        store->setRawScansKept(settings.rawScansKept);
    } catch (const std::exception& e) {
        err << "vivaref serve: " << e.what() << "\n";
        return 2;
    }

    net::io_context io;
    SteadyLoopClock clock;
    simulation::RigOptions rig = settings.rig;
    rig.referee.wallAtZero =
        std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
    SimulatedTable table(clock, store.get(), std::move(rig));
    if (auto resumed = table.resumeUnfinished()) {
        if (resumed->ok)
            err << "vivaref serve: resumed game " << (resumed->game ? resumed->game->value : 0)
                << " from the log; the board is guided back to its last position\n";
        else
            err << "vivaref serve: could not resume the unfinished game: " << resumed->message << "\n";
    }

    WebServerOptions options;
    options.limits = settings.limits;
    options.router.hostToken = settings.hostToken;
    options.router.version = settings.version;
    options.webRoot = settings.webRoot;
    WebServer web(io, table, options);
    try {
        web.listen(settings.listen);
    } catch (const std::exception& e) {
        err << "vivaref serve: " << e.what() << "\n";
        return 2;
    }
    if (!web.files().rootExists())
        err << "vivaref serve: the web page's folder " << web.files().root()
            << " is missing: only the API answers\n";
    if (settings.hostToken.empty())
        err << "vivaref serve: no host token is set: anyone who reaches " << urlOf(web.localEndpoint())
            << " can run the game\n";
    const std::string url = urlOf(web.localEndpoint());
    out << "vivaref serve: listening on " << url << " (simulated castle: " << url << "sim.html)" << std::endl;

    SystemdNotifier systemd(io);
    std::string lastStatus = table.summaryLine();
    const int statusListener = table.onChange([&] {
        if (auto line = table.summaryLine(); line != lastStatus) {
            lastStatus = line;
            systemd.status(line);
        }
    });

    TableTimer timer(io, table);
    net::signal_set signals(io, SIGTERM, SIGINT);
    int signalled = 0;
    signals.async_wait([&](const error_code& error, int number) {
        if (error) return;
        signalled = number;
        systemd.stopping();
        timer.stop();
        web.stop();
        io.stop();
    });

    timer.start();
    systemd.ready("listening on " + url + "; " + lastStatus);
    systemd.startWatchdog();
    io.run();
    table.removeListener(statusListener);

    // Everything accepted was written as it came; what waits in memory (a
    // full disk) gets one more try.
    const auto health = store->flush();
    if (!health.durable) {
        err << "vivaref serve: " << health.waiting
            << " rows of the game log could not be written: " << health.problem << "\n";
        return 1;
    }
    err << "vivaref serve: stopped (" << (signalled == SIGINT ? "SIGINT" : "SIGTERM")
        << "), the game log is saved\n";
    return 0;
}

}  // namespace vivaref::server
