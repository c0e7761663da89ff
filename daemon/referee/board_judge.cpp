#include "daemon/referee/board_judge.hpp"

#include "daemon/referee/board_places.hpp"

namespace vivaref::referee {

using drivers::CharacterSlug;

Sighting sightingOf(const drivers::BoardObservation& o, const std::string& slug) {
    const CharacterSlug key{slug};
    Sighting s;
    if (auto it = o.onBoard.find(key); it != o.onBoard.end()) {
        s.kind = Sighting::Kind::OnPlace;
        s.place = it->second.place.name;
        s.uncertain = it->second.uncertain;
    } else if (auto h = o.inHand.find(key); h != o.inHand.end()) {
        s.kind = Sighting::Kind::InHand;
        if (h->second.liftedFrom) s.place = h->second.liftedFrom->name;
    } else if (auto a = o.ambiguous.find(key); a != o.ambiguous.end()) {
        s.kind = Sighting::Kind::Ambiguous;
        for (const auto& p : a->second) s.candidates.push_back(p.name);
    }
    return s;
}

std::string describe(const Sighting& seen) {
    switch (seen.kind) {
        case Sighting::Kind::Absent:
            return "off the board";
        case Sighting::Kind::OnPlace:
            return "on " + placeWord(seen.place);
        case Sighting::Kind::InHand:
            return seen.place.empty() ? "in hand" : "in hand (from " + placeWord(seen.place) + ")";
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

bool sameSpot(const std::optional<std::string>& expected, const Sighting& seen) {
    // A piece in a hand is off the board already: one leaving the board (to
    // the box, cleared between rounds) is where it should be once lifted.
    if (!expected) return seen.kind == Sighting::Kind::Absent || seen.kind == Sighting::Kind::InHand;
    return seen.kind == Sighting::Kind::OnPlace && seen.place == *expected;
}

void noteBlind(const Difference& d, const std::set<std::string>& faulty, std::set<std::string>& blind) {
    auto touch = [&](const std::string& place) {
        if (faulty.count(place)) blind.insert(place);
    };
    if (d.expected) touch(*d.expected);
    if (d.seen.kind == Sighting::Kind::OnPlace || d.seen.kind == Sighting::Kind::InHand) touch(d.seen.place);
    for (const auto& p : d.seen.candidates) touch(p);
}

}  // namespace

BoardComparison compareBoard(const engine::State& state, const drivers::BoardObservation& observation,
                             const std::set<std::string>& faultyPlaces) {
    BoardComparison out;
    const auto& roster = state.rules().roster();
    std::set<std::string> slugs;
    for (int i = 0; i < roster.size(); ++i)
        slugs.insert(roster[engine::CharacterId{static_cast<std::uint8_t>(i)}].id);
    for (const auto& [slug, _] : observation.onBoard) slugs.insert(slug.name);
    for (const auto& [slug, _] : observation.inHand) slugs.insert(slug.name);
    for (const auto& [slug, _] : observation.ambiguous) slugs.insert(slug.name);

    for (const auto& slug : slugs) {
        Difference d;
        d.character = slug;
        d.id = roster.find(slug);
        d.name = d.id.index < roster.size() ? roster[d.id].name : slug;
        if (d.id.index < roster.size()) d.expected = boardPlace(state.placeOf(d.id));
        d.seen = sightingOf(observation, slug);
        if (sameSpot(d.expected, d.seen)) continue;
        if (d.seen.kind == Sighting::Kind::InHand || d.seen.kind == Sighting::Kind::Ambiguous)
            out.unsettled = true;
        noteBlind(d, faultyPlaces, out.blindPlaces);
        out.differences.push_back(std::move(d));
    }
    return out;
}

std::string restoreSentence(const Difference& d) {
    if (!d.expected) return "take " + d.name + " off the board";
    return "put " + d.name + " back on " + placeWord(*d.expected);
}

std::string guidanceSentence(const Difference& d) {
    if (!d.expected) return "take " + d.name + " off the board";
    if (d.seen.kind == Sighting::Kind::OnPlace)
        return "move " + d.name + " from " + placeWord(d.seen.place) + " to " + placeWord(*d.expected);
    return "put " + d.name + " on " + placeWord(*d.expected);
}

}  // namespace vivaref::referee
