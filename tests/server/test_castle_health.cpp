// The HealthRig page's model (daemon/server/castle_health.hpp) and its route,
// GET /api/host/castle: on the simulated castle of `serve --hardware=sim`
// in virtual time (a silenced reader, a tag also read by another reader),
// by hand-fed scans (unknown and garbled reads, reads per second), and the
// route's privacy (no secret, a player's token).
#include <algorithm>
#include <string>

#include <doctest/doctest.h>

#include "daemon/castle/real_castle.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/config/sim_bench.hpp"
#include "daemon/server/castle_report.hpp"
#include "table_fixture.hpp"
#include "temp_directory.hpp"

using namespace vivaref;
using namespace vivaref::server;
using drivers::Timestamp;
using nlohmann::json;
using vivaref::server::testing::Table;

namespace {

constexpr const char* kHealthSecret = "castle-health-Secret-42";

// The table fixture with the castle's health watching its table, and a
// router that answers /api/host/castle behind the host's secret.
struct HealthRig {
    explicit HealthRig(const std::filesystem::path& db) : t(db), health(t.table.table()) {
        t.table.table().attach(health);
        RouterOptions options;
        options.hostToken = kHealthSecret;
        options.castle = [this] {
            return castleReport(health, t.table.table(), &t.castle, simulatedWiring(), t.clock.now());
        };
        router.emplace(t.table, t.files, std::move(options));
    }

    std::pair<int, json> call(http::verb method, const std::string& target, const std::string& bearer,
                              const json& body = nullptr) {
        Request r{method, target, 11};
        if (!bearer.empty()) r.set(http::field::authorization, "Bearer " + bearer);
        if (!body.is_null()) {
            r.set(http::field::content_type, "application/json");
            r.body() = body.dump();
        }
        r.prepare_payload();
        auto reply = router->handle(r);
        return {static_cast<int>(reply.response.result_int()), json::parse(reply.response.body())};
    }
    json report() {
        auto [status, body] = call(http::verb::get, "/api/host/castle", kHealthSecret);
        REQUIRE(status == 200);
        return body;
    }
    static const json& reader(const json& report, const std::string& name) {
        const auto& readers = report["readers"];
        const auto found =
            std::find_if(readers.begin(), readers.end(), [&](const json& r) { return r["name"] == name; });
        REQUIRE(found != readers.end());
        return *found;
    }
    drivers::ReaderIndex index(const std::string& name) const {
        return *t.castle.layout().findReader(drivers::ReaderId{name});
    }

    Table t;
    CastleHealth health;
    std::optional<ApiRouter> router;
};

drivers::TagUid healthTag(const char* slug) { return drivers::simulatedTagUid(slug); }

// A classic castle of MFRC522s, reader rP under place P on chip-select line
// gpiochip0:(20+P), station 0's keys, played by the simulated castle on a
// bench file (config/sim_bench.hpp) as `serve --hardware=sim` plays it.
struct BenchHealthRig {
    explicit BenchHealthRig(const std::string& benchText)
        : config(castleConfig()),
          bench(benchOf(benchText)),
          castle(castleOn(config, bench, clock)),
          core(clock, nullptr, castle.layout(), {}, castle::offerOf<castle::HandOffer>(castle)),
          loop(castle, core, clock),
          health(core.table()),
          wiring(castleWiringOf(config)) {
        core.table().attach(health);
        loop.start();
    }
    static config::CastleConfig castleConfig() {
        std::string text = "[daemon]\nhardware = sim\n";
        for (int p = 0; p <= 6; ++p)
            text += "[reader.r" + std::to_string(p) + "]\nplace = " + std::to_string(p) +
                    "\nbus = /dev/spidev0.1\nchip_select = gpiochip0:" + std::to_string(20 + p) + "\n";
        text += "[station.0]\nyes = gpiochip2:0\nno = gpiochip2:1\n";
        auto check = config::checkCastleConfigText(text, "castle.ini");
        for (const auto& p : check.problems) FAIL(p.text());
        return check.config;
    }
    static config::SimBench benchOf(const std::string& text) {
        config::ConfigProblems problems;
        auto out = config::parseSimBench(text, "bench.txt", problems);
        for (const auto& p : problems) FAIL(p.text());
        return out;
    }
    static castle::SimulatedCastle castleOn(const config::CastleConfig& config, const config::SimBench& bench,
                                            const drivers::LoopClock& clock) {
        auto layout = castle::realBoardLayout(config);
        auto options = castle::simulatedCastleOptions(config, layout);
        options.bench = &bench;
        return castle::SimulatedCastle(std::move(layout), clock, std::move(options));
    }
    void runFor(Timestamp span) {
        const std::chrono::microseconds until = clock.now() + span;
        while (clock.nowMicros() < until) clock.set(std::min(loop.step(), until));
    }
    json report() { return castleReport(health, core.table(), &castle, wiring, clock.now()); }

