// Brisk games with phones at the table (issue 35). Random complete games of
// every edition, option and variant family are played at a real table's
// pace (1 s between actions, 0.3 s a hand; and the stress pace, 0.6 s and
// 0.2 s) with the noise of hands (and again with the noise of antennas on
// the table's own board: cross-reads, garbage UIDs, failed reads, readers
// dropping out), where some seats vote on their players' phones and one
// seat is played from afar:
//   - a phone's vote is a `vote` host line ({"seat", "card"}) arriving 50 to
//     800 ms (drawn from the game's seed) after the election opens, in
//     place of that seat's key press; a vote the record has after a station's
//     waits for that station's key, so that the log keeps the record's order;
//   - the remote seat's placement or move is a `plan` host line ({"place" or
//     "move": ..., "step": the referee's decisions so far}) arriving 50 to
//     800 ms after its turn began; then someone at the table carries it out
//     as the script does, one pace's settle (1 s, 0.6 s) after the plan
//     showed.
// And a castle with no vote stations at all (RefereeOptions::stationSeats
// empty, no `seats` in the new game): every seat votes by phone by default.
//
// The table is driven as a live one would be: the rig runs in steps of
// 10 ms, and each input waits for the referee to reach the decision the
// record has it make (a key, a phone or a hand does not act for a position
// the table has not reached). A line of the table script belongs to the
// record's decision it carries out; the tidying before a player's action
// belongs to that action. Every game must end with its record: the log
// exports the record the script was made from, the result is the engine's,
// and no phone vote or plan is refused. The trace the table recorded (with
// its vote and plan lines) replays with `vivaref simulate` to the same log
// (on the same castle; not the games with antenna noise, which is the
// board's own and not in the trace).
//
// Seeds are fixed and printed on failure: VIVAREF_BRISK_SEED=S moves them,
// VIVAREF_BRISK_ROUNDS=N plays N seeds per family and pace,
// VIVAREF_BRISK_FAMILY=NAME plays that family alone, VIVAREF_BRISK_KEEP=DIR
// keeps every game's recorded trace, VIVAREF_BRISK_VERBOSE=1 prints a line
// a game, VIVAREF_BRISK_PACES=1 plays the table's pace alone.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string_view>

#include <doctest/doctest.h>

#include "daemon/simulation/simulate.hpp"
#include "daemon/simulation/simulation_rig.hpp"
#include "daemon/store/game_store.hpp"
#include "daemon/table/trace_recorder.hpp"
#include "daemon/trace/table_script.hpp"
#include "daemon/trace/trace_reader.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/record_replayer.hpp"
#include "engine/record/replay.hpp"
#include "engine/record/result_json.hpp"
#include "tests/simulation/sim_helpers.hpp"

