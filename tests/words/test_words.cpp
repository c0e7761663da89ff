// How a message becomes words: each language's plurals, lists and
// prepositions, names kept apart from the sentence, the fallback to
// English, and the message on the wire.
#include <doctest/doctest.h>

#include "daemon/words/catalog.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"
#include "engine/roster.hpp"

namespace vivaref::words {
namespace {

using engine::Message;
namespace say = engine::say;

const auto kOdessa = say::character("odessa", "Odessa la Contessa");
const auto kDario = say::character("dario", "Dario l’Antiquario");

Message floorFull(int floor, int limit) {
    return Message("refusal.floor-full", {{"floor", say::number(floor)}, {"limit", say::number(limit)}});
}

Message oneFloorUp(engine::Place to) {
    return Message("refusal.one-floor-up", {{"character", kOdessa}, {"to", say::place(to)}});
}

}  // namespace

TEST_CASE("words: the engine's refusal in each language, its number in the language's plural") {
    CHECK(Words("en").say(floorFull(4, 4)) == "Floor 4 already holds 4 characters.");
    CHECK(Words("en").say(floorFull(2, 1)) == "Floor 2 already holds 1 character.");
    CHECK(Words("fr").say(floorFull(4, 4)) == "L’étage 4 a déjà 4 personnages.");
    CHECK(Words("fr").say(floorFull(2, 1)) == "L’étage 2 a déjà 1 personnage.");
    CHECK(Words("de").say(floorFull(4, 4)) == "Auf Stockwerk 4 stehen schon 4 Figuren.");
    CHECK(Words("de").say(floorFull(2, 1)) == "Auf Stockwerk 2 steht schon 1 Figur.");
    CHECK(Words("it").say(floorFull(4, 4)) == "Il piano 4 ha già 4 personaggi.");
    CHECK(Words("it").say(floorFull(2, 1)) == "Il piano 2 ha già 1 personaggio.");
}

TEST_CASE("words: a place takes the words its language gives it (au trône, jusqu’à l’étage 4)") {
    CHECK(Words("en").say(oneFloorUp(engine::Place::Floor4)) ==
          "Odessa la Contessa can only move up one floor, to floor 4.");
    CHECK(Words("en").say(oneFloorUp(engine::Place::Throne)) ==
          "Odessa la Contessa can only move up one floor, to the throne.");
    CHECK(Words("fr").say(oneFloorUp(engine::Place::Floor4)) ==
          "Odessa la Contessa ne peut monter que d’un étage, jusqu’à l’étage 4.");
    CHECK(Words("fr").say(oneFloorUp(engine::Place::Throne)) ==
          "Odessa la Contessa ne peut monter que d’un étage, jusqu’au trône.");
    CHECK(Words("de").say(oneFloorUp(engine::Place::Throne)) ==
          "Odessa la Contessa kann nur ein Stockwerk höher ziehen, auf den Thron.");
    CHECK(Words("it").say(oneFloorUp(engine::Place::Floor4)) ==
          "Odessa la Contessa può salire solo di un piano, fino al piano 4.");
}

TEST_CASE("words: a list is joined by the language's own “and”") {
    const Message several("referee.several-moved", {{"characters", say::list({kOdessa, kDario})}});
    CHECK(Words("en").say(several) ==
          "Several characters are out of place (Odessa la Contessa and Dario l’Antiquario): move one at a "
          "time.");
    const Message three("referee.several-moved",
                        {{"characters", say::list({kOdessa, kDario, say::character("piero", "Piero")})}});
    CHECK(Words("fr").say(three).find("(Odessa la Contessa, Dario l’Antiquario et Piero)") !=
          std::string::npos);
    CHECK(Words("de").say(three).find("(Odessa la Contessa, Dario l’Antiquario und Piero)") !=
          std::string::npos);
    CHECK(Words("it").say(three).find("(Odessa la Contessa, Dario l’Antiquario e Piero)") !=
          std::string::npos);
}

TEST_CASE("words: a player's name stays apart from the sentence, whatever it holds") {
    // U+202E (right-to-left override) in a name cannot turn the rest of the line around.
    const std::string reversing = "Eve\u202Eevil";
    const Message plan("referee.bot-places", {{"seat", say::player(reversing)},
                                              {"character", kOdessa},
                                              {"to", say::place(engine::Place::Floor3)}});
    // Its direction controls are taken out: the isolate already keeps it apart,
    // and a PDI inside would end the isolate early (daemon/words/name_text.hpp).
    CHECK(Words("en").say(plan) == "\u2068Eveevil\u2069 (bot) places Odessa la Contessa on floor 3.");
    const Message early("referee.bot-places", {{"seat", say::player("Eve\u2069\u202Eevil\u2066")},
                                               {"character", kOdessa},
                                               {"to", say::place(engine::Place::Floor3)}});
    CHECK(Words("en").say(early) == "\u2068Eveevil\u2069 (bot) places Odessa la Contessa on floor 3.");
    // A name in Hebrew or Arabic is kept as written, between the isolates.
    const Message hebrew("event.passed", {{"seat", say::player("\u05E2\u05D3\u05D9")}});
    CHECK(Words("fr").say(hebrew).starts_with("\u2068\u05E2\u05D3\u05D9\u2069 "));
    const Message arabic("answer.kept", {{"player", say::player("\u0644\u064A\u0644\u0649 42")}});
    CHECK(Words("en").say(arabic) == "\u2068\u0644\u064A\u0644\u0649 42\u2069 kept a card.");
    const Message team("referee.bot-places", {{"seat", say::list({say::player("Ann"), say::player("Bruno")})},
                                              {"character", kOdessa},
                                              {"to", say::place(engine::Place::Floor1)}});
    CHECK(Words("it").say(team) ==
          "\u2068Ann\u2069 e \u2068Bruno\u2069 (bot) piazza Odessa la Contessa al piano 1.");
}

TEST_CASE("words: a seat is shown from 1, a message inside a message in the same language") {
    const Message turn("refusal.not-your-turn",
                       {{"turn", say::seat(engine::Seat{0})}, {"seat", say::seat(engine::Seat{2})}});
    CHECK(Words("en").say(turn) == "It is seat 1’s turn, not seat 3’s.");
    const Message key("referee.key-not-counted",
                      {{"why", say::message(Message("refusal.vote-not-held",
                                                    {{"card", say::vote(engine::VoteCard::No)}}))}});
    CHECK(Words("de").say(key) ==
          "Du hast keine Nein-Karte mehr: wähle eine andere. Dieser Tastendruck wurde nicht gezählt.");
}

TEST_CASE("words: a code a language lacks falls back to English; one nobody has shows as itself") {
    const Catalog partial("fr", R"({"vote.yes": "Oui"})");
    const Words words(partial);
    CHECK(words.say(Message("vote.yes")) == "Oui");
    CHECK(words.say(Message("vote.no")) == "No");  // English's
    CHECK(words.sayStrictly(Message("vote.no")).empty());
    CHECK(Words("fr").say(Message("no.such-code")) == "[no.such-code]");
    CHECK(Words("xx").language() == "en");
}

TEST_CASE("words: a language is chosen from a preference whatever its region or encoding") {
    CHECK(matchLanguage("fr-CH") == "fr");
    CHECK(matchLanguage("de_DE.UTF-8") == "de");
    CHECK(matchLanguage("IT") == "it");
    CHECK(matchLanguage("pt-BR") == std::nullopt);
    CHECK(matchLanguage("") == std::nullopt);
}

TEST_CASE("words: a catalog that is not an object of strings is refused with its language named") {
    CHECK_THROWS_WITH_AS(Catalog("fr", "[1, 2]"), "catalog fr: not a JSON object", std::runtime_error);
    CHECK_THROWS_WITH_AS(Catalog("de", R"({"vote.yes": 3})"), "catalog de: \"vote.yes\" is not a string",
                         std::runtime_error);
}

TEST_CASE("words: a message goes over the wire and back unchanged") {
    const Message m("referee.bot-moves", {{"seat", say::list({say::player("Ann"), say::player("Bruno")})},
                                          {"character", kOdessa},
                                          {"from", say::place(engine::Place::Wc3)},
                                          {"to", say::place(engine::Place::Floor3)}});
    const auto wire = messageJson(m);
    CHECK(wire["code"] == "referee.bot-moves");
    CHECK(wire["args"]["from"] == nlohmann::json{{"place", "wc3"}});
    CHECK(wire["args"]["character"] ==
          nlohmann::json{{"character", "odessa"}, {"name", "Odessa la Contessa"}});
    CHECK(messageFromJson(wire) == m);
    CHECK_THROWS_AS(messageFromJson(nlohmann::json{{"code", "x"}, {"args", {{"a", {{"nonsense", 1}}}}}}),
                    std::invalid_argument);
    CHECK_THROWS_AS(messageFromJson(nlohmann::json::array()), std::invalid_argument);
}

}  // namespace vivaref::words
