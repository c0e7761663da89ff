// Traces with the players' mistakes: a table script of a random classic
// game with a wrong put, move or key press slipped in and then put right.
// The referee must refuse each with the expected code (the summary counts
// refusals by code), accept the recovery, and go on to the same game.
#include <map>

#include <doctest/doctest.h>

#include "daemon/store/game_store.hpp"
#include "daemon/trace/table_script.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "engine/record/replay.hpp"
#include "engine/record/result_json.hpp"
#include "tests/simulation/sim_helpers.hpp"

namespace vivaref::simtest {
namespace {

using trace::TraceLine;

constexpr std::uint64_t kSeed = 3;

struct Game {
    std::string record;
    std::vector<TraceLine> script;
};

const Game& classicGame() {
    static const Game game = [] {
        Game g;
        g.record = randomRecord(gameFamilies()[1].spec, kSeed);  // classic-4
        g.script = trace::tableScriptFromRecord(g.record).lines;
        return g;
    }();
    return game;
}

TraceLine put(std::int64_t t, const std::string& tag, const std::string& place) {
    return {t, trace::PutLine{{tag}, {place}}};
}
TraceLine lift(std::int64_t t, const std::string& tag) { return {t, trace::LiftLine{{tag}}}; }
TraceLine press(std::int64_t t, int station, drivers::VoteKey key) {
    return {t, trace::ButtonLine{{station}, key}};
}
TraceLine host(std::int64_t t, trace::HostKind kind, nlohmann::json payload = nlohmann::json::object()) {
    return {t, trace::HostLine{kind, std::move(payload), {}}};
}

// The script with `mistake` (times relative to line `at`) slipped in before
// line `at`, and every line from `at` on `shift` ms later.
std::vector<TraceLine> withMistake(std::vector<TraceLine> lines, std::size_t at,
                                   std::vector<TraceLine> mistake, std::int64_t shift) {
    const std::int64_t t0 = lines[at].t;
    for (auto& m : mistake) m.t += t0;
    for (std::size_t i = at; i < lines.size(); ++i) lines[i].t += shift;
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), mistake.begin(), mistake.end());
    return lines;
}

// Where each tag stands just before line `at`.
std::map<std::string, std::string> boardBefore(const std::vector<TraceLine>& lines, std::size_t at) {
    std::map<std::string, std::string> board;
    for (std::size_t i = 0; i < at; ++i) {
        if (const auto* p = std::get_if<trace::PutLine>(&lines[i].input)) board[p->tag.text] = p->place.name;
        if (const auto* l = std::get_if<trace::LiftLine>(&lines[i].input)) board.erase(l->tag.text);
    }
    return board;
}

template <class T>
std::size_t firstOf(const std::vector<TraceLine>& lines, std::size_t from = 0) {
    for (std::size_t i = from; i < lines.size(); ++i)
        if (std::holds_alternative<T>(lines[i].input)) return i;
    FAIL("no such line in the script");
    return 0;
}

nlohmann::ordered_json run(const std::vector<TraceLine>& lines) {
    auto outcome = simulation::simulateTrace(trace::writeTrace(lines), {}, nullptr);
    REQUIRE_FALSE(outcome.error);
    return outcome.summary;
}

// The mistake changed nothing in the game: it ended as the record did.
void checkSameGame(const nlohmann::ordered_json& summary) {
    INFO("classic-4 random game, seed ", kSeed);
    CAPTURE(summary.dump());
    CHECK(summary["games_finished"] == 1);
    REQUIRE(summary["results"].size() == 1);
    CHECK(summary["results"][0].dump() == record::resultText(record::replayRecord(classicGame().record)));
}

std::map<std::string, int> refusals(const nlohmann::ordered_json& summary) {
    return summary["refusals"].get<std::map<std::string, int>>();
}

TEST_CASE("mistakes: the script without one is refused nothing") {
    auto summary = run(classicGame().script);
    checkSameGame(summary);
    CHECK(refusals(summary).empty());
    CHECK(summary["private_refusals"] == 0);
}

TEST_CASE("mistakes: a character placed on floor 0 is refused (floor-not-allowed), then placed right") {
    const auto& script = classicGame().script;
    const std::size_t at = firstOf<trace::PutLine>(script);
    const std::string tag = std::get<trace::PutLine>(script[at].input).tag.text;
    auto summary = run(withMistake(script, at, {put(0, tag, "0"), lift(700, tag)}, 1100));
    checkSameGame(summary);
    CHECK(refusals(summary) == std::map<std::string, int>{{"floor-not-allowed", 1}});
}

