#include "engine/players/search_player.hpp"

#include <algorithm>
#include <cmath>

namespace vivaref::engine::players {
namespace {

// The stop callback is asked this often (a clock read costs more than an
// iteration's bookkeeping, far less than a playout).
constexpr std::int64_t kStopCheckEvery = 8;

struct Node {
    Action action;  // what led here (the root: none)
    Seat actor{};   // who did it
    std::int32_t parent = -1;
    std::int32_t firstChild = -1;
    std::int32_t nextSibling = -1;
    std::int64_t visits = 0;
    std::int64_t available = 0;  // times it was legal when its parent was passed
    double reward = 0;           // the actor's, summed
};

class Tree {
public:
    explicit Tree(std::int64_t expected) {
        nodes_.reserve(static_cast<std::size_t>(std::min<std::int64_t>(expected + 1, 1 << 20)));
        nodes_.push_back(Node{});
    }
    Node& operator[](std::int32_t i) { return nodes_[static_cast<std::size_t>(i)]; }
    const Node& operator[](std::int32_t i) const { return nodes_[static_cast<std::size_t>(i)]; }
    std::int32_t add(std::int32_t parent, const Action& a, Seat actor) {
        const auto id = static_cast<std::int32_t>(nodes_.size());
        Node n;
        n.action = a;
        n.actor = actor;
        n.parent = parent;
        n.nextSibling = nodes_[static_cast<std::size_t>(parent)].firstChild;
        nodes_.push_back(n);
        nodes_[static_cast<std::size_t>(parent)].firstChild = id;
        return id;
    }
    std::int32_t childWith(std::int32_t parent, const Action& a) {
        for (auto c = (*this)[parent].firstChild; c != -1; c = (*this)[c].nextSibling)
            if ((*this)[c].action == a) return c;
        return -1;
    }

private:
    std::vector<Node> nodes_;
};

bool isSimultaneous(Phase phase) { return phase == Phase::Election || phase == Phase::KeepAmbition; }

// One search's tree and the walks of its iterations: down the tree in a
// sampled world (selection and expansion), then the rewards back up.
class TreeWalk {
public:
    TreeWalk(Seat seat, Rng& rng, double exploration, std::int64_t iterations)
        : tree_(iterations), seat_(seat), rng_(rng), exploration_(exploration) {}

    // Selection and expansion: from the root down in `world` (the root
    // decides for the searching seat, the rest in turn) until one node is
    // added or the game ends. Returns the actions applied to `world`.
    std::int64_t selectAndExpand(State& world);
    // Adds each seat's reward to the nodes of the last walk where it acted.
    void backUp(const std::vector<double>& rewards);
    // The searching seat's children of the root, most visited first (the
    // first found on a tie).
    std::vector<SearchReport::Choice> rootChoices() const;

private:
    std::int32_t decideTogether(State& world, std::int32_t node);
    // Inlined where called, as when the search was one function (GCC 12
    // keeps them calls otherwise, about 1 % more instructions in the tree).
    [[gnu::always_inline]] std::int32_t take(State& world, std::int32_t node, Seat actor);
    [[gnu::always_inline]] std::int32_t descend(std::int32_t node, Seat actor);

