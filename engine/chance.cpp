#include "engine/chance.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace vivaref::engine {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

template <typename List>
void shuffle(List& v, Rng& rng) {
    // Fisher-Yates with our own draws: the same order on every platform.
    for (std::size_t i = v.size(); i > 1; --i)
        std::swap(v[i - 1], v[rng.below(static_cast<std::uint32_t>(i))]);
}

struct FavouritesPool {
    std::array<CharacterId, kMaxCharacters> ids{};
    std::uint32_t size = 0;
};

FavouritesPool eligibleFavourites(const Rules& rules) {
    FavouritesPool pool;
    for (int c = 0; c < rules.roster().size(); ++c) {
        CharacterId id{static_cast<std::uint8_t>(c)};
        if (!rules.roster().isJester(id)) pool.ids[pool.size++] = id;
    }
    return pool;
}

// The sets of the cards dealt so far, each a bit mask over character indices.
struct DealtSets {
    std::array<std::uint32_t, kMaxPlayers + 1> masks{};  // every player's and the Emissary's
    int size = 0;
    bool holds(std::uint32_t mask) const {
        return std::find(masks.begin(), masks.begin() + size, mask) != masks.begin() + size;
    }
    void add(std::uint32_t mask) { masks[size++] = mask; }
};

// Decision (RULES §3.1): a digital deal gives 6 distinct characters, never
// the Jester, and no two cards (the Emissary's included) the same set.
FavouritesCard drawCard(const Rules& rules, FavouritesPool pool, DealtSets& used, Rng& rng) {
    FavouritesCard card;
    for (;;) {
        std::uint32_t mask = 0;
        for (std::uint32_t i = 0; i < kFavouritesPerCard; ++i) {
            auto j = i + rng.below(pool.size - i);
            std::swap(pool.ids[i], pool.ids[j]);
            card.characters[i] = pool.ids[i];
            mask |= 1u << pool.ids[i].index;
        }
        if (!used.holds(mask)) {
            used.add(mask);
            break;
        }
    }
    if (rules.options().banished) card.banished = card.characters[rng.below(kFavouritesPerCard)];
    return card;
}

std::vector<VoteCard> handAsPile(const Hand& h) {
    std::vector<VoteCard> pile;
    for (int i = 0; i < h.yes; ++i) pile.push_back(VoteCard::Yes);
    for (int i = 0; i < h.no; ++i) pile.push_back(VoteCard::No);
    for (int i = 0; i < h.stomachache; ++i) pile.push_back(VoteCard::Stomachache);
    return pile;
}

}  // namespace

Rng::Rng(std::uint64_t seed) {
    for (auto& s : s_) s = splitmix64(seed);
}

Deal randomDeal(const State& state, Rng& rng) {
    const Rules& rules = state.rules();
    Deal deal;
    deal.round = state.round();
    const auto pool = eligibleFavourites(rules);
    DealtSets used;
    deal.favourites.reserve(static_cast<std::size_t>(rules.players()));
    for (int p = 0; p < rules.players(); ++p) deal.favourites.push_back(drawCard(rules, pool, used, rng));
    if (rules.options().ambition) {
        std::array<AmbitionCard, kAmbitionCardCount> deck{};
        for (int c = 0; c < kAmbitionCardCount; ++c) deck[c] = static_cast<AmbitionCard>(c);
        shuffle(deck, rng);
        deal.ambitions.reserve(static_cast<std::size_t>(rules.players()));
        for (int p = 0; p < rules.players(); ++p) deal.ambitions.push_back({deck[2 * p], deck[2 * p + 1]});
    }
    if (rules.hasEmissary()) {
        EmissaryDeal emissary;
        emissary.favourites = drawCard(rules, pool, used, rng);
        emissary.pile = handAsPile(rules.startingHand());
        shuffle(emissary.pile, rng);
        deal.emissary = std::move(emissary);
    }
    if (!rules.hasPlacementPhase()) {
        // The online preset: every character at random on floors 0-3, at most 4 a floor.
        std::array<int, 4> room{4, 4, 4, 4};
        deal.placement.assign(rules.roster().size(), Place::Floor0);
        for (auto& where : deal.placement) {
            std::array<int, 4> open{};
            std::uint32_t n = 0;
            for (int f = 0; f < 4; ++f)
                if (room[f] > 0) open[n++] = f;
            int f = open[rng.below(n)];
            --room[f];
            where = floorPlace(f);
        }
    }
    return deal;
}

void playRandomDeal(State& state, Rng& rng) { state.startRound(randomDeal(state, rng), nullptr); }

Reshuffle randomReshuffle(const State& state, Rng& rng) {
    Reshuffle r{state.emissaryPile()};
    shuffle(r.pile, rng);
    return r;
}

