#include "scenario.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace vivaref::test {

RulesSpec classicSpec(int seats, int first) {
    RulesSpec spec;
    spec.edition = Edition::Classic;
    spec.seats = seats;
    spec.first = first;
    return spec;
}

RulesSpec onlineSpec(int seats, int first) {
    RulesSpec spec = classicSpec(seats, first);
    spec.edition = Edition::Online;
    return spec;
}

RulesSpec spec2024(int seats, Variant variant, Options options, int first) {
    RulesSpec spec;
    spec.edition = Edition::Vive2024;
    spec.seats = seats;
    spec.variant = variant;
    spec.options = options;
    spec.first = first;
    return spec;
}

RulesSpec teamsSpec(int seats, int teamsOfTwo, Variant variant, Options options) {
    RulesSpec spec = spec2024(seats, variant, options);
    int next = 0;
    for (int s = 0; s < seats; ++s) {
        if (s < teamsOfTwo) {
            spec.teams.push_back({next, next + 1});
            next += 2;
        } else {
            spec.teams.push_back({next});
            next += 1;
        }
    }
    return spec;
}

std::string codeName(RefusalCode c) { return std::string(refusalCodeName(c)); }

std::string outcome(const std::optional<Refusal>& r) { return r ? codeName(r->code) : "accepted"; }

RefusalProbe probe(State& s, const Action& a) {
    const State before = s;
    const std::string text = s.serialize();
    const auto refusal = s.apply(a);
    RefusalProbe p;
    p.code = outcome(refusal);
    p.unchanged = (s == before) && s.serialize() == text;
    p.hasMessage = refusal && !refusal->message.code.empty();
    return p;
}

std::vector<CharacterId> ordinaryCharacters(const Roster& r) {
    std::vector<CharacterId> out;
    for (int i = 0; i < r.size(); ++i) {
        const CharacterId c{static_cast<std::uint8_t>(i)};
        if (!r.isJester(c)) out.push_back(c);
    }
    return out;
}

