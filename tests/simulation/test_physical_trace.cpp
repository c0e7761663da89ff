// Physical Favourites cards end to end, driven only by a trace: random
// complete games of every family become table scripts; the new game says
// "physical", every host deal carries placeholder cards instead of the real
// ones, the Ambition keeps are left to the referee, and whenever the
// referee asks for the revealed cards a `reveal` line enters the record's
// real ones. The game exported from the log must hold the real deals and
// replay to the record's result; its stored trace must replay to the same
// log. Seeds are fixed and shown on failure.
#include <doctest/doctest.h>

#include "daemon/simulation/simulation_rig.hpp"
#include "daemon/store/game_store.hpp"
#include "daemon/table/trace_recorder.hpp"
#include "daemon/trace/table_script.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "engine/chance.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/replay.hpp"
#include "engine/record/result_json.hpp"
#include "engine/record/setup_reader.hpp"
#include "tests/simulation/sim_helpers.hpp"

namespace vivaref::simtest {
namespace {

using nlohmann::json;

struct RoundCards {
    json favourites;
    json banished;                    // null without the Banished option
    std::map<int, std::string> kept;  // player -> Ambition card
};

// The real cards of each round, as the record dealt and kept them.
std::map<int, RoundCards> realCards(const std::string& record) {
    std::map<int, RoundCards> out;
    int round = 0;
    std::istringstream lines(record);
    for (std::string line; std::getline(lines, line);) {
        const auto j = json::parse(line);
        if (j.contains("deal")) {
            round = j["deal"]["round"].get<int>();
            out[round].favourites = j["deal"]["favourites"];
            out[round].banished = j["deal"].value("banished", json());
        } else if (j.contains("keep")) {
            out[round].kept[j["keep"]["player"].get<int>()] = j["keep"]["ambition"].get<std::string>();
        }
    }
    return out;
}

std::map<int, json> dealtFavourites(const std::string& record) {
    std::map<int, json> out;
    for (const auto& [round, cards] : realCards(record)) out[round] = cards.favourites;
    return out;
}

// The table script of `record` for a table with its own cards.
std::vector<trace::TraceLine> physicalScript(const std::string& record, const engine::RulesSpec& spec,
                                             std::uint64_t seed) {
    auto rules = std::make_shared<const engine::Rules>(spec);
    std::vector<trace::TraceLine> out;
    for (auto line : trace::tableScriptFromRecord(record).lines) {
        if (auto* host = std::get_if<trace::HostLine>(&line.input)) {
            if (host->kind == trace::HostKind::Keep) continue;  // the referee keeps placeholders
            if (host->kind == trace::HostKind::NewGame) host->favourites = "physical";
            if (host->kind == trace::HostKind::Deal) {
                engine::State fresh(rules);
                engine::Rng rng(seed * 100 + host->payload["round"].get<std::uint64_t>());
                const json other =
                    json::parse(record::writeDeal(engine::randomDeal(fresh, rng), *rules)).at("deal");
                for (const char* key : {"favourites", "banished", "ambitions"})
                    if (other.contains(key)) host->payload[key] = other[key];
            }
        }
        out.push_back(std::move(line));
    }
    return out;
}

json revealLine(const json& need, const RoundCards& cards, int players) {
    json out{{"round", need["round"]}};
    if (need["favourites"] == true) {
        out["favourites"] = cards.favourites;
        if (!cards.banished.is_null()) out["banished"] = cards.banished;
    }
    if (need["ambitions"] == true) {
        json kept = json::array();
        for (int p = 0; p < players; ++p) kept.push_back(cards.kept.at(p));
        out["ambitions"] = std::move(kept);
    }
    return out;
}

}  // namespace

TEST_CASE("physical cards end to end: placeholders dealt, real cards revealed, the record's game comes out") {
    for (const auto& family : gameFamilies()) {
        const std::uint64_t seed = 31;
        CAPTURE(family.name);
        CAPTURE(seed);
        const std::string record = randomRecord(family.spec, seed);
        const auto cards = realCards(record);
        const auto script = physicalScript(record, family.spec, seed);
        const int players = engine::Rules(family.spec).players();

        TempDir dir;
        std::vector<trace::TraceLine> played;
        int reveals = 0;
        {
            store::GameStore log(dir / "a.sqlite", store::GameStore::Access::CreateIfMissing,
                                 store::Durability::Normal);
            simulation::SimulationRig rig({}, &log);
            table::TraceRecorder recorder(log, rig.layout());
            rig.attach(recorder);
            for (const auto& line : script) {
                REQUIRE_FALSE(rig.consume(line));
                const json need = rig.referee().publicStatus().value("reveal", json());
                if (!need.is_object()) continue;
                INFO("reveal " << need.dump());
                REQUIRE(cards.contains(need["round"].get<int>()));
                trace::TraceLine reveal{
                    line.t, trace::HostLine{trace::HostKind::Reveal,
                                            revealLine(need, cards.at(need["round"].get<int>()), players),
                                            {},
                                            {}}};
                REQUIRE_FALSE(rig.consume(reveal));
                REQUIRE(rig.lastHostAnswer());
                CHECK_MESSAGE(rig.lastHostAnswer()->ok, rig.lastHostAnswer()->message);
                CHECK(rig.referee().publicStatus()["reveal"].is_null());
                ++reveals;
            }
            rig.finish();
            const auto summary = simulation::summaryJson(rig.table());
            CAPTURE(summary.dump());
            CHECK(summary["games_finished"] == 1);
            CHECK(summary["refusals"].empty());
            CHECK(summary["host_refusals"].empty());
        }
        CHECK(reveals >= static_cast<int>(cards.size()));

        store::GameStore log(dir / "a.sqlite", store::GameStore::Access::MustExist);
        const std::string exported = log.exportRecord(store::GameId{1});
        CHECK(dealtFavourites(exported) == dealtFavourites(record));
        CHECK(record::resultText(record::replayRecord(exported)) ==
              record::resultText(record::replayRecord(record)));

        // The stored trace (its reveal lines included) replays to the same log.
        const std::string stored = joined(log.traceLines(store::GameId{1}));
        CHECK(stored.find("\"reveal\"") != std::string::npos);
        CHECK(stored.find("\"favourites\":\"physical\"") != std::string::npos);
        simulateInto(stored, dir / "b.sqlite");
        store::GameStore second(dir / "b.sqlite", store::GameStore::Access::MustExist);
        CHECK(second.exportRecord(store::GameId{1}) == exported);
        CHECK(joined(second.traceLines(store::GameId{1})) == stored);
        CHECK(dumpDatabase(dir / "a.sqlite", true) == dumpDatabase(dir / "b.sqlite", true));
    }
}

}  // namespace vivaref::simtest