namespace {

// Random play's draws pick the k-th of a set given as a bit mask. Which bit
// that is depends on the draw, so a loop or a test on it is a branch no
// predictor can guess; this reads it from byte tables instead, without
// branches (baseline x86-64 has no instruction that selects the k-th bit,
// nor one that counts them).
struct ByteTables {
    std::array<std::uint8_t, 256> bits{};                   // set bits of a byte
    std::array<std::array<std::uint8_t, 8>, 256> select{};  // [byte][k]: the k-th set bit
};
constexpr ByteTables kByte = [] {
    ByteTables t;
    for (unsigned b = 0; b < 256; ++b) {
        std::uint8_t n = 0;
        for (std::uint8_t i = 0; i < 8; ++i)
            if (b & (1u << i)) t.select[b][n++] = i;
        t.bits[b] = n;
    }
    return t;
}();

// The index of the k-th set bit of a mask of up to 32 bits (k below its bit
// count): past each byte that holds fewer than k + 1 of them, by selects.
[[gnu::always_inline]] inline std::uint8_t nthBit(std::uint32_t mask, std::uint32_t k) {
    std::uint32_t shift = 0;
    for (int i = 0; i < 3; ++i) {
        const std::uint32_t inByte = kByte.bits[(mask >> shift) & 0xFF];
        const bool past = k >= inByte;
        k -= past ? inByte : 0;
        shift += past ? 8 : 0;
    }
    return static_cast<std::uint8_t>(shift + kByte.select[(mask >> shift) & 0xFF][k & 7]);
}

// q = k / n and k % n for the placement's draw (n = open floors, 1 to 4;
// k below 4 * kMaxCharacters) by a multiplication: a division by a
// variable takes tens of cycles.
constexpr std::array<std::uint32_t, 5> kReciprocal{0, 65536, 32768, 21846, 16384};
constexpr bool reciprocalsExact() {
    for (std::uint32_t n = 1; n <= 4; ++n)
        for (std::uint32_t k = 0; k < 4 * kMaxCharacters; ++k)
            if (((k * kReciprocal[n]) >> 16) != k / n) return false;
    return true;
}
static_assert(reciprocalsExact());

// The three draws random play makes almost every time, shared by
// randomAction (which returns the action) and playRandomAction (which
// applies it at once). Each is the same uniform choice as the legal list,
// made without building it.

[[gnu::always_inline]] inline Action drawPlacement(const State& state, Rng& rng) {
    // Every (waiting character, floor 1-4 with room) pair, character first.
    const unsigned waiting = state.charactersAt(Place::Reserve);
    const int limit = state.rules().floorLimit();
    std::array<Place, 4> open{};
    std::uint32_t nOpen = 0;
    for (int f = 1; f <= 4; ++f) {
        open[nOpen] = floorPlace(f);
        nOpen += state.countAt(floorPlace(f)) < limit;
    }
    const auto nWaiting = static_cast<std::uint32_t>(state.countAt(Place::Reserve));
    const std::uint32_t k = rng.below(nWaiting * nOpen);
    const std::uint32_t q = (k * kReciprocal[nOpen]) >> 16;
    return Action::place(state.seatToAct(), CharacterId{nthBit(waiting, q)}, open[k - q * nOpen]);
}

// A move, or the seat's pass when nothing can move.
[[gnu::always_inline]] inline Action drawMove(const State& state, Rng& rng) {
    // Each character has at most one legal move, so drawing characters
    // until one can move is uniform over the legal moves.
    const unsigned movable = state.movableCharacters();
    if (movable == 0) return Action::pass(state.seatToAct());
    const auto n = static_cast<std::uint32_t>(state.characterCount());
    for (;;) {
        const CharacterId c{static_cast<std::uint8_t>(rng.below(n))};
        if ((movable >> c.index) & 1u)
            return Action::move(state.seatToAct(), c, state.movableTo(state.placeOf(c)));
    }
}

[[gnu::always_inline]] inline Action drawVote(const State& state, Rng& rng) {
    // Uniform over every (seat, card) vote still open, in seat order, then
    // Yes, No, Stomachache: bit 4 * seat + card of a mask, and the k-th bit.
    static_assert(kMaxSeats * 4 <= 32);
    std::uint32_t open = 0;
    std::uint32_t n = 0;
    const int seats = state.rules().seats();
    for (int i = 0; i < seats; ++i) {
        const Seat s{static_cast<std::uint8_t>(i)};
        const Hand& hand = state.hand(s);
        const auto waiting = static_cast<std::uint32_t>(!state.hasVoted(s));
        const auto yes = static_cast<std::uint32_t>(hand.yes > 0) & waiting;
        const auto no = static_cast<std::uint32_t>(hand.no > 0) & waiting;
        const auto stomachache = static_cast<std::uint32_t>(hand.stomachache > 0) & waiting;
        open |= (yes | no << 1 | stomachache << 2) << (4 * i);
        n += yes + no + stomachache;
    }
    const std::uint8_t bit = nthBit(open, rng.below(n));
    return Action::vote(Seat{static_cast<std::uint8_t>(bit >> 2)}, static_cast<VoteCard>(bit & 3u));
}

Action drawFromLegal(const State& state, Rng& rng) {
    ActionList legal;
    state.legalActions(legal);
    return legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
}

}  // namespace