std::string show(const std::vector<int>& v) {
    std::ostringstream out;
    out << '[';
    for (std::size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << v[i];
    out << ']';
    return out.str();
}

std::string show(const std::vector<PlayerId>& v) {
    std::vector<int> ints;
    for (auto p : v) ints.push_back(p.index);
    return show(ints);
}

namespace {

std::shared_ptr<const Rules> makeRules(const RulesSpec& spec) {
    const auto refusal = Rules::validate(spec);
    INFO("bad setup: " << (refusal ? ::vivaref::engine::describe(refusal->message) : ""));
    REQUIRE(!refusal.has_value());
    return std::make_shared<const Rules>(spec);
}

// Player i's default card: six consecutive characters from i (13 distinct
// windows), then every other character (players 13-15).
std::array<CharacterId, kFavouritesPerCard> defaultCard(const std::vector<CharacterId>& cast, int i) {
    std::array<CharacterId, kFavouritesPerCard> card{};
    const int n = static_cast<int>(cast.size());
    const int step = i < n ? 1 : 2;
    const int from = i % n;
    for (int k = 0; k < kFavouritesPerCard; ++k) card[k] = cast[(from + k * step) % n];
    return card;
}

std::set<int> asSet(const std::array<CharacterId, kFavouritesPerCard>& card) {
    std::set<int> out;
    for (auto c : card) out.insert(c.index);
    return out;
}

}  // namespace

Table::Table(const RulesSpec& spec) : rules(makeRules(spec)), state(rules) {}

CharacterId Table::id(std::string_view slug) const {
    const CharacterId c = roster().find(slug);
    INFO("no character " << std::string(slug));
    REQUIRE(c.index != kInvalidIndex);
    return c;
}

FavouritesCard Table::card(const std::vector<std::string>& slugs) const {
    REQUIRE(slugs.size() == static_cast<std::size_t>(kFavouritesPerCard));
    FavouritesCard card;
    for (int k = 0; k < kFavouritesPerCard; ++k) card.characters[k] = id(slugs[k]);
    return card;
}

Deal Table::makeDeal(const std::vector<std::vector<std::string>>& favourites) const {
    Deal d;
    d.round = state.round();
    const auto cast = ordinaryCharacters(roster());
    std::set<std::set<int>> used;
    for (const auto& f : favourites)
        if (!f.empty()) used.insert(asSet(card(f).characters));
    int nextDefault = 0;
    for (int p = 0; p < players(); ++p) {
        FavouritesCard fc;
        if (p < static_cast<int>(favourites.size()) && !favourites[p].empty()) {
            fc = card(favourites[p]);
        } else {
            do {
                fc.characters = defaultCard(cast, nextDefault++);
            } while (used.count(asSet(fc.characters)));
            used.insert(asSet(fc.characters));
        }
        if (rules->options().banished) fc.banished = fc.characters[5];
        d.favourites.push_back(fc);
    }
    if (rules->options().ambition) {
        for (int p = 0; p < players(); ++p)
            d.ambitions.push_back({static_cast<AmbitionCard>(2 * p), static_cast<AmbitionCard>(2 * p + 1)});
    }
    if (rules->hasEmissary()) {
        EmissaryDeal e;
        // Characters no default card of seat 0 shares first.
        e.favourites.characters = defaultCard(cast, 7);
        if (rules->options().banished) e.favourites.banished = e.favourites.characters[5];
        const Hand h = rules->startingHand();
        for (int k = 0; k < h.no; ++k) e.pile.push_back(VoteCard::No);
        for (int k = 0; k < h.stomachache; ++k) e.pile.push_back(VoteCard::Stomachache);
        for (int k = 0; k < h.yes; ++k) e.pile.push_back(VoteCard::Yes);
        d.emissary = e;
    }
    if (!rules->hasPlacementPhase()) {
        d.placement.assign(roster().size(), Place::Floor0);
        for (int c = 0; c < roster().size(); ++c) d.placement[c] = floorPlace(c % 4);
    }
    return d;
}

void Table::deal(const Deal& d) {
    events.clear();
    REQUIRE_ACCEPTED(state.apply(d, &events));
}

void Table::keepFirst() {
    if (!rules->options().ambition) return;
    for (int p = 0; p < players(); ++p) {
        if (state.keptAmbition(player(p)) != AmbitionCard::Unknown) continue;
        REQUIRE_ACCEPTED(apply(Action::keep(player(p), state.ambitionChoices(player(p))[0])));
    }
}

void Table::start(const std::vector<std::vector<std::string>>& favourites) {
    deal(favourites);
    keepFirst();
}

std::optional<Refusal> Table::apply(const Action& a) {
    events.clear();
    return state.apply(a, &events);
}

void Table::place(std::string_view slug, int floor) {
    INFO("placing " << std::string(slug) << " on " << floor);
    REQUIRE_ACCEPTED(apply(Action::place(toAct(), id(slug), floorPlace(floor))));
}

void Table::placeAll(std::initializer_list<std::pair<std::string_view, int>> placements) {
    for (const auto& [slug, floor] : placements) place(slug, floor);
}

void Table::move(std::string_view slug, Place to) {
    INFO("moving " << std::string(slug) << " to " << to);
    REQUIRE_ACCEPTED(apply(Action::move(toAct(), id(slug), to)));
}

void Table::up(std::string_view slug) {
    const Place from = at(slug);
    Place to = Place::Unknown;
    if (isFloor(from))
        to = static_cast<Place>(floorOf(from) + 1);
    else if (from == Place::Wc3)
        to = Place::Floor3;
    else if (from == Place::Wc4)
        to = Place::Floor4;
    INFO(std::string(slug) << " stands on " << from);
    REQUIRE(to != Place::Unknown);
    move(slug, to);
}

void Table::climb(std::string_view slug, Place to) {
    for (int guard = 0; at(slug) != to; ++guard) {
        REQUIRE(guard < 8);
        up(slug);
    }
}

void Table::vote(const std::vector<VoteCard>& bySeat) {
    REQUIRE(static_cast<int>(bySeat.size()) == seats());
    for (int s = 0; s < seats(); ++s) {
        INFO("seat " << s << " votes " << bySeat[s]);
        REQUIRE_ACCEPTED(apply(Action::vote(seat(s), bySeat[s])));
    }
}

void Table::voteAllYesBut(std::initializer_list<std::pair<int, VoteCard>> others) {
    std::vector<VoteCard> votes(seats(), VoteCard::Yes);
    for (const auto& [s, c] : others) votes[s] = c;
    vote(votes);
}

bool Table::happened(EventKind k) const {
    return std::any_of(events.begin(), events.end(), [k](const Event& e) { return e.kind == k; });
}

void placeClassicLadder(Table& t) {
    t.placeAll({{"alighiero", 4},
                {"beatrice", 4},
                {"clemente", 4},
                {"dario", 4},
                {"ernesto", 3},
                {"fiorello", 3},
                {"gavino", 3},
                {"irina", 3},
                {"leonardo", 2},
                {"merlino", 2},
                {"natale", 2},
                {"odessa", 1}});
    REQUIRE(t.state.phase() == Phase::Ascent);
}

void place2024Ladder(Table& t) {
    t.placeAll({{"eloise", 4},
                {"ouaf", 4},
                {"caius", 4},
                {"foidvo", 4},
                {"jeanne", 3},
                {"merlin", 3},
                {"victoria", 3},
                {"leonardo", 2},
                {"romeo", 2},
                {"bridget", 2},
                {"agathe", 1},
                {"gontran", 1}});
    REQUIRE(t.state.phase() == Phase::Ascent);
}

std::vector<std::vector<std::string>> richFavourites() {
    return {{"leonardo", "jeanne", "ouaf", "agathe", "blanche", "merlin"},
            {"victoria", "eloise", "merlin", "foidvo", "caius", "romeo"},
            {"bridget", "gontran", "blanche", "romeo", "jeanne", "agathe"},
            {"leonardo", "victoria", "ouaf", "foidvo", "merlin", "bridget"}};
}

void playRichRound(Table& t) {
    REQUIRE(t.seats() == 4);
    // Seats counted from the round's first player.
    const int first = t.state.firstPlayer().index;
    const auto rel = [first](int k) { return (first + k) % 4; };
    t.placeAll({{"merlin", 4},
                {"foidvo", 4},
                {"caius", 4},
                {"romeo", 4},
                {"victoria", 3},
                {"leonardo", 3},
                {"jeanne", 3},
                {"eloise", 2},
                {"ouaf", 2},
                {"bridget", 2},
                {"agathe", 1},
                {"gontran", 1}});
    REQUIRE(t.toAct() == seat(first));
    t.move("eloise", Place::Wc3);
    t.move("victoria", Place::Wc4);
    t.climb("merlin", Place::Throne);
    t.voteAllYesBut({{rel(3), VoteCard::No}});
    t.climb("foidvo", Place::Throne);
    t.voteAllYesBut({{rel(3), VoteCard::No}});
    t.climb("caius", Place::Throne);
    t.voteAllYesBut({{rel(3), VoteCard::No}});
    t.climb("romeo", Place::Throne);
    t.voteAllYesBut({{rel(0), VoteCard::No}});
    t.move("leonardo", Place::Floor4);
    t.move("jeanne", Place::Floor4);
    t.climb("jeanne", Place::Throne);
    t.voteAllYesBut({{rel(3), VoteCard::Stomachache}});
    REQUIRE(t.at("jeanne") == Place::Floor5);
    t.move("leonardo", Place::Floor5);
    REQUIRE(t.toAct() == seat(rel(3)));
    t.move("leonardo", Place::Throne);
    t.vote({VoteCard::Yes, VoteCard::Yes, VoteCard::Yes, VoteCard::Yes});
}

void playJesterRound(Table& t) {
    REQUIRE(t.seats() == 4);
    t.placeAll({{"eloise", 4},
                {"ouaf", 4},
                {"caius", 4},
                {"foidvo", 3},
                {"jeanne", 3},
                {"merlin", 3},
                {"victoria", 2},
                {"leonardo", 2},
                {"romeo", 2},
                {"bridget", 2},
                {"agathe", 1},
                {"gontran", 1}});
    t.move("jester", Place::Floor4);
    t.move("jester", Place::Floor5);
    t.move("eloise", Place::Floor5);
    t.move("ouaf", Place::Floor5);
    t.move("foidvo", Place::Floor4);
    t.move("jeanne", Place::Floor4);
    t.move("jester", Place::Throne);
    t.vote({VoteCard::Yes, VoteCard::Yes, VoteCard::Yes, VoteCard::Yes});
}

std::vector<int> Table::roundScores() const {
    const bool between = state.phase() == Phase::AwaitDeal || state.isOver();
    if (between) {
        REQUIRE(!state.finishedRounds().empty());
        return state.finishedRounds().back().scores;
    }
    return state.currentRound().scores;
}

}  // namespace vivaref::test