    Tree tree_;
    Seat seat_;
    Rng& rng_;
    double exploration_;
    ActionList legal_;                // the actor's, in this world
    std::vector<std::int32_t> path_;  // the nodes of the last walk
    std::int64_t applied_ = 0;
    bool expanded_ = false;
};

std::int64_t TreeWalk::selectAndExpand(State& world) {
    path_.clear();
    applied_ = 0;
    expanded_ = false;
    std::int32_t node = 0;
    while (!expanded_) {
        resolveChance(world, rng_);
        if (world.isOver()) break;
        if (isSimultaneous(world.phase())) {
            node = decideTogether(world, node);
            continue;
        }
        const Seat actor = node == 0 ? seat_ : nextToDecide(world);
        legalActionsOf(world, actor, legal_);
        if (legal_.empty()) break;  // never: a seat with no move passes
        node = take(world, node, actor);
    }
    return applied_;
}

// Votes or Ambition keeps: every seat still to choose picks among its own
// children of this one node, so no choice in the tree depends on another
// made at the same time (the tree's order is the engine's, not what the
// seats saw). The walk goes on under the searching seat's own choice, which
// it knows; under this node if it had none to make.
std::int32_t TreeWalk::decideTogether(State& world, std::int32_t together) {
    const Phase simultaneous = world.phase();
    std::int32_t own = -1;
    while (!world.isOver() && world.phase() == simultaneous) {
        const Seat actor = nextToDecide(world);
        legalActionsOf(world, actor, legal_);
        const auto chosen = take(world, together, actor);
        if (actor == seat_) own = chosen;
    }
    return own != -1 ? own : together;
}

// `actor`'s child of `node` (descend), applied to `world` and added to the walk.
[[gnu::always_inline]] inline std::int32_t TreeWalk::take(State& world, std::int32_t node, Seat actor) {
    const auto chosen = descend(node, actor);
    world.apply(tree_[chosen].action);
    ++applied_;
    path_.push_back(chosen);
    return chosen;
}

// One of `actor`'s children of `node`: an untried legal action if there is
// one (at random; it is added and the walk ends), else the best by UCB1
// with availability counts. Only the children legal for `actor` in this
// world count, and each of them was available once more.
[[gnu::always_inline]] inline std::int32_t TreeWalk::descend(std::int32_t node, Seat actor) {
    std::int32_t best = -1;
    double bestValue = -1;
    int untried = 0;
    Action pick;
    for (const auto& a : legal_) {
        const auto child = tree_.childWith(node, a);
        if (child == -1) {
            // An untried action: one of them at random (reservoir).
            if (rng_.below(static_cast<std::uint32_t>(++untried)) == 0) pick = a;
            continue;
        }
        Node& c = tree_[child];
        ++c.available;
        const double value = c.reward / static_cast<double>(c.visits) +
                             exploration_ * std::sqrt(std::log(static_cast<double>(c.available)) /
                                                      static_cast<double>(c.visits));
        if (value > bestValue) {
            bestValue = value;
            best = child;
        }
    }
    if (untried > 0) {
        best = tree_.add(node, pick, actor);
        tree_[best].available = 1;
        expanded_ = true;
    }
    return best;
}

void TreeWalk::backUp(const std::vector<double>& rewards) {
    for (const auto id : path_) {
        Node& n = tree_[id];
        ++n.visits;
        n.reward += rewards[n.actor.index];
    }
    ++tree_[0].visits;
}

std::vector<SearchReport::Choice> TreeWalk::rootChoices() const {
    std::vector<SearchReport::Choice> choices;
    for (auto c = tree_[0].firstChild; c != -1; c = tree_[c].nextSibling) {
        const Node& n = tree_[c];
        if (n.actor != seat_) continue;  // another seat's simultaneous choice
        choices.push_back(
            {n.action, n.visits, n.visits > 0 ? n.reward / static_cast<double>(n.visits) : 0.0});
    }
    std::stable_sort(choices.begin(), choices.end(),
                     [](const auto& a, const auto& b) { return a.visits > b.visits; });
    return choices;
}

}  // namespace

std::vector<double> seatRewards(const State& over) {
    const Rules& rules = over.rules();
    const int players = rules.players();
    const auto totals = over.totals();
    const auto winners = over.winners();
    std::vector<double> player(static_cast<std::size_t>(players), 0.0);
    for (int p = 0; p < players; ++p) {
        double ahead = 0;
        for (int q = 0; q < players; ++q) {
            if (q == p || rules.seatOf(PlayerId{static_cast<std::uint8_t>(q)}) ==
                              rules.seatOf(PlayerId{static_cast<std::uint8_t>(p)}))
                continue;
            ahead += totals[static_cast<std::size_t>(p)] > totals[static_cast<std::size_t>(q)]    ? 1.0
                     : totals[static_cast<std::size_t>(p)] == totals[static_cast<std::size_t>(q)] ? 0.5
                                                                                                  : 0.0;
        }
        const int others = players - rules.playersAt(rules.seatOf(PlayerId{static_cast<std::uint8_t>(p)}));
        player[static_cast<std::size_t>(p)] = others > 0 ? 0.2 * ahead / others : 0.0;
    }
    // A winning seat shares 0.8 with the other winning seats.
    std::vector<bool> seatWon(static_cast<std::size_t>(rules.seats()), false);
    for (auto w : winners) seatWon[rules.seatOf(w).index] = true;
    const auto winningSeats = static_cast<double>(std::count(seatWon.begin(), seatWon.end(), true));
    std::vector<double> seats(static_cast<std::size_t>(rules.seats()), 0.0);
    for (int s = 0; s < rules.seats(); ++s) {
        const Seat seat{static_cast<std::uint8_t>(s)};
        double sum = 0;
        for (int i = 0; i < rules.playersAt(seat); ++i) sum += player[rules.playerAt(seat, i).index];
        seats[static_cast<std::size_t>(s)] =
            sum / rules.playersAt(seat) + (seatWon[static_cast<std::size_t>(s)] ? 0.8 / winningSeats : 0.0);
    }
    return seats;
}

std::string SearchPlayer::name() const { return "search " + std::to_string(settings_.budget.iterations); }

Action SearchPlayer::choose(const State& state, Seat seat, Rng& rng) {
    return search(state, seat, rng, settings_.budget);
}

Action SearchPlayer::search(const State& state, Seat seat, Rng& rng, const SearchBudget& budget,
                            SearchReport* report) const {
    ActionList rootLegal;
    legalActionsOf(state, seat, rootLegal);
    if (rootLegal.size() == 1) {
        if (report) *report = SearchReport{0, 0, {{rootLegal[0], 0, 0.0}}};
        return rootLegal[0];
    }

    TreeWalk walk(seat, rng, settings_.exploration, budget.iterations);
    std::int64_t simulated = 0;
    std::int64_t done = 0;
    for (; done < budget.iterations; ++done) {
        if (done > 0 && done % kStopCheckEvery == 0 && budget.stop && budget.stop()) break;
        State world = sampleWorld(state, seat, rng);
        simulated += walk.selectAndExpand(world);
        // The playout: chance and moves at random, votes as a casual player's.
        simulated += playOut(world, rng, settings_.casualVotes);
        walk.backUp(seatRewards(world));
    }

    // The most visited of the root's children.
    SearchReport out{done, simulated, walk.rootChoices()};
    const Action chosen = out.choices.empty() ? rootLegal[0] : out.choices.front().action;
    if (report) *report = std::move(out);
    return chosen;
}

}  // namespace vivaref::engine::players