    drivers::ManualClock clock;
    config::CastleConfig config;
    config::SimBench bench;
    castle::SimulatedCastle castle;
    TableCore core;
    TableLoop loop;
    CastleHealth health;
    CastleWiring wiring;
};

}  // namespace

TEST_CASE(
    "castle health: every reader answers on the healthy simulated castle; a tag is seen by its reader") {
    TempDirectory dir;
    HealthRig c(dir / "games.sqlite");
    REQUIRE(c.t.castle.put(healthTag("odessa"), {"3"}));
    c.t.runFor(Timestamp(3000));
    const json report = c.report();
    REQUIRE(report["readers"].size() == c.t.castle.layout().readerCount());
    for (const auto& r : report["readers"]) {
        CHECK(r["answers"] == true);
        CHECK(r["state"] == "answers");
        CHECK(r["failed"]["count"] == 0);
        CHECK(r["reads_per_second"].get<double>() > 5.0);
        // The simulated castle's chips say what they are: a genuine chip, no clone.
        REQUIRE(r["chip"].is_object());
        CHECK(r["chip"]["clone"] == false);
        CHECK_FALSE(r["chip"]["model"].get<std::string>().empty());
    }
    const json& floor3 = HealthRig::reader(report, "floor3");
    CHECK(floor3["place"] == "3");
    REQUIRE(floor3["tags"].size() == 1);
    CHECK(floor3["tags"][0]["character"] == "odessa");
    CHECK(floor3["tags"][0]["uid"] == healthTag("odessa").toHex());
    CHECK(HealthRig::reader(report, "floor2")["tags"].empty());
    CHECK(report["cross_reads"].empty());
    CHECK(report["every_seat"] == true);
}

TEST_CASE("castle health: a silenced reader does not answer, and says how it failed; restored, it answers") {
    TempDirectory dir;
    HealthRig c(dir / "games.sqlite");
    c.t.runFor(Timestamp(1000));
    c.t.castle.board().silence(c.index("floor4"));
    c.t.runFor(Timestamp(3000));
    json report = c.report();
    const json& floor4 = HealthRig::reader(report, "floor4");
    CHECK(floor4["answers"] == false);
    CHECK(floor4["state"] == "silent");
    CHECK(floor4["failed"]["count"].get<int>() >= 2);
    CHECK(floor4["failed"]["kind"] == "no-answer");
    CHECK_FALSE(floor4["failed"]["message"].get<std::string>().empty());
    CHECK(floor4["reads_per_second"] == 0.0);
    CHECK(floor4["pipeline"]["failing"] == true);
    // Its neighbours are not blamed.
    CHECK(HealthRig::reader(report, "floor3")["state"] == "answers");
    CHECK(HealthRig::reader(report, "floor5")["state"] == "answers");

    c.t.castle.board().restore(c.index("floor4"));
    c.t.runFor(Timestamp(12000));  // its backoff (up to 10 s) ends, and it is read again
    report = c.report();
    CHECK(HealthRig::reader(report, "floor4")["answers"] == true);
    CHECK(HealthRig::reader(report, "floor4")["state"] == "answers");
}