namespace vivaref::simtest {
namespace {

using Json = nlohmann::json;

std::uint64_t phonesEnv(const char* name, std::uint64_t fallback) {
    const char* text = std::getenv(name);
    return text ? std::strtoull(text, nullptr, 10) : fallback;
}

struct PhonePace {
    const char* name;
    trace::TableTiming timing;
};
const PhonePace kPhonePaces[] = {{"brisk", trace::TableTiming::brisk()},
                                 {"stress", trace::TableTiming::stress()}};

// What the cases add up, printed at the end of each.
struct PhoneFigures {
    int games = 0;
    int finished = 0;
    int phoneVotes = 0;
    int plans = 0;
    int stationVotes = 0;
    std::int64_t failedScans = 0;  // reads that failed (antenna noise, drop-outs)
    std::int64_t virtualMs = 0;
    std::int64_t phoneDelayMs = 0;  // the sum of the phones' delays after the election opened
    std::int64_t planDelayMs = 0;   // the sum of the plans' delays after the turn began
};

// The record, decision by decision: each decision and the state it is
// applied to (states[k] is the game after k decisions).
struct RecordSteps {
    std::vector<engine::Decision> decisions;
    std::vector<engine::State> states;
};

RecordSteps recordSteps(const std::string& record) {
    RecordSteps steps;
    record::ReplayObserver observer;
    observer.after = [&](const record::ReplayStep& step) {
        if (step.decision) steps.decisions.push_back(*step.decision);
        steps.states.push_back(step.state);
        return true;
    };
    record::RecordReplayer replayer(std::move(observer));
    REQUIRE(replayer.play(record));
    REQUIRE(replayer.finish());
    return steps;
}

const engine::Action* actionOf(const engine::Decision& decision) {
    return std::get_if<engine::Action>(&decision);
}

std::string_view slugOf(const trace::TraceLine& line) {
    if (const auto* put = std::get_if<trace::PutLine>(&line.input)) return put->tag.text;
    if (const auto* lift = std::get_if<trace::LiftLine>(&line.input)) return lift->tag.text;
    return {};
}

// Which decision each line of the script carries out (-1: the new game),
// and where the player's own hand begins in a placement or move (the lines
// before it tidy the board for it). The script writes, in the record's
// order: chance as a host line; before each player action, the tidying;
// a keep as a host line, a vote as a key, a placement or move as its
// character's lift and puts (with the noise of hands, all of that tag,
// ending on its place); nothing for a pass.
struct ScriptGroups {
    std::vector<int> group;                 // by line
    std::map<int, std::size_t> handBegins;  // by decision: the first line of the player's hand
};

ScriptGroups groupScript(const std::vector<trace::TraceLine>& lines, const RecordSteps& steps) {
    ScriptGroups out;
    out.group.assign(lines.size(), static_cast<int>(steps.decisions.size()));
    std::size_t p = 0;
    REQUIRE(!lines.empty());
    const auto* first = std::get_if<trace::HostLine>(&lines[0].input);
    REQUIRE((first && first->kind == trace::HostKind::NewGame));
    out.group[0] = -1;
    p = 1;
    for (std::size_t k = 0; k < steps.decisions.size(); ++k) {
        INFO("decision " << k << ", script line " << p);
        const int g = static_cast<int>(k);
        const auto& decision = steps.decisions[k];
        const auto* action = actionOf(decision);
        auto hostAt = [&](std::size_t q, trace::HostKind kind) {
            const auto* host = q < lines.size() ? std::get_if<trace::HostLine>(&lines[q].input) : nullptr;
            return host && host->kind == kind;
        };
        if (!action) {
            const auto kind = std::holds_alternative<engine::Deal>(decision) ? trace::HostKind::Deal
                                                                             : trace::HostKind::Reshuffle;
            REQUIRE(hostAt(p, kind));
            out.group[p++] = g;
            continue;
        }
        std::optional<std::size_t> end;  // the decision's last line
        const auto& rules = steps.states[k].rules();
        switch (action->kind()) {
            case engine::ActionKind::Pass:
                break;  // its tidying goes with the next decision that has lines
            case engine::ActionKind::Keep:
                for (std::size_t q = p; q < lines.size() && !end; ++q)
                    if (hostAt(q, trace::HostKind::Keep)) end = q;
                break;
            case engine::ActionKind::Vote:
                for (std::size_t q = p; q < lines.size() && !end; ++q)
                    if (const auto* key = std::get_if<trace::ButtonLine>(&lines[q].input)) {
                        REQUIRE(key->station.number == action->seat().index);
                        end = q;
                    }
                break;
            case engine::ActionKind::Place:
            case engine::ActionKind::Move: {
                const std::string slug = rules.roster()[action->character()].id;
                const auto place = trace::boardPlaceName(action->to());
                auto lands = [&](std::size_t q) {
                    if (!place) return std::holds_alternative<trace::LiftLine>(lines[q].input);
                    const auto* put = std::get_if<trace::PutLine>(&lines[q].input);
                    return put && put->tag.text == slug && put->place.name == *place;
                };
                for (std::size_t q = p; q < lines.size() && !end;) {
                    if (slugOf(lines[q]) != slug) {
                        ++q;
                        continue;
                    }
                    // A run of this tag's lines; after it lands, the noise of
                    // the same hand follows within a touch, the next move later.
                    std::size_t r = q;
                    while (r + 1 < lines.size() && slugOf(lines[r + 1]) == slug &&
                           (!lands(r) || lines[r + 1].t - lines[r].t < 250))
                        ++r;
                    if (lands(r)) {
                        end = r;
                        out.handBegins[g] = q;
                    }
                    q = r + 1;
                }
                break;
            }
        }
        if (action->kind() == engine::ActionKind::Pass) continue;
        REQUIRE(end.has_value());
        for (std::size_t q = p; q <= *end; ++q) out.group[q] = g;
        p = *end + 1;
    }
    return out;
}

struct PhoneTable {
    std::set<int> phones;       // seats that vote by phone
    std::optional<int> remote;  // the seat played from afar
    bool noStations = false;    // the castle has no vote station: no `seats` in the new game
};

// One game through the rig, driven as a live table: see the file's comment.
// The seats whose station the castle has (none: every seat votes by phone
// by default). Not inlined: GCC 12 under ASan takes the reset of the
// options' empty optional, inlined, for a read of uninitialised memory.
[[gnu::noinline]] void castleStations(referee::RefereeOptions& options, std::set<int> seats) {
    options.stationSeats = std::move(seats);
}

void playWithPhones(const GameFamily& family, const PhonePace& pace, bool noStations, bool antennas,
                    std::uint64_t seed, PhoneFigures& figures) {
    const std::string what =
        std::string(pace.name) + (noStations ? ", no stations" : ", phones and a remote seat");
    INFO("family " << family.name << ", pace " << what << ", seed " << seed
                   << " (VIVAREF_BRISK_SEED moves the seeds)");
    const std::string record = randomRecord(family.spec, seed);
    trace::TableScriptOptions options;
    options.timing = pace.timing;
    if (!antennas) options.noise.seed = seed;
    const trace::TableScript script = trace::tableScriptFromRecord(record, options);
    REQUIRE_FALSE(script.error);
    const RecordSteps steps = recordSteps(record);
    const ScriptGroups groups = groupScript(script.lines, steps);
    const int seats = family.spec.seats;

    std::mt19937_64 random(seed * 7919 + 17);
    auto delay = [&] { return 50 + static_cast<std::int64_t>(random() % 751); };  // 50..800 ms
    PhoneTable table;
    table.noStations = noStations;
    Json seatsJson = nullptr;
    if (noStations) {
        for (int s = 0; s < seats; ++s) table.phones.insert(s);
    } else {
        table.remote = static_cast<int>(random() % static_cast<std::uint64_t>(seats));
        // About half the other seats vote by phone, one at least.
        for (int s = 0; s < seats; ++s)
            if (s != *table.remote && random() % 2 == 0) table.phones.insert(s);
        if (table.phones.empty()) table.phones.insert((*table.remote + 1) % seats);
        seatsJson = Json::array();
        for (int s : table.phones) seatsJson.push_back({{"seat", s}, {"votes", "phone"}});
        seatsJson.push_back({{"seat", *table.remote}, {"remote", true}});
        table.phones.insert(*table.remote);  // it votes on its phone too
    }
    INFO("phones " << Json(table.phones).dump() << ", remote " << (table.remote ? *table.remote : -1));

    TempDir dir;
    simulation::RigOptions rigOptions;
    rigOptions.referee.seed = 1;
    rigOptions.referee.wallAtZero = store::WallTime(std::chrono::milliseconds(0));
    if (noStations) castleStations(rigOptions.referee, {});
    std::int64_t failedScans = 0;  // the antennas' noise at work
    rigOptions.onRawScan = [&](drivers::ReaderIndex, const drivers::ScanResult& result, drivers::Timestamp) {
        if (!result.ok()) ++failedScans;
    };
    std::optional<Json> replayedSummary;
    std::string recordedTrace;
    {
        store::GameStore log(dir / "phones.sqlite", store::GameStore::Access::CreateIfMissing,
                             store::Durability::Normal);
        simulation::SimulationRig rig(rigOptions, &log);
        table::TraceRecorder recorder(log, rig.layout(), table::RecorderOptions{rigOptions.sensing});
        rig.attach(recorder);
        // Antenna noise on the table's own board, as the brisk-table test's
        // raw scans have it: stacked readers reading their neighbour's tags
        // (5 %), garbage UIDs and failed reads (1 %), and a reader dropping
        // out for 200-600 ms every 2-8 s.
        const std::size_t readers = rig.layout().readerCount();
        std::optional<drivers::ReaderIndex> dropped;
        std::int64_t dropEnds = 0;
        std::int64_t nextDrop = 2000;
        std::mt19937_64 antenna(seed);
        if (antennas) {
            rig.board().setNeighbourCrosstalk(0.05);
            for (drivers::ReaderIndex r = 0; r < readers; ++r) {
                rig.board().setGarbageRate(r, 0.01);
                rig.board().setFailureRate(r, 0.01);
            }
        }
        auto antennaTick = [&](std::int64_t now) {
            if (!antennas) return;
            if (dropped && now >= dropEnds) {
                rig.board().restore(*dropped);
                rig.board().setGarbageRate(*dropped, 0.01);
                rig.board().setFailureRate(*dropped, 0.01);
                dropped.reset();
            }
            if (!dropped && now >= nextDrop) {
                dropped = static_cast<drivers::ReaderIndex>(antenna() % readers);
                rig.board().silence(*dropped);
                dropEnds = now + 200 + static_cast<std::int64_t>(antenna() % 400);
                nextDrop = now + 2000 + static_cast<std::int64_t>(antenna() % 6000);
            }
        };

        const std::size_t decisions = steps.decisions.size();
        std::size_t step = 0;    // the referee's decisions so far, as seen
        std::int64_t clock = 0;  // the table's time: the rig has run everything before it
        std::vector<std::int64_t> reached(decisions + 1, -1);  // when the referee reached each
        std::map<int, std::int64_t> handReady;                 // by decision: not before (a plan shown)
        std::int64_t electionOpened = 0;
        std::int64_t shift = 0;  // how much later than the script the table runs now
        struct Phone {
            std::int64_t t;
            trace::HostLine line;
        };
        std::vector<Phone> phones;  // due phone votes and plans, in time order
        std::vector<std::string> problems;

        auto reach = [&](std::size_t k, std::int64_t now) {
            reached[k] = now;
            if (k >= decisions) return;
            const auto* action = actionOf(steps.decisions[k]);
            if (!action) return;
            const auto& rules = steps.states[k].rules();
            const bool opens = k == 0 || !actionOf(steps.decisions[k - 1]) ||
                               actionOf(steps.decisions[k - 1])->kind() != engine::ActionKind::Vote;
            if (action->kind() == engine::ActionKind::Vote) {
                if (opens) electionOpened = now;
                if (!table.phones.contains(action->seat().index)) {
                    ++figures.stationVotes;
                    return;
                }
                const std::int64_t drawn = electionOpened + delay();
                const std::int64_t at = std::max(drawn, now + 1);
                figures.phoneDelayMs += at - electionOpened;
                Json vote = Json::parse(record::writeAction(*action, rules))["vote"];
                phones.push_back({at, trace::HostLine{trace::HostKind::Vote, std::move(vote), {}}});
            } else if ((action->kind() == engine::ActionKind::Place ||
                        action->kind() == engine::ActionKind::Move) &&
                       table.remote == action->seat().index) {
                const std::int64_t d = delay();
                figures.planDelayMs += d;
                Json plan = Json::parse(record::writeAction(*action, rules));
                plan["step"] = k;
                phones.push_back({now + d, trace::HostLine{trace::HostKind::Plan, std::move(plan), {}}});
                handReady[static_cast<int>(k)] = now + d + pace.timing.settle;
            }
            std::stable_sort(phones.begin(), phones.end(),
                             [](const Phone& a, const Phone& b) { return a.t < b.t; });
        };
        // The referee's decisions so far: its state matched against the record's.
        auto look = [&] {
            const engine::State* now = rig.referee().state();
            if (!now) return;
            for (std::size_t j = step + 1; j <= std::min(decisions, step + 12); ++j)
                if (*now == steps.states[j]) {
                    for (std::size_t k = step + 1; k <= j; ++k) reach(k, clock);
                    step = j;
                    return;
                }
        };

        std::size_t next = 0;
        std::int64_t lastInput = 0;
        const std::int64_t kStallMs = 60000;
        std::int64_t waitingSince = 0;
        bool started = false;
        while (next < script.lines.size() || !phones.empty() || (started && step < decisions)) {
            // A seat that votes by phone presses no key: its key lines are left out.
            while (next < script.lines.size()) {
                const auto* key = std::get_if<trace::ButtonLine>(&script.lines[next].input);
                if (!key || !table.phones.contains(key->station.number)) break;
                ++next;
            }
            // The next script line, once the referee reached its decision.
            std::optional<std::int64_t> lineAt;
            if (next < script.lines.size()) {
                const int g = groups.group[next];
                if (g < 0 || (started && static_cast<std::size_t>(g) <= step)) {
                    std::int64_t at = std::max({script.lines[next].t + shift, lastInput, clock});
                    if (g >= 0) at = std::max(at, reached[static_cast<std::size_t>(g)]);
                    // The host enters chance as soon as it is due (the referee
                    // deals itself a second later), however late the table runs.
                    if (g >= 0 && static_cast<std::size_t>(g) < decisions &&
                        !actionOf(steps.decisions[static_cast<std::size_t>(g)]))
                        at = std::max(
                            {reached[static_cast<std::size_t>(g)] + pace.timing.hostGap, lastInput, clock});
                    if (const auto hand = groups.handBegins.find(g);
                        hand != groups.handBegins.end() && hand->second == next && handReady.contains(g))
                        at = std::max(at, handReady[g]);
                    lineAt = at;
                }
            }
            const std::optional<std::int64_t> phoneAt =
                phones.empty() ? std::nullopt : std::optional<std::int64_t>(phones.front().t);
            std::optional<std::int64_t> target = lineAt;
            if (phoneAt && (!target || *phoneAt < *target)) target = phoneAt;
            // Time runs in steps of 10 ms, the referee looked at after each.
            const std::size_t before = step;
            std::int64_t until = target ? *target : clock + 10;
            bool changed = false;
            for (std::int64_t t = clock + 10; t <= until; t += 10) {
                rig.runUntil(drivers::Timestamp(t));
                clock = t;
                antennaTick(clock);
                look();
                if (step != before) {
                    changed = true;
                    break;
                }
            }
            if (!target) {
                if (!changed && clock - waitingSince > kStallMs) {
                    const auto status = rig.referee().publicStatus();
                    FAIL("the table waits for decision "
                         << step << " ("
                         << (step < decisions
                                 ? record::writeDecision(steps.decisions[step], steps.states[step].rules())
                                 : std::string("none"))
                         << ") since " << waitingSince << " ms; next script line "
                         << (next < script.lines.size() ? trace::writeTraceLine(script.lines[next]) : "none")
                         << " of decision " << (next < script.lines.size() ? groups.group[next] : -2) << "; "
                         << phones.size() << " phone lines due; refusal " << status["refusal"].dump()
                         << "; waiting for " << status["waiting_for"].dump() << "; guidance "
                         << status["guidance"].dump().substr(0, 200) << "; problems "
                         << Json(problems).dump());
                }
                continue;
            }
            if (changed) continue;  // the new position may release something sooner
            waitingSince = *target;
            if (phoneAt && *phoneAt == *target && (!lineAt || *phoneAt < *lineAt)) {
                trace::TraceLine line{*phoneAt, phones.front().line};
                phones.erase(phones.begin());
                (void)rig.consume(line);
                clock = std::max(clock, line.t);
                const auto& answer = rig.lastHostAnswer();
                const auto kind = std::get<trace::HostLine>(line.input).kind;
                if (!answer || !answer->ok)
                    problems.push_back(
                        std::string(trace::hostKindName(kind)) + " at " + std::to_string(line.t) +
                        " refused: " + (answer ? answer->code + " " + answer->message : "no answer"));
                if (kind == trace::HostKind::Vote)
                    ++figures.phoneVotes;
                else
                    ++figures.plans;
                lastInput = line.t;
            } else {
                trace::TraceLine line = script.lines[next];
                shift = *lineAt - line.t;
                line.t = *lineAt;
                if (auto* host = std::get_if<trace::HostLine>(&line.input);
                    host && host->kind == trace::HostKind::NewGame)
                    host->seats = seatsJson;
                if (auto problem = rig.consume(line)) problems.push_back(*problem);
                clock = std::max(clock, line.t);
                if (std::holds_alternative<trace::HostLine>(line.input)) {
                    const auto& answer = rig.lastHostAnswer();
                    if (!answer || !answer->ok)
                        problems.push_back(
                            "host line " + std::to_string(next) + " at " + std::to_string(line.t) +
                            " (decision " + std::to_string(groups.group[next]) + " reached at " +
                            std::to_string(groups.group[next] >= 0
                                               ? reached[static_cast<std::size_t>(groups.group[next])]
                                               : -1) +
                            ") refused: " + (answer ? answer->code + " " + answer->message : "no answer"));
                }
                lastInput = line.t;
                ++next;
            }
            if (!started && rig.referee().state()) {
                started = true;
                reached[0] = clock;
            }
            look();
        }
        rig.finish();
        look();
        if (std::getenv("VIVAREF_BRISK_VERBOSE"))
            std::fprintf(stderr, "%s seed %llu: %zu of %zu decisions, %lld ms\n", family.name.c_str(),
                         static_cast<unsigned long long>(seed), step, decisions,
                         static_cast<long long>(rig.now().count()));
        const auto summary = simulation::summaryJson(rig.table());
        INFO("summary " << summary.dump());
        INFO("problems " << Json(problems).dump());
        CHECK(problems.empty());
        CHECK(step == decisions);
        CHECK(summary["games_started"] == 1);
        CHECK(summary["games_finished"] == 1);
        ++figures.games;
        figures.virtualMs += summary["virtual_ms"].get<std::int64_t>();
        recordedTrace = storedTrace(log, store::GameId{1});
        if (const char* keep = std::getenv("VIVAREF_BRISK_KEEP"))
            std::ofstream(std::filesystem::path(keep) / ("phones-" + std::to_string(seed) + ".trace"))
                << recordedTrace;
        if (summary["games_finished"] != 1) return;  // on to the next seed
        ++figures.finished;
        CHECK(summary["host_refusals"].empty());
        CHECK(summary["own_chance"] == 0);
        CHECK(summary["results"][0].dump() == record::resultText(record::replayRecord(record)));
        CHECK(log.exportRecord(store::GameId{1}) == record);
    }
    // The recorded trace, vote and plan lines and all, plays the same game
    // again (the antennas' noise is the table's board's own, not in the
    // trace: those games are not replayed).
    figures.failedScans += failedScans;
    if (antennas) {
        CHECK(failedScans > 0);
        return;
    }
    CHECK(failedScans == 0);
    CHECK(recordedTrace.find("\"vote\"") != std::string::npos);
    if (table.remote) CHECK(recordedTrace.find("\"plan\"") != std::string::npos);
    // On any castle (`vivaref simulate` of the trace, no configuration): the
    // new game's line says how each seat votes where the table decided it
    // (a castle without stations: by phone).
    if (noStations) CHECK(recordedTrace.find("\"votes\":\"phone\"") != std::string::npos);
    const auto replayed = simulateInto(recordedTrace, dir / "again.sqlite", 0, 1);
    CHECK(replayed["games_finished"] == 1);
    CHECK(replayed["host_refusals"].empty());
    store::GameStore again(dir / "again.sqlite", store::GameStore::Access::MustExist);
    CHECK(again.exportRecord(store::GameId{1}) == record);
}

void playPhoneFamilies(bool noStations, bool antennas, std::uint64_t salt) {
    const std::uint64_t first = phonesEnv("VIVAREF_BRISK_SEED", 1);
    const std::uint64_t rounds = std::max<std::uint64_t>(1, phonesEnv("VIVAREF_BRISK_ROUNDS", 1));
    PhoneFigures figures;
    const auto families = gameFamilies();
    const char* only = std::getenv("VIVAREF_BRISK_FAMILY");  // one family alone
    // VIVAREF_BRISK_PACES=1: the table's pace alone (as brisk table's).
    const std::size_t paces = std::clamp<std::uint64_t>(
        phonesEnv("VIVAREF_BRISK_PACES", std::size(kPhonePaces)), 1, std::size(kPhonePaces));
    for (std::uint64_t round = 0; round < rounds; ++round)
        for (std::size_t f = 0; f < families.size(); ++f)
            for (std::size_t p = 0; p < paces; ++p)
                if (!only || families[f].name == only)
                    playWithPhones(families[f], kPhonePaces[p], noStations, antennas,
                                   first + salt + 1000 * round + 10 * f + p, figures);
    std::printf(
        "brisk phones (%s%s): %d games, %d ended with their record; %d phone votes (mean %.0f ms after the "
        "election opened), %d station votes, %d plans from afar (mean %.0f ms after the turn began); "
        "%.0f s of play, %lld failed reads\n",
        noStations ? "no stations" : "phones and a remote seat", antennas ? ", antenna noise" : "",
        figures.games, figures.finished, figures.phoneVotes,
        figures.phoneVotes ? double(figures.phoneDelayMs) / figures.phoneVotes : 0.0, figures.stationVotes,
        figures.plans, figures.plans ? double(figures.planDelayMs) / figures.plans : 0.0,
        double(figures.virtualMs) / 1000, static_cast<long long>(figures.failedScans));
    CHECK(figures.finished == figures.games);
    CHECK(figures.phoneVotes > 0);
    if (!noStations) CHECK(figures.plans > 0);
    if (noStations) CHECK(figures.stationVotes == 0);
}

}  // namespace

TEST_CASE("brisk phones: some seats vote by phone, one plays from afar, every game ends with its record") {
    playPhoneFamilies(false, false, 300);
}

TEST_CASE(
    "brisk phones: phones and a seat from afar with cross-reads, garbage UIDs, failing reads and drop-outs") {
    playPhoneFamilies(false, true, 500);
}

TEST_CASE("brisk phones: a castle with no vote stations plays every family with phones only") {
    playPhoneFamilies(true, false, 400);
}

TEST_CASE("the trace's new game says how the seats the host left to the table vote, where not by station") {
    TempDir dir;
    simulation::RigOptions options;
    castleStations(options.referee, {0, 3});  // stations for seats 0 and 3 only
    std::string stored;
    {
        store::GameStore log(dir / "seats.sqlite", store::GameStore::Access::CreateIfMissing,
                             store::Durability::Normal);
        simulation::SimulationRig rig(options, &log);
        table::TraceRecorder recorder(log, rig.layout(), table::RecorderOptions{options.sensing});
        rig.attach(recorder);
        trace::HostLine newGame{trace::HostKind::NewGame, Json{{"edition", "2024"}, {"seats", 5}}, {}};
        // The host: seat 1 from afar, seat 2 without a word on its votes.
        newGame.seats = Json::array({{{"seat", 1}, {"remote", true}}, {{"seat", 2}, {"remote", false}}});
        REQUIRE_FALSE(rig.consume({0, newGame}));
        REQUIRE(rig.lastHostAnswer()->ok);
        rig.finish();
        stored = storedTrace(log, store::GameId{1});
    }
    const auto read = trace::readTrace(stored);
    REQUIRE_FALSE(read.error);
    REQUIRE_FALSE(read.lines.empty());
    const auto& line = std::get<trace::HostLine>(read.lines[0].line.input);
    REQUIRE(line.kind == trace::HostKind::NewGame);
    CHECK(line.seats == Json::array({{{"seat", 1}, {"remote", true}},
                                     {{"seat", 2}, {"remote", false}, {"votes", "phone"}},
                                     {{"seat", 4}, {"votes", "phone"}}}));
    // On a castle with every station, the line is the host's as it was.
    TempDir other;
    store::GameStore log(other / "seats.sqlite", store::GameStore::Access::CreateIfMissing,
                         store::Durability::Normal);
    simulation::SimulationRig rig(simulation::RigOptions{}, &log);
    table::TraceRecorder recorder(log, rig.layout(), table::RecorderOptions{});
    rig.attach(recorder);
    trace::HostLine plain{trace::HostKind::NewGame, Json{{"edition", "2024"}, {"seats", 5}}, {}};
    REQUIRE_FALSE(rig.consume({0, plain}));
    rig.finish();
    const auto again = trace::readTrace(storedTrace(log, store::GameId{1}));
    REQUIRE_FALSE(again.error);
    CHECK(std::get<trace::HostLine>(again.lines.at(0).line.input).seats.is_null());
}

TEST_CASE("phones in a trace: seat, vote and plan lines are written and read back as they were") {
    auto host = [](trace::HostKind kind, Json payload) {
        return trace::HostLine{kind, std::move(payload), {}};
    };
    trace::HostLine newGame = host(trace::HostKind::NewGame, Json{{"edition", "classic"}, {"seats", 4}});
    newGame.seats = Json::array({{{"seat", 1}, {"votes", "phone"}}, {{"seat", 2}, {"remote", true}}});
    const std::vector<trace::TraceLine> lines = {
        {0, newGame},
        {100, host(trace::HostKind::Seat, Json{{"seat", 3}, {"votes", "either"}})},
        {200, host(trace::HostKind::Seat, Json{{"seat", 3}, {"bot", "good"}, {"until", "round"}})},
        {300, host(trace::HostKind::Seat, Json{{"seat", 3}, {"bot", nullptr}})},
        {400, host(trace::HostKind::Vote, Json{{"seat", 1}, {"card", "yes"}})},
        {500, host(trace::HostKind::Plan,
                   Json{{"place", {{"seat", 2}, {"character", "dario"}, {"to", "1"}}}, {"step", 7}})},
        {600, host(trace::HostKind::Plan,
                   Json{{"move", {{"seat", 2}, {"character", "dario"}, {"to", "2"}}}, {"step", 40}})},
    };
    const std::string text = trace::writeTrace(lines);
    INFO(text);
    const auto read = trace::readTrace(text);
    REQUIRE_FALSE(read.error);
    REQUIRE(read.lines.size() == lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) CHECK(read.lines[i].line == lines[i]);
    CHECK(trace::writeTrace(lines) == text);
}

}  // namespace vivaref::simtest
