// The views as JSON: what a public screen and a player may see, in the
// record's spellings, and nothing secret in the public one (RULES §7).
#include "engine/record/view_json.hpp"

#include <doctest/doctest.h>

#include "engine/record/line_reader.hpp"
#include "engine/state.hpp"
#include "engine/views.hpp"
#include "tests/record/record_helpers.hpp"

namespace vivaref::record_test {

using nlohmann::json;

TEST_SUITE("record: view JSON") {
    TEST_CASE("the public view during an election shows who voted, never what") {
        auto rules = rulesFrom(R"({"setup": {"edition": "online", "seats": 3}})");
        State state(rules);
        LineRead deal = readLine(
            R"({"deal": {"round": 1, "favourites": [["alighiero", "beatrice", "ernesto", "leonardo", "piero", "clemente"],)"
            R"( ["dario", "fiorello", "merlino", "natale", "odessa", "gavino"], ["irina", "piero", "odessa", "natale", "merlino", "leonardo"]],)"
            R"( "placement": {"alighiero": "3", "beatrice": "3", "clemente": "3", "dario": "3", "ernesto": "2", "fiorello": "2",)"
            R"( "gavino": "2", "irina": "2", "leonardo": "1", "merlino": "1", "natale": "1", "odessa": "1", "piero": "0"}}})",
            rules.get());
        REQUIRE(deal.line);
        REQUIRE(!state.apply(std::get<Deal>(*deal.line)));
        CharacterId alighiero = rules->roster().find("alighiero");
        REQUIRE(!state.apply(Action::move(Seat{0}, alighiero, Place::Floor4)));
        REQUIRE(!state.apply(Action::move(Seat{1}, alighiero, Place::Floor5)));
        REQUIRE(!state.apply(Action::move(Seat{2}, alighiero, Place::Throne)));
        REQUIRE(!state.apply(Action::vote(Seat{1}, VoteCard::No)));

        json pub = record::publicViewJson(publicView(state), *rules);
        CHECK(pub["phase"] == "election");
        CHECK(pub["candidate"] == "alighiero");
        CHECK(pub["crown_holder"] == 2);
        CHECK(pub["voted"] == json::array({false, true, false}));
        CHECK(pub["positions"]["alighiero"] == "6");
        CHECK(pub["to_act"] == json::array({0, 2}));
        CHECK(pub.dump().find("\"no\"") == std::string::npos);
        CHECK(pub["revealed_favourites"].empty());

        json own = record::playerViewJson(playerView(state, PlayerId{1}), *rules);
        CHECK(own["own_vote"] == "no");
        CHECK(own["hand"] == json{{"yes", 1}, {"no", 4}});
        CHECK(own["favourites"][0] == "dario");
        json other = record::playerViewJson(playerView(state, PlayerId{0}), *rules);
        CHECK(!other.contains("own_vote"));
    }
}

}  // namespace vivaref::record_test