TEST_CASE(
    "castle health: a tag also read by another reader is a cross-read pair, with the tag and how often") {
    TempDirectory dir;
    HealthRig c(dir / "games.sqlite");
    const auto tag = healthTag("alighiero");
    REQUIRE(c.t.castle.put(tag, {"2"}));
    c.t.castle.board().setCrosstalk(tag, c.index("floor3"), 1.0);
    c.t.runFor(Timestamp(3000));
    json report = c.report();
    REQUIRE(report["cross_reads"].size() == 1);
    const json& pair = report["cross_reads"][0];
    CHECK(pair["readers"] == json{"floor2", "floor3"});
    CHECK(pair["places"] == json{"2", "3"});
    CHECK(pair["same_place"] == false);
    CHECK(pair["tag"]["character"] == "alighiero");
    CHECK(pair["count"].get<int>() >= 10);
    CHECK(pair["now"] == true);
    CHECK(HealthRig::reader(report, "floor2")["state"] == "cross-reads");
    CHECK(HealthRig::reader(report, "floor3")["state"] == "cross-reads");
    CHECK(HealthRig::reader(report, "floor1")["state"] == "answers");
    // Both see it now.
    CHECK(HealthRig::reader(report, "floor3")["tags"][0]["character"] == "alighiero");

    // The antennas moved apart: the pair is history after a while, the readers answer.
    c.t.castle.board().clearTagFaults(tag);
    c.t.runFor(Timestamp(4000));
    report = c.report();
    REQUIRE(report["cross_reads"].size() == 1);
    CHECK(report["cross_reads"][0]["now"] == false);
    CHECK(HealthRig::reader(report, "floor3")["state"] == "answers");
    CHECK(HealthRig::reader(report, "floor3")["tags"].empty());
}

TEST_CASE("castle health: unknown UIDs, garbled reads, reads per second and key presses, scan by scan") {
    TempDirectory dir;
    HealthRig c(dir / "games.sqlite");
    CastleHealth& h = c.health;
    const auto floor0 = c.index("floor0");
    const auto stray = drivers::TagUid::fromHex("04A1B2C3D4E5F6");
    // 20 reads a second for 2 s: the stray tag and Odessa's.
    Timestamp at{10000};
    for (int i = 0; i < 40; ++i, at += Timestamp(50))
        h.rawScan(floor0, drivers::TagSet{stray, healthTag("odessa")}, at);
    CHECK(h.reader(floor0).unknownReads == 40);
    REQUIRE(h.reader(floor0).unknown.size() == 1);
    CHECK(h.reader(floor0).unknown[0] == stray);
    CHECK(h.readsPerSecond(floor0, at) == doctest::Approx(40.0 / 2.75));
    // Garbage on the air: a Protocol failure is a garbled read and a failed scan.
    h.rawScan(floor0, drivers::ScanError{drivers::ScanErrorKind::Protocol, "reader floor0: bad CRC"}, at);
    CHECK(h.reader(floor0).garbled == 1);
    CHECK(h.reader(floor0).failed == 1);
    CHECK(h.recentFailures(floor0, at) == 1);
    CHECK(h.reader(floor0).tags.empty());
    // Five more strays: the last four kept, newest first.
    for (int i = 1; i <= 5; ++i) {
        const std::string hex = "04A1B2C3D4E5F" + std::to_string(i);
        h.rawScan(floor0, drivers::TagSet{drivers::TagUid::fromHex(hex)}, at += Timestamp(50));
    }
    REQUIRE(h.reader(floor0).unknown.size() == 4);
    CHECK(h.reader(floor0).unknown[0].toHex() == "04A1B2C3D4E5F5");
    // Quiet for 4 s: no reads a second, and it does not answer.
    CHECK(h.readsPerSecond(floor0, at + Timestamp(4000)) == 0.0);
    CHECK_FALSE(h.answers(floor0, at + Timestamp(4000)));
    CHECK(h.recentFailures(floor0, at + Timestamp(4000)) == 0);

    // Keys: the table's presses, by station and key.
    c.t.castle.press(drivers::StationId{1}, drivers::VoteKey::No);
    c.t.runFor(Timestamp(100));
    const json report = c.report();
    REQUIRE(report["presses"].size() == 1);
    CHECK(report["presses"][0]["seat"] == 1);
    CHECK(report["presses"][0]["key"] == "no");
    CHECK(report["presses"][0]["presses"] == 1);
}

