// The trace reader: REFEREE-TRACE's lines read, and every kind of malformed
// line refused with its line number and what is wrong.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/trace/trace_check.hpp"
#include "daemon/trace/trace_reader.hpp"
#include "daemon/trace/trace_writer.hpp"
#include "drivers/sensing/board_layout.hpp"

namespace vivaref::trace {
namespace {

TraceLine only(const std::string& text) {
    LineParse parsed = parseTraceLine(text);
    INFO(text, " -> ", parsed.error);
    REQUIRE(parsed.line);
    return *parsed.line;
}

std::string errorOf(const std::string& text) {
    LineParse parsed = parseTraceLine(text);
    INFO(text);
    REQUIRE_FALSE(parsed.line);
    CHECK_FALSE(parsed.error.empty());
    return parsed.error;
}

TEST_CASE("trace reader: every input of the spec's example reads") {
    const std::string text =
        R"({"t": 0, "host": {"new-game": {"setup": {"edition": "classic", "seats": 4}, "players": ["Ann", "Bob", "Cy", "Di"]}}})"
        "\n"
        R"({"t": 10, "host": {"deal": {"round": 1, "favourites": [["alighiero"], ["beatrice"]]}}})"
        "\n\n"
        R"({"t": 500, "scan": {"reader": "floor3", "tags": ["04A1B2C3D4E5F6", "0459AC12"]}})"
        "\n"
        R"({"t": 520, "reader-fault": {"reader": "floor3", "what": "no answer"}})"
        "\r\n"
        R"({"t": 900, "put": {"tag": "odessa", "place": "3"}})"
        "\n"
        R"({"t": 2400, "lift": {"tag": "odessa"}})"
        "\n"
        R"({"t": 5000, "button": {"station": 2, "key": "no"}})"
        "\n"
        R"({"t": 9000, "host": {"undo": {}}})"
        "\n";
    TraceRead read = readTrace(text);
    REQUIRE_FALSE(read.error);
    REQUIRE(read.lines.size() == 8);
    CHECK(read.lines[2].number == 4);  // the blank line counts

    const auto& newGame = std::get<HostLine>(read.lines[0].line.input);
    CHECK(newGame.kind == HostKind::NewGame);
    CHECK(newGame.payload["edition"] == "classic");
    CHECK(newGame.players == std::vector<std::string>{"Ann", "Bob", "Cy", "Di"});
    const auto& deal = std::get<HostLine>(read.lines[1].line.input);
    CHECK(deal.kind == HostKind::Deal);
    CHECK(deal.payload["round"] == 1);
    const auto& scan = std::get<ScanLine>(read.lines[2].line.input);
    CHECK(scan.reader.name == "floor3");
    REQUIRE(scan.tags.size() == 2);
    CHECK(scan.tags[0].toHex() == "04A1B2C3D4E5F6");
    CHECK(scan.tags[1].size() == 4);
    CHECK(std::get<ReaderFaultLine>(read.lines[3].line.input).what == "no answer");
    const auto& put = std::get<PutLine>(read.lines[4].line.input);
    CHECK(put.tag.text == "odessa");
    CHECK_FALSE(put.tag.isUid());
    CHECK(put.place.name == "3");
    CHECK(read.lines[5].line.t == 2400);
    const auto& button = std::get<ButtonLine>(read.lines[6].line.input);
    CHECK(button.station.number == 2);
    CHECK(button.key == drivers::VoteKey::No);
    CHECK(std::get<HostLine>(read.lines[7].line.input).kind == HostKind::Undo);
}

TEST_CASE("trace reader: host requests, empty scans and tags named by UID") {
    for (const char* request : {"pause", "resume", "abandon", "undo"}) {
        auto line = only(std::string(R"({"t": 1, "host": {")") + request + R"(": {}}})");
        CHECK(hostKindName(std::get<HostLine>(line.input).kind) == request);
    }
    CHECK(std::get<HostLine>(only(R"({"host": {"keep": {"player": 0, "ambition": "wc-0"}}, "t": 3})").input)
              .kind == HostKind::Keep);
    CHECK(std::get<HostLine>(only(R"({"t": 3, "host": {"reshuffle": {"pile": ["yes"]}}})").input)
              .payload["pile"][0] == "yes");
    // The host's answer to an order the readers missed (our addition, issue 35).
    auto order =
        std::get<HostLine>(only(R"({"t": 9, "host": {"order": {"characters": ["piero", "odessa"]}}})").input);
    CHECK(order.kind == HostKind::Order);
    CHECK(order.payload["characters"] == nlohmann::json::array({"piero", "odessa"}));
    const auto written = writeTrace(std::vector<TraceLine>{{9, order}});
    CHECK(written.find(R"("order":{"characters":["piero","odessa"]})") != std::string::npos);
    CHECK(std::get<HostLine>(only(written.substr(0, written.size() - 1)).input) == order);
    auto noPlayers = std::get<HostLine>(only(R"({"t": 0, "host": {"new-game": {"setup": {}}}})").input);
    CHECK(noPlayers.players.empty());
    CHECK(std::get<ScanLine>(only(R"({"t": 7, "scan": {"reader": "wc3", "tags": []}})").input).tags.empty());
    auto put = std::get<PutLine>(only(R"({"t": 7, "put": {"tag": "0459AC12", "place": "dungeon1"}})").input);
    CHECK(put.tag.isUid());
    CHECK_FALSE(std::get<LiftLine>(only(R"({"t": 8, "lift": {"tag": "cafe"}})").input).tag.isUid());
    CHECK(
        std::get<ButtonLine>(only(R"({"t": 7, "button": {"station": 0, "key": "stomachache"}})").input).key ==
        drivers::VoteKey::Stomachache);
}

TEST_CASE("trace reader: a malformed line says what is wrong") {
    struct Case {
        const char* text;
        const char* says;
    };
    const Case cases[] = {
        {"king me", "not valid JSON"},
        {R"({"t": 1, "t": 2, "lift": {"tag": "odessa"}})", "appears twice"},
        {R"({"t": 1, "lift": {"tag": "odessa", "tag": "piero"}})", "appears twice"},
        {R"([1, 2])", "must be a JSON object"},
        {R"({"lift": {"tag": "odessa"}})", "no \"t\""},
        {R"({"t": -5, "lift": {"tag": "odessa"}})", "must not be negative"},
        {R"({"t": 1.5, "lift": {"tag": "odessa"}})", "whole number"},
        {R"({"t": "10", "lift": {"tag": "odessa"}})", "whole number, not a string"},
        {R"({"t": 18446744073709551615, "lift": {"tag": "odessa"}})", "larger than"},
        {R"({"t": 1})", "no input"},
        {R"({"t": 1, "scan": {"reader": "floor3", "tags": [], "once": false}})", "\"once\" must be true"},
        {R"({"t": 1, "reader-fault": {"reader": "floor3", "what": "x", "once": 1}})",
         "\"once\" must be true"},
        {R"({"t": 1, "jump": {}})", "unknown key \"jump\""},
        {R"({"t": 1, "put": {"tag": "odessa", "place": "3"}, "lift": {"tag": "odessa"}})",
         "exactly one input"},
        {R"({"t": 1, "host": {"dance": {}}})", "unknown request \"dance\""},
        {R"({"t": 1, "host": {}})", "exactly one request"},
        {R"({"t": 1, "host": {"undo": {}, "pause": {}}})", "exactly one request"},
        {R"({"t": 1, "host": "undo"})", "\"host\" must be an object"},
        {R"({"t": 1, "host": {"undo": {"now": true}}})", "unknown key \"now\""},
        {R"({"t": 1, "host": {"pause": []}})", "must be an object"},
        {R"({"t": 1, "host": {"deal": [1]}})", "must be an object"},
        {R"({"t": 1, "host": {"order": {}}})", "misses its key \"characters\""},
        {R"({"t": 1, "host": {"order": {"characters": ["odessa"]}}})", "2 to 4 characters"},
        {R"({"t": 1, "host": {"order": {"characters": ["odessa", 4]}}})", "character's id (text)"},
        {R"({"t": 1, "host": {"order": {"characters": ["a", "b"], "by": 1}}})", "unknown key \"by\""},
        {R"({"t": 1, "host": {"new-game": {"players": ["A"]}}})", "misses its key \"setup\""},
        {R"({"t": 1, "host": {"new-game": {"setup": 4}}})", "\"setup\" must be an object"},
        {R"({"t": 1, "host": {"new-game": {"setup": {}, "players": "Ann"}}})", "\"players\" must be a list"},
        {R"({"t": 1, "host": {"new-game": {"setup": {}, "players": [""]}}})", "player 1's name is empty"},
        // The host API's own check of names (engine/record/player_name.hpp).
        {R"({"t": 1, "host": {"new-game": {"setup": {}, "players": ["A", "B\u001b[2J"]}}})",
         "player 2's name holds a control character (U+001B) at character 2"},
        {R"({"t": 1, "host": {"new-game": {"setup": {}, "players": ["Anna Maria Lucrezia Gaetana di Montefeltro"]}}})",
         "is 42 characters long; at most 40"},
        {R"({"t": 1, "host": {"new-game": {"setup": {}, "seed": 3}}})", "unknown key \"seed\""},
        {R"({"t": 1, "scan": {"reader": "floor3"}})", "misses its key \"tags\""},
        {R"({"t": 1, "scan": {"reader": "floor3", "tags": "04A1B2C3"}})", "must be a list"},
        {R"({"t": 1, "scan": {"reader": "floor3", "tags": ["04a1b2c3"]}})", "uppercase hex"},
        {R"({"t": 1, "scan": {"reader": "floor3", "tags": ["04A1B2"]}})", "8, 14 or 20"},
        {R"({"t": 1, "scan": {"reader": "floor3", "tags": ["04A1B2C3", "04A1B2C3"]}})", "twice"},
        {R"({"t": 1, "scan": {"reader": "floor3", "tags": [4]}})", "must be a string"},
        {R"({"t": 1, "scan": {"reader": "", "tags": []}})", "must not be empty"},
        {R"({"t": 1, "scan": {"reader": "floor3", "tags": [], "rssi": 4}})", "unknown key \"rssi\""},
        {R"({"t": 1, "reader-fault": {"reader": "floor3"}})", "misses its key \"what\""},
        {R"({"t": 1, "reader-fault": {"reader": "floor3", "what": 5}})", "must be a string"},
        {R"({"t": 1, "put": {"tag": "odessa"}})", "misses its key \"place\""},
        {R"({"t": 1, "put": {"tag": "odessa", "place": 3}})", "must be a string, not a whole number"},
        {R"({"t": 1, "put": {"tag": "04A1B2", "place": "3"}})", "8, 14 or 20"},
        {R"({"t": 1, "put": {"tag": "04a1b2c3", "place": "3"}})", "uppercase hex"},
        {R"({"t": 1, "lift": {"tag": "0459ac12"}})", "uppercase hex"},
        {R"({"t": 1, "put": {"tag": "odessa", "place": "3\u0001"}})", "control character"},
        {R"({"t": 1, "lift": {}})", "misses its key \"tag\""},
        {R"({"t": 1, "lift": "odessa"})", "must be an object"},
        {R"({"t": 1, "button": {"station": -1, "key": "yes"}})", "must not be negative"},
        {R"({"t": 1, "button": {"station": 64, "key": "yes"}})", "larger than 63"},
        {R"({"t": 1, "button": {"station": "2", "key": "yes"}})", "whole number"},
        {R"({"t": 1, "button": {"station": 2, "key": "maybe"}})", "not yes, no or stomachache"},
        {R"({"t": 1, "button": {"station": 2}})", "misses its key \"key\""},
    };
    for (const auto& c : cases) {
        const std::string text = c.text;
        const std::string error = errorOf(text);
        INFO(text, " -> ", error);
        CHECK(error.find(c.says) != std::string::npos);
    }
}

TEST_CASE("trace reader: a NUL byte anywhere is refused") {
    using namespace std::string_literals;
    CHECK(errorOf("{\"t\": 1, \"lift\": {\"tag\": \"ode\0ssa\"}}"s).find("NUL") != std::string::npos);
}

TEST_CASE("trace reader: the first malformed line is named, blank lines counted") {
    const std::string text =
        "{\"t\": 0, \"host\": {\"pause\": {}}}\n"
        "\n"
        "   \n"
        "{\"t\": 5, \"lift\": {\"tag\": \"odessa\"}}\n"
        "{\"t\": 5, \"lift\": {\"tag\": \"odessa\", \"x\": 1}}\n"
        "{\"t\": 6, \"lift\": \"broken too\"}\n";
    TraceRead read = readTrace(text);
    REQUIRE(read.error);
    CHECK(read.error->line == 5);
    CHECK(read.error->describe().rfind("line 5: ", 0) == 0);
    CHECK(read.lines.empty());
}

TEST_CASE("trace reader: t never goes back; equal times are fine") {
    TraceRead ok =
        readTrace("{\"t\": 5, \"lift\": {\"tag\": \"a\"}}\n{\"t\": 5, \"lift\": {\"tag\": \"b\"}}\n");
    CHECK_FALSE(ok.error);
    CHECK(ok.lines.size() == 2);
    TraceRead back =
        readTrace("{\"t\": 5, \"lift\": {\"tag\": \"a\"}}\n\n{\"t\": 4, \"lift\": {\"tag\": \"b\"}}");
    REQUIRE(back.error);
    CHECK(back.error->line == 3);
    CHECK(back.error->what.find("from 5 to 4") != std::string::npos);
}

TEST_CASE("trace reader: an empty text or only blank lines is an empty trace") {
    CHECK(readTrace("").lines.empty());
    CHECK_FALSE(readTrace("").error);
    CHECK_FALSE(readTrace("\n\n \t\n").error);
}

TEST_CASE(
    "trace check: a line naming a reader or a place the board lacks gets a sentence naming the board's") {
    const auto layout = drivers::standardBoardLayout();
    CHECK_FALSE(lineProblem(layout, only(R"({"t": 0, "put": {"tag": "odessa", "place": "3"}})")));
    CHECK_FALSE(lineProblem(layout, only(R"({"t": 0, "scan": {"reader": "floor3", "tags": ["0459AC12"]}})")));
    CHECK(lineProblem(layout, only(R"({"t": 0, "put": {"tag": "odessa", "place": "7"}})")) ==
          "the board has no place \"7\" (0, 1, 2, 3, 4, 5, 6, wc3, wc4, dungeon1, dungeon2, dungeon3)");
    CHECK(lineProblem(layout, only(R"({"t": 0, "scan": {"reader": "floor9", "tags": []}})")) ==
          "the board has no reader \"floor9\" (floor0, floor1, floor2, floor3, floor4, floor5, throne, wc3, "
          "wc4, dungeon1, dungeon2, dungeon3)");
    // A long layout: the first twelve names, and how many in all.
    drivers::BoardLayout big;
    for (int r = 0; r < 13; ++r) big.addReader({"r" + std::to_string(r)}, {"p" + std::to_string(r)});
    CHECK(lineProblem(big, only(R"({"t": 0, "reader-fault": {"reader": "floor3", "what": "no answer"}})")) ==
          "the board has no reader \"floor3\" (r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, ... 13 in "
          "all)");
}

}  // namespace
}  // namespace vivaref::trace