TEST_CASE("mistakes: moves up two floors and down are refused (not-adjacent), then put back") {
    const auto& script = classicGame().script;
    const std::size_t at = firstOf<trace::LiftLine>(script);  // the first move of the ascent
    const auto board = boardBefore(script, at);
    const std::string mover = std::get<trace::LiftLine>(script[at].input).tag.text;
    const int from = std::stoi(board.at(mover));
    REQUIRE(from <= 3);
    SUBCASE("two floors up") {
        auto summary = run(withMistake(script, at,
                                       {lift(0, mover), put(400, mover, std::to_string(from + 2)),
                                        lift(1000, mover), put(1400, mover, std::to_string(from))},
                                       2000));
        checkSameGame(summary);
        CHECK(refusals(summary) == std::map<std::string, int>{{"not-adjacent", 1}});
    }
    SUBCASE("one floor down") {
        std::string down;
        for (const auto& [tag, place] : board)
            if (place >= "1" && place <= "4" && place.size() == 1) down = tag;
        REQUIRE_FALSE(down.empty());
        const int floor = std::stoi(board.at(down));
        auto summary = run(withMistake(script, at,
                                       {lift(0, down), put(400, down, std::to_string(floor - 1)),
                                        lift(1000, down), put(1400, down, std::to_string(floor))},
                                       2000));
        checkSameGame(summary);
        CHECK(refusals(summary) == std::map<std::string, int>{{"not-adjacent", 1}});
    }
}

TEST_CASE("mistakes: two characters moved at once are refused (several-moved), then put back") {
    const auto& script = classicGame().script;
    const std::size_t at = firstOf<trace::LiftLine>(script);
    const auto board = boardBefore(script, at);
    const std::string mover = std::get<trace::LiftLine>(script[at].input).tag.text;
    std::string other;
    for (const auto& [tag, place] : board)
        if (tag != mover && place >= "1" && place <= "4" && place.size() == 1) other = tag;
    REQUIRE_FALSE(other.empty());
    const std::string moverFrom = board.at(mover), otherFrom = board.at(other);
    const std::string moverTo = std::to_string(std::stoi(moverFrom) + 1);
    const std::string otherTo = std::to_string(std::stoi(otherFrom) + 1);
    auto summary = run(withMistake(
        script, at,
        {lift(0, mover), lift(0, other), put(400, mover, moverTo), put(400, other, otherTo),
         lift(1200, mover), lift(1200, other), put(1600, mover, moverFrom), put(1600, other, otherFrom)},
        2400));
    checkSameGame(summary);
    CHECK(refusals(summary) == std::map<std::string, int>{{"several-moved", 1}});
}

TEST_CASE("mistakes: a second key press in an election is refused on that station only") {
    const auto& script = classicGame().script;
    const std::size_t at = firstOf<trace::ButtonLine>(script);
    const auto first = std::get<trace::ButtonLine>(script[at].input);
    auto summary =
        run(withMistake(script, at + 1, {press(0, first.station.number, drivers::VoteKey::No)}, 0));
    checkSameGame(summary);
    CHECK(refusals(summary).empty());
    CHECK(summary["private_refusals"] == 1);
}

TEST_CASE("mistakes: a key pressed outside an election is ignored") {
    const auto& script = classicGame().script;
    auto summary = run(withMistake(script, 2, {press(0, 1, drivers::VoteKey::Yes)}, 100));
    checkSameGame(summary);
    CHECK(refusals(summary).empty());
}

TEST_CASE("mistakes: a deal naming a character the game lacks is refused; the right one is taken") {
    const auto& script = classicGame().script;
    auto wrong = std::get<trace::HostLine>(script[1].input).payload;
    wrong["favourites"][0][0] = "zorro";
    auto summary = run(withMistake(script, 1, {host(0, trace::HostKind::Deal, wrong)}, 50));
    checkSameGame(summary);
    CHECK(summary["host_refusals"] == nlohmann::ordered_json{{"unknown-character", 1}});
}

TEST_CASE("mistakes: the host takes back a placement; the board is guided back and the game goes on") {
    const auto& script = classicGame().script;
    const std::size_t at = firstOf<trace::PutLine>(script) + 1;  // after the first placement settled
    const std::string tag = std::get<trace::PutLine>(script[at - 1].input).tag.text;
    const std::string place = std::get<trace::PutLine>(script[at - 1].input).place.name;
    TempDir dir;
    const auto lines = withMistake(
        script, at, {host(0, trace::HostKind::Undo), lift(200, tag), put(4500, tag, place)}, 5100);
    auto summary = simulateInto(trace::writeTrace(lines), dir / "undo.sqlite");
    checkSameGame(summary);
    CHECK(summary["undos"] == 1);
    CHECK(refusals(summary).empty());
    store::GameStore log(dir / "undo.sqlite", store::GameStore::Access::MustExist);
    CHECK(log.exportRecord(store::GameId{1}) == classicGame().record);
    int undoEvents = 0;
    for (const auto& e : log.events(store::GameId{1})) undoEvents += e.kind == "undo";
    CHECK(undoEvents == 1);
}

TEST_CASE("mistakes: pause and resume between two placements change nothing") {
    const auto& script = classicGame().script;
    const std::size_t at = firstOf<trace::PutLine>(script) + 1;
    auto summary = run(
        withMistake(script, at, {host(0, trace::HostKind::Pause), host(300, trace::HostKind::Resume)}, 400));
    checkSameGame(summary);
    CHECK(refusals(summary).empty());
    CHECK(summary["host_refusals"].empty());
}

}  // namespace
}  // namespace vivaref::simtest
