// The score breakdown of a coronation (RoundResult::coronations): one line per
// favourite with where it stood and what it scored, the kept Ambition card,
// the classic 33, the single-pawn team's adjustment; the lines add up to the
// scores. Random play checks the sums over every configuration; these check
// the lines themselves on hand-worked tables.
#include "scenario.hpp"

using namespace vivaref::test;

namespace {

// "fiorello 6 10, alighiero 5 5, ..." (record place names) from a sheet's lines.
std::string lines(const Table& t, const ScoreSheet& sheet) {
    std::string out;
    for (const ScoreLine& line : sheet.lines) {
        if (!out.empty()) out += ", ";
        switch (line.kind) {
            case ScoreLineKind::Favourite:
            case ScoreLineKind::Banished:
                out += std::string(t.rules->roster()[line.character].id) + " " +
                       std::string(placeName(line.place));
                if (line.kind == ScoreLineKind::Banished) out += " banished";
                break;
            case ScoreLineKind::Ambition:
                out += std::string(ambitionCardName(line.ambition)) + (line.met ? " met" : " not met");
                break;
            default:
                out += std::string(scoreLineKindName(line.kind));
                break;
        }
        out += " " + std::to_string(line.points);
    }
    return out + " = " + std::to_string(sheet.total);
}

}  // namespace

TEST_CASE("Breakdown: the classic example's coronation, favourite by favourite") {
    Table t(classicSpec(4, 0));
    t.deal({{"fiorello", "alighiero", "beatrice", "dario", "leonardo", "piero"},
            {"clemente", "odessa", "ernesto", "merlino", "natale", "piero"},
            {"clemente", "gavino", "irina", "leonardo", "merlino", "natale"},
            {"fiorello", "clemente", "alighiero", "odessa", "gavino", "natale"}});
    t.placeAll({{"alighiero", 4},
                {"clemente", 4},
                {"fiorello", 4},
                {"beatrice", 4},
                {"odessa", 3},
                {"dario", 3},
                {"ernesto", 3},
                {"gavino", 3},
                {"irina", 2},
                {"leonardo", 2},
                {"merlino", 2},
                {"natale", 1}});
    t.move("alighiero", Place::Floor5);
    t.move("clemente", Place::Floor5);
    t.move("clemente", Place::Throne);
    t.vote({kYes, kNo, kNo, kYes});  // clemente eliminated
    t.move("fiorello", Place::Floor5);
    t.move("odessa", Place::Floor4);
    t.move("irina", Place::Floor3);
    t.move("natale", Place::Floor2);
    t.move("fiorello", Place::Throne);
    t.vote({kYes, kYes, kYes, kYes});
    REQUIRE(t.happened(EventKind::RoundEnded));
    const RoundResult& r = t.state.finishedRounds().back();
    REQUIRE(r.coronations.size() == 1);
    const CoronationScore& k = r.coronations[0];
    CHECK(k.king == t.id("fiorello"));
    CHECK(k.crown == seat(3));
    CHECK_FALSE(k.jesterKing);
    CHECK_FALSE(k.emissary.has_value());
    REQUIRE(k.players.size() == 4);
    CHECK(lines(t, k.players[0]) ==
          "fiorello 6 10, alighiero 5 5, beatrice 4 4, dario 3 3, leonardo 2 2, piero 0 0 = 24");
    CHECK(lines(t, k.players[1]) ==
          "clemente box 0, odessa 4 4, ernesto 3 3, merlino 2 2, natale 2 2, piero 0 0 = 11");
    CHECK(show(r.compensation) == "[0, 0, 0, 0]");
    CHECK(show(r.scores) == "[24, 11, 12, 24]");
}

TEST_CASE("Breakdown: a royal couple scores twice; the Ambition line is on the second coronation only") {
    Table t(spec2024(4, Variant::RoyalCouple, Options{true, false}));
    Deal d = t.makeDeal({{"eloise", "ouaf", "caius", "foidvo", "jeanne", "merlin"},
                         {"victoria", "leonardo", "romeo", "bridget", "agathe", "blanche"},
                         {"gontran", "agathe", "blanche", "leonardo", "romeo", "victoria"},
                         {"jeanne", "merlin", "victoria", "gontran", "bridget", "blanche"}});
    d.ambitions = {{AmbitionCard::ItsAQueen, AmbitionCard::Wc0},
                   {AmbitionCard::FriendOfTheKing, AmbitionCard::Wc1},
                   {AmbitionCard::ItsAKing, AmbitionCard::Wc2},
                   {AmbitionCard::JesterKing, AmbitionCard::OnlyYes}};
    t.deal(d);
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(0), AmbitionCard::ItsAQueen)));
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(1), AmbitionCard::FriendOfTheKing)));
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(2), AmbitionCard::ItsAKing)));
    REQUIRE_ACCEPTED(t.apply(Action::keep(player(3), AmbitionCard::JesterKing)));
    place2024Ladder(t);
    t.climb("eloise", Place::Throne);
    t.vote({kYes, kYes, kYes, kYes});
    REQUIRE(t.state.currentRound().coronations.size() == 1);
    CHECK(lines(t, t.state.currentRound().coronations[0].players[0]) ==
          "eloise 6 10, ouaf 4 4, caius 4 4, foidvo 4 4, jeanne 3 3, merlin 3 3 = 28");
    t.climb("ouaf", Place::Throne);
    t.vote({kYes, kYes, kYes, kYes});
    const RoundResult& r = t.state.finishedRounds().back();
    REQUIRE(r.coronations.size() == 2);
    // The first King beside the throne counts 0 now; It's a Queen holds.
    CHECK(lines(t, r.coronations[1].players[0]) ==
          "eloise throne-side 0, ouaf 6 10, caius 4 4, foidvo 4 4, jeanne 3 3, merlin 3 3, "
          "its-a-queen met 3 = 27");
    CHECK(r.coronations[1].players[3].lines.back().kind == ScoreLineKind::Ambition);
    CHECK_FALSE(r.coronations[1].players[3].lines.back().met);
    CHECK(r.coronations[1].players[3].lines.back().points == 0);
    for (int p = 0; p < 4; ++p)
        CHECK(r.coronations[0].players[p].total + r.coronations[1].players[p].total == r.scores[p]);
}