Action randomAction(const State& state, Rng& rng) {
    switch (state.phase()) {
        case Phase::Placement:
            return drawPlacement(state, rng);
        case Phase::Ascent:
            return drawMove(state, rng);
        case Phase::Election:
            return drawVote(state, rng);
        default:
            return drawFromLegal(state, rng);
    }
}

Action playRandomAction(State& state, Rng& rng) {
    // The draw knows which kind of action it made and that it is legal, so
    // it goes straight to the step that carries it out: no dispatch on the
    // action's kind, no second legality test, no refusal to return.
    switch (state.phase_) {
        case Phase::Placement: {
            const Action a = drawPlacement(state, rng);
            state.doPlace(a, nullptr);
            return a;
        }
        case Phase::Ascent: {
            const Action a = drawMove(state, rng);
            if (a.kind() == ActionKind::Move)
                state.doMove(a, nullptr);
            else
                state.doPass(a, nullptr);
            return a;
        }
        case Phase::Election: {
            const Action a = drawVote(state, rng);
            state.doVote(a, nullptr);
            return a;
        }
        default: {
            // Keeping an Ambition card: once a player a round, through the checks.
            const Action a = drawFromLegal(state, rng);
            state.applyAction(a, nullptr);
            return a;
        }
    }
}

State sampleWorld(const State& truth, Seat viewer, Rng& rng) {
    State world = truth;
    const Rules& rules = truth.rules();
    if (truth.phase() == Phase::AwaitDeal || truth.isOver()) return world;  // no card of the round is out
    auto own = [&](int p) { return rules.seatOf(PlayerId{static_cast<std::uint8_t>(p)}) == viewer; };

    if (!truth.favouritesRevealed()) {
        // The cards the viewer knows: its own (and its teammate's) and the Emissary's, face up.
        DealtSets used;
        auto maskOf = [](const FavouritesCard& card) {
            std::uint32_t mask = 0;
            for (auto c : card.characters) mask |= 1u << c.index;
            return mask;
        };
        for (int p = 0; p < rules.players(); ++p)
            if (own(p)) used.add(maskOf(truth.favourites_[p]));
        if (rules.hasEmissary()) used.add(maskOf(truth.emissaryFavourites_));
        const auto pool = eligibleFavourites(rules);
        for (int p = 0; p < rules.players(); ++p)
            if (!own(p)) world.favourites_[p] = drawCard(rules, pool, used, rng);
    }

    if (rules.options().ambition) {
        // No card is dealt twice in a round: the others' come from the rest of the deck.
        std::array<bool, kAmbitionCardCount> seen{};
        for (int p = 0; p < rules.players(); ++p)
            if (own(p))
                for (auto c : truth.ambitionDealt_[p])
                    if (c != AmbitionCard::Unknown) seen[static_cast<int>(c)] = true;
        BoundedVector<AmbitionCard, kAmbitionCardCount> deck;
        for (int c = 0; c < kAmbitionCardCount; ++c)
            if (!seen[c]) deck.push_back(static_cast<AmbitionCard>(c));
        shuffle(deck, rng);
        std::size_t next = 0;
        for (int p = 0; p < rules.players(); ++p) {
            if (own(p) || truth.ambitionDealt_[p][0] == AmbitionCard::Unknown) continue;
            world.ambitionDealt_[p] = {deck[next], deck[next + 1]};
            next += 2;
            if (truth.ambitionKept_[p] != AmbitionCard::Unknown)
                world.ambitionKept_[p] = world.ambitionDealt_[p][rng.below(2)];
        }
    }

    if (truth.phase() == Phase::Election) {
        // A vote cast and not yet revealed: any card its seat holds.
        for (int s = 0; s < rules.seats(); ++s) {
            if (s == viewer.index || truth.votes_[s] == VoteCard::Unknown) continue;
            const Hand& hand = truth.hands_[s];
            std::array<VoteCard, 3> held{};
            std::uint32_t n = 0;
            for (auto c : {VoteCard::Yes, VoteCard::No, VoteCard::Stomachache})
                if (hand.holds(c)) held[n++] = c;
            world.votes_[s] = held[rng.below(n)];
        }
    }

    if (rules.hasEmissary() && truth.emissaryPileSize_ > 1) {
        // Sorted first, so that the order drawn owes nothing to the real one.
        std::sort(world.emissaryPile_.begin(), world.emissaryPile_.begin() + truth.emissaryPileSize_);
        for (std::size_t i = truth.emissaryPileSize_; i > 1; --i)
            std::swap(world.emissaryPile_[i - 1],
                      world.emissaryPile_[rng.below(static_cast<std::uint32_t>(i))]);
    }
    return world;
}

}  // namespace vivaref::engine