TEST_CASE("castle health: the route is the host's: no secret, a wrong one or a player's token is refused") {
    TempDirectory dir;
    HealthRig c(dir / "games.sqlite");
    c.t.runFor(Timestamp(500));
    auto [none, noneBody] = c.call(http::verb::get, "/api/host/castle", "");
    CHECK(none == 401);
    CHECK(noneBody["error"] == "host-credential");
    CHECK(noneBody.dump().find("floor0") == std::string::npos);
    auto [wrong, wrongBody] = c.call(http::verb::get, "/api/host/castle", "not-the-secret");
    CHECK(wrong == 401);
    // A player's link is no host's.
    const json setup = {{"edition", "classic"}, {"seats", 3}};
    auto [started, game] = c.call(http::verb::post, "/api/host/new-game", kHealthSecret,
                                  {{"setup", setup}, {"players", {"Ann", "Bob", "Cy"}}});
    REQUIRE(started == 200);
    const std::string token = game["players"][0]["token"];
    auto [player, playerBody] = c.call(http::verb::get, "/api/host/castle", token);
    CHECK(player == 401);
    CHECK(playerBody.dump().find("floor0") == std::string::npos);
    // The public status says nothing of it either, and the host's answer works during the game.
    auto [posted, postedBody] = c.call(http::verb::post, "/api/host/castle", kHealthSecret, json::object());
    CHECK(posted == 405);
    c.t.runFor(Timestamp(1000));
    CHECK(c.report()["readers"].size() == c.t.castle.layout().readerCount());
}

TEST_CASE("castle health on a bench: a dead chip-select line, a clone, a coupled pair, the wires named") {
    BenchHealthRig rig(
        "no-chip gpiochip0:24\nversion gpiochip0:25 0x88\ncouple gpiochip0:21 gpiochip0:22\nstuck "
        "station.0.no\n");
    REQUIRE(rig.castle.put(healthTag("odessa"), {"1"}));
    rig.runFor(Timestamp(3000));
    const json report = rig.report();
    REQUIRE(report["readers"].size() == 7);
    const json& r0 = HealthRig::reader(report, "r0");
    CHECK(r0["state"] == "answers");
    CHECK(r0["chip"]["model"] == "MFRC522 v2.0");
    CHECK(r0["chip"]["clone"] == false);
    CHECK(r0["wiring"] ==
          json{{"type", "mfrc522"}, {"bus", "/dev/spidev0.1"}, {"chip_select", "gpiochip0:20"}});
    // Nothing on floor 4's line: silent, and no chip to name.
    const json& r4 = HealthRig::reader(report, "r4");
    CHECK(r4["state"] == "silent");
    CHECK(r4["chip"].is_null());
    CHECK(r4["failed"]["kind"] == "no-answer");
    // Floor 5's chip reads as any chip does, and says it is a clone.
    const json& r5 = HealthRig::reader(report, "r5");
    CHECK(r5["answers"] == true);
    CHECK(r5["state"] == "clone");
    CHECK(r5["chip"]["clone"] == true);
    CHECK(r5["chip"]["version"] == "0x88");
    // Floors 1 and 2 couple: the tag on floor 1 is read by both.
    REQUIRE(report["cross_reads"].size() == 1);
    CHECK(report["cross_reads"][0]["readers"] == json{"r1", "r2"});
    CHECK(report["cross_reads"][0]["tag"]["character"] == "odessa");
    CHECK(report["cross_reads"][0]["now"] == true);
    CHECK(HealthRig::reader(report, "r1")["state"] == "cross-reads");
    CHECK(HealthRig::reader(report, "r3")["state"] == "answers");
    // The configured station, its keys' lines, none pressed yet.
    REQUIRE(report["stations"].size() == 1);
    CHECK(report["stations"][0]["keys"]["yes"]["line"] == "gpiochip2:0");
    CHECK(report["stations"][0]["keys"]["no"]["presses"] == 0);
    // Station 0's No is stuck: it reads pressed now, and never gives a press.
    CHECK(report["stations"][0]["keys"]["no"]["down"] == true);
    CHECK(report["stations"][0]["keys"]["yes"]["down"] == false);
    CHECK(report["keys_down"] == json::array({json{{"seat", 0}, {"key", "no"}}}));
    CHECK(report["every_seat"] == false);
    rig.castle.press(drivers::StationId{0}, drivers::VoteKey::Yes);
    rig.runFor(Timestamp(100));
    const json pressed = rig.report();
    CHECK(pressed["stations"][0]["keys"]["yes"]["presses"] == 1);
    CHECK(pressed["stations"][0]["keys"]["yes"]["pressed_ms_ago"].get<int>() <= 100);
}
