// The guided set-up's service (HostSetup) without a daemon: what it writes
// (setupResult, exampleProfile), and its places step fed by hand on a
// ManualClock with serve's hooks faked: refusals, a swapped pair, a coupled
// pair chosen, one reader claimed by two places refused, and a stop that
// puts the castle back.
#include <doctest/doctest.h>

#include "daemon/server/host_setup.hpp"

using namespace vivaref;
using namespace vivaref::server;
using nlohmann::json;

namespace {

config::CastleConfig threeReaders() {
    config::CastleConfig c;
    for (int p = 0; p < 3; ++p) {
        config::ReaderConfig r;
        r.name = "r" + std::to_string(p);
        r.place = std::to_string(p);
        r.bus = "/dev/spidev0.0";
        r.chipSelect = config::GpioLine{"gpiochip0", static_cast<unsigned>(20 + p)};
        c.readers.push_back(r);
    }
    config::StationConfig s;
    s.yes = config::GpioPin{{"gpiochip2", 0}, true};
    s.no = config::GpioPin{{"gpiochip2", 1}, true};
    c.stations.push_back(s);
    return c;
}

struct FakeServe {
    int tries = 0, backs = 0, saves = 0;
    std::optional<engine::Message> busy;
    config::CastleConfig inForce = threeReaders();
    CastleInForce castle;
    std::optional<config::CastleConfig> lastSaved;
    HostSetupHooks hooks() {
        HostSetupHooks h;
        h.inForce = [this](config::CastleConfig& config) {
            config = inForce;
            return ServiceAnswer::ok();
        };
        h.castleInForce = [this] { return castle; };
        h.putAside = [] { return ServiceAnswer::ok(); };
        h.busy = [this] { return busy; };
        h.tryOn = [this](const config::CastleConfig&) {
            ++tries;
            return ServiceAnswer::ok();
        };
        h.backToInForce = [this] { ++backs; };
        h.walkSettings = [](const config::CastleConfig& c) {
            HostSelfTestSettings s;
            s.castle = setup::walkCastleOf(c, c.layout());
            return s;
        };
        h.preview = [](const config::CastleConfig&) {
            return std::pair<std::string, config::ConfigProblems>{"", {}};
        };
        h.saveAndApply = [this](const config::CastleConfig& config) {
            ++saves;
            lastSaved = config;
            return ServiceAnswer::ok();
        };
        return h;
    }
};

// Every reader scanned once, `seeing` holding the tag, at 20 ms steps for `ms`.
void scanFor(HostSetup& setup, drivers::ManualClock& clock, const std::set<drivers::ReaderIndex>& seeing,
             int ms) {
    const auto tag = drivers::TagUid::fromHex("04AABBCCDD1122");
    for (int t = 0; t < ms; t += 20) {
        clock.advance(std::chrono::milliseconds(20));
        for (drivers::ReaderIndex r = 0; r < 3; ++r)
            setup.rawScan(r, seeing.contains(r) ? drivers::TagSet{tag} : drivers::TagSet{}, clock.now());
    }
}

}  // namespace

TEST_CASE(
    "set-up result: readers under the places their tags were seen, a crossed key given the other's line") {
    const config::CastleConfig profile = threeReaders();
    setup::KeyCheck crossed;
    crossed.asked = {drivers::StationId{0}, drivers::VoteKey::Yes, std::nullopt};
    crossed.answered = setup::WalkKey{drivers::StationId{0}, drivers::VoteKey::No, std::nullopt};
    const auto out = setupResult(profile, {{"r1", "2"}, {"r2", "1"}}, {crossed});
    CHECK(out.readers[0].place == "0");
    CHECK(out.readers[1].place == "2");
    CHECK(out.readers[2].place == "1");
    CHECK(out.readers[1].chipSelect->line == 21);  // the wire stays the reader's
    REQUIRE(out.stations[0].yes);
    CHECK(out.stations[0].yes->gpio.text() == "gpiochip2:1");
    CHECK(out.stations[0].yes->activeLow);
}

TEST_CASE("the example profile: the example castle's sections over the table's own") {
    config::CastleConfig inForce = threeReaders();
    inForce.daemon.hostToken = "kept-Token-0123456789";
    const auto profile = exampleProfile(inForce);
    CHECK(profile.readers.size() == 28);
    CHECK(profile.edition == config::CastleEdition::Vive2024);
    CHECK(profile.stations.size() == 8);
    CHECK(profile.daemon.hostToken == "kept-Token-0123456789");
}

