#include "daemon/referee/board_judge.hpp"

#include "daemon/referee/board_places.hpp"
#include "daemon/words/words.hpp"

namespace vivaref::referee {

using drivers::CharacterSlug;

Sighting sightingOf(const drivers::BoardObservation& o, const CharacterSlug& slug, const BoardNames& names) {
    Sighting s;
    if (auto it = o.onBoard.find(slug); it != o.onBoard.end()) {
        s.kind = Sighting::Kind::OnPlace;
        s.place = names.place(it->second.place);
        s.uncertain = it->second.uncertain;
    } else if (auto h = o.inHand.find(slug); h != o.inHand.end()) {
        s.kind = Sighting::Kind::InHand;
        if (h->second.liftedFrom) s.place = names.place(*h->second.liftedFrom);
    } else if (auto a = o.ambiguous.find(slug); a != o.ambiguous.end()) {
        s.kind = Sighting::Kind::Ambiguous;
        for (const auto& p : a->second) s.candidates.push_back(names.place(p));
    }
    return s;
}

std::string describe(const Sighting& seen) {
    switch (seen.kind) {
        case Sighting::Kind::Absent:
            return "off the board";
        case Sighting::Kind::OnPlace:
            return "on " + placeWord(*seen.place);
        case Sighting::Kind::InHand:
            return seen.place ? "in hand (from " + placeWord(*seen.place) + ")" : "in hand";
        case Sighting::Kind::Ambiguous: {
            std::string text = "unclear (";
            for (std::size_t i = 0; i < seen.candidates.size(); ++i)
                text += (i ? " or " : "") + placeWord(seen.candidates[i]);
            return text + ")";
        }
    }
    return "?";
}

namespace {

bool sameSpot(const std::optional<engine::Place>& expected, const Sighting& seen) {
    // A piece in a hand is off the board already: one leaving the board (to
    // the box, cleared between rounds) is where it should be once lifted.
    if (!expected) return seen.kind == Sighting::Kind::Absent || seen.kind == Sighting::Kind::InHand;
    return seen.kind == Sighting::Kind::OnPlace && seen.place == expected;
}

void noteBlind(const Difference& d, const PlacesByName& faulty, std::set<engine::Place>& blind) {
    auto touch = [&](engine::Place place) {
        if (faulty.count(place)) blind.insert(place);
    };
    if (d.expected) touch(*d.expected);
    if ((d.seen.kind == Sighting::Kind::OnPlace || d.seen.kind == Sighting::Kind::InHand) && d.seen.place)
        touch(*d.seen.place);
    for (const auto p : d.seen.candidates) touch(p);
}

}  // namespace

BoardComparison compareBoard(const engine::State& state, const drivers::BoardObservation& observation,
                             const BoardNames& names, const PlacesByName& faultyPlaces) {
    BoardComparison out;
    const auto& roster = state.rules().roster();
    std::set<CharacterSlug> slugs;
    for (const auto& c : roster.characters()) slugs.insert(CharacterSlug{c.id});
    for (const auto& [slug, _] : observation.onBoard) slugs.insert(slug);
    for (const auto& [slug, _] : observation.inHand) slugs.insert(slug);
    for (const auto& [slug, _] : observation.ambiguous) slugs.insert(slug);

    for (const auto& slug : slugs) {
        Difference d;
        d.slug = slug;
        d.id = names.character(slug);
        const bool ofThisGame = d.id.index < roster.size();
        d.name = ofThisGame ? roster[d.id].name : slug.name;
        if (ofThisGame) d.kind = std::string(engine::characterKindName(roster[d.id].kind));
        if (ofThisGame) d.expected = boardPlace(state.placeOf(d.id));
        d.seen = sightingOf(observation, slug, names);
        if (sameSpot(d.expected, d.seen)) continue;
        if (d.seen.kind == Sighting::Kind::InHand || d.seen.kind == Sighting::Kind::Ambiguous)
            out.unsettled = true;
        noteBlind(d, faultyPlaces, out.blindPlaces);
        out.differences.push_back(std::move(d));
    }
    return out;
}

engine::MessageValue characterOf(const Difference& d) {
    return engine::say::character(d.slug.name, d.name, d.kind);
}

engine::Message restoreMessage(const Difference& d) {
    namespace say = engine::say;
    const auto who = characterOf(d);
    if (!d.expected) return engine::Message("guide.take-off", {{"character", who}});
    return engine::Message("guide.put-back", {{"character", who}, {"to", say::place(*d.expected)}});
}

engine::Message guidanceMessage(const Difference& d) {
    namespace say = engine::say;
    const auto who = characterOf(d);
    if (!d.expected) return engine::Message("guide.take-off", {{"character", who}});
    if (d.seen.kind == Sighting::Kind::OnPlace)
        return engine::Message(
            "guide.move",
            {{"character", who}, {"from", say::place(*d.seen.place)}, {"to", say::place(*d.expected)}});
    return engine::Message("guide.put", {{"character", who}, {"to", say::place(*d.expected)}});
}

std::string restoreSentence(const Difference& d) { return words::english().say(restoreMessage(d)); }

std::string guidanceSentence(const Difference& d) { return words::english().say(guidanceMessage(d)); }

}  // namespace vivaref::referee