TEST_CASE(
    "set-up service: refusals, a swapped pair, a coupled pair chosen, a reader claimed twice, stopped") {
    drivers::ManualClock clock;
    FakeServe serve;
    HostSetup setup(serve.hooks(), clock);
    const json idle = setup.request("state", json::object(), false).body;
    CHECK(idle["running"] == false);
    CHECK(idle["started"] == false);
    CHECK(idle["castle"]["hardware"] == "sim");
    CHECK(setup.request("answer", {{"answer", "skip"}}, false).body["error"] == "not-running");
    CHECK(setup.request("start", json::object(), true).body["error"] == "game-in-progress");
    serve.busy = engine::Message("castle.config.checking");
    CHECK(setup.request("start", json::object(), false).body["says"]["code"] == "castle.config.checking");
    serve.busy.reset();
    CHECK(setup.request("start", {{"from", "nowhere"}}, false).outcome == ServiceAnswer::Outcome::BadRequest);
    CHECK(serve.tries == 0);

    REQUIRE(setup.request("start", {{"from", "in-force"}}, false).outcome == ServiceAnswer::Outcome::Ok);
    CHECK(serve.tries == 1);
    CHECK(setup.running());
    CHECK(setup.request("start", json::object(), false).body["error"] == "running");
    // An empty castle, then the tag over r0's spot seen by r1 only: r1 is under place 0.
    scanFor(setup, clock, {}, 100);
    scanFor(setup, clock, {1}, 700);
    json s = setup.state();
    CHECK(s["assigned"] == json{{"r1", "0"}});
    CHECK(s["spot"]["outcome"] == "clearing");
    // r1's spot: seen by r0 and r1 together, a coupling; r1 is place 0's already: refused.
    scanFor(setup, clock, {}, 100);
    scanFor(setup, clock, {0, 1}, 700);
    s = setup.state();
    CHECK(s["spot"]["outcome"] == "coupled");
    CHECK(s["answers"] == json{"choose", "retry", "skip"});
    CHECK(s["fix"]["says"]["code"] == "castle.fix.coupled");
    CHECK(setup.request("answer", {{"answer", "choose"}, {"reader", "r2"}}, false).outcome ==
          ServiceAnswer::Outcome::BadRequest);
    const auto claimed = setup.request("answer", {{"answer", "choose"}, {"reader", "r1"}}, false);
    CHECK(claimed.body["error"] == "claimed");
    CHECK(claimed.body["says"]["code"] == "castle.setup.claimed");
    CHECK(setup.state()["answers"] == json{"retry", "skip"});
    CHECK(setup.request("answer", {{"answer", "save"}}, false).body["error"] == "not-asked");
    // Retried: the host chooses r0 this time.
    REQUIRE(setup.request("answer", {{"answer", "retry"}}, false).outcome == ServiceAnswer::Outcome::Ok);
    scanFor(setup, clock, {}, 100);
    scanFor(setup, clock, {0, 1}, 700);
    REQUIRE(setup.request("answer", {{"answer", "choose"}, {"reader", "r0"}}, false).outcome ==
            ServiceAnswer::Outcome::Ok);
    s = setup.state();
    CHECK(s["assigned"] == json{{"r0", "1"}, {"r1", "0"}});
    CHECK(s["spot"]["reader"] == "r2");
    // Stopped: nothing saved, the castle put back.
    CHECK(serve.backs == 0);
    s = setup.request("stop", json::object(), false).body;
    CHECK(serve.backs == 1);
    CHECK(s["running"] == false);
    CHECK(s["prompt"]["says"]["code"] == "castle.setup.cancelled");
    CHECK_FALSE(setup.running());
}

TEST_CASE("this castle's readers: the file's readers, else the example's, on real hardware without a bench") {
    config::CastleConfig sim = threeReaders();
    sim.daemon.hardware = config::Hardware::Sim;
    sim.daemon.simBench = "/tmp/bench.txt";
    sim.daemon.hostToken = "kept-as-it-is-0123456789";
    const config::CastleConfig own = realProfile(sim);
    CHECK(own.daemon.hardware == config::Hardware::Real);
    CHECK(own.daemon.simBench.empty());
    CHECK(own.daemon.hostToken == sim.daemon.hostToken);
    REQUIRE(own.readers.size() == 3);
    CHECK(own.readers[2].name == "r2");
    config::CastleConfig bare = sim;
    bare.readers.clear();
    bare.stations.clear();
    const config::CastleConfig example = realProfile(bare);
    CHECK(example.daemon.hardware == config::Hardware::Real);
    CHECK(example.readers.size() == 28);
    CHECK(example.stations.size() == 8);
    CHECK(example.daemon.hostToken == sim.daemon.hostToken);
}

TEST_CASE("use-real: saved and applied between set-ups only, never on a castle already real or a fixed one") {
    drivers::ManualClock clock;
    FakeServe serve;
    HostSetup setup(serve.hooks(), clock);
    // During a game, or with --hardware: refused, nothing saved.
    CHECK(setup.request("use-real", json::object(), true).body["error"] == "game-in-progress");
    serve.castle.hardwareFixed = true;
    CHECK(setup.request("use-real", json::object(), false).body["error"] == "hardware-fixed");
    serve.castle.hardwareFixed = false;
    serve.busy = engine::Message("castle.config.checking");
    CHECK(setup.request("use-real", json::object(), false).body["error"] == "busy");
    serve.busy.reset();
    CHECK(serve.saves == 0);
    // Saved on the real readers, the answer with the castle in force.
    serve.castle.file = "/etc/vivaref/vivaref.ini";
    const ServiceAnswer used = setup.request("use-real", json::object(), false);
    CHECK(used.outcome == ServiceAnswer::Outcome::Ok);
    CHECK(used.body["castle"]["file"] == "/etc/vivaref/vivaref.ini");
    REQUIRE(serve.lastSaved);
    CHECK(serve.lastSaved->daemon.hardware == config::Hardware::Real);
    // Already real: said, not saved again.
    serve.inForce = *serve.lastSaved;
    const ServiceAnswer again = setup.request("use-real", json::object(), false);
    CHECK(again.body["error"] == "already-real");
    CHECK(serve.saves == 1);
    // A set-up running: no switch until it ends.
    REQUIRE(setup.request("start", json::object(), false).outcome == ServiceAnswer::Outcome::Ok);
    CHECK(setup.request("put-aside", json::object(), false).body["error"] == "running");
}
