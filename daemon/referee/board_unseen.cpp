// What a late or failing reader hid: several characters out of place judged
// in the order they were lifted; the hold while a reader that missed a scan
// catches up (a placement, or a character out of place that may move onto
// its place); what is seen afterwards explained as the seats' actions in
// turn (REFEREE-NOTES.md, "When the readers are late").
#include <algorithm>

#include "daemon/referee/board_part.hpp"
#include "daemon/referee/board_places.hpp"

namespace vivaref::referee {

using engine::Phase;

std::optional<Difference> BoardPart::firstLifted(const std::vector<Difference>& diffs) const {
    // Each must be a character of this game standing on a place, lifted
    // since the game last moved it; the lifts in a row, each liftsApart or
    // more after the one before.
    std::vector<std::pair<Timestamp, const Difference*>> lifts;
    for (const auto& d : diffs) {
        if (d.id.index >= state()->rules().roster().size() || d.seen.kind != Sighting::Kind::OnPlace)
            return std::nullopt;
        auto it = liftedAt_.find(d.slug);
        if (it == liftedAt_.end() || it->second < boardActionAt_) return std::nullopt;
        lifts.emplace_back(it->second, &d);
    }
    std::sort(lifts.begin(), lifts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 1; i < lifts.size(); ++i)
        if (lifts[i].first - lifts[i - 1].first < ctx_.options.liftsApart) return std::nullopt;
    return *lifts.front().second;
}

bool BoardPart::failingHold() const {
    if (!failingHoldUntil_ || ctx_.now >= *failingHoldUntil_ || !state()) return false;
    const auto& moved = comparison_.differences;
    engine::ActionList legal;
    state()->legalActions(legal);
    return std::any_of(legal.begin(), legal.end(), [&](const engine::Action& a) {
        // A placement comes from beside the board: any target may hide it. A
        // move only when its character is out of place: a neighbour may be
        // reading it by cross-talk while its reader catches up.
        if (a.kind() == engine::ActionKind::Move) {
            if (std::none_of(moved.begin(), moved.end(),
                             [&](const Difference& d) { return d.id == a.character(); }))
                return false;
        } else if (a.kind() != engine::ActionKind::Place) {
            return false;
        }
        const auto place = boardPlace(a.to());
        return place && failingPlaces_.count(*place);
    });
}

namespace {

// The seats' actions in turn on a copy of `state`: each difference in the
// order of `plan` (first onto `via[i]`, when it has a stop), with the passes
// the referee makes for a seat that can only pass. The first of them when
// the engine allows them all.
std::optional<engine::Action> playUnseenInTurn(const engine::State& state,
                                               const std::vector<Difference>& diffs,
                                               const std::vector<std::size_t>& plan,
                                               const std::vector<std::optional<engine::Place>>& via) {
    engine::State copy = state;
    std::optional<engine::Action> first;
    auto play = [&](const engine::Action& action) {
        if (copy.apply(action)) return false;
        if (!first) first = action;
        return true;
    };
    auto act = [&](engine::CharacterId c, engine::Place to) {
        for (int passes = 0;; ++passes) {
            if (copy.phase() != Phase::Placement && copy.phase() != Phase::Ascent) return false;
            engine::ActionList legal;
            copy.legalActions(legal);
            if (legal.size() != 1 || legal[0].kind() != engine::ActionKind::Pass) break;
            if (passes == state.rules().seats() || !play(legal[0])) return false;
        }
        const engine::Seat seat = copy.seatToAct();
        return play(copy.placeOf(c) == engine::Place::Reserve ? engine::Action::place(seat, c, to)
                                                              : engine::Action::move(seat, c, to));
    };
    for (std::size_t i : plan) {
        const auto& d = diffs[i];
        // The engine itself put it there meanwhile (the leftovers to floor 0).
        if (!via[i] && copy.placeOf(d.id) == *d.seen.place) continue;
        if (via[i] && !act(d.id, *via[i])) return std::nullopt;
        if (!act(d.id, *d.seen.place)) return std::nullopt;
    }
    return first;
}

// Every order of the differences, `likeliest` first, each played in turn
// with the stops `via`: the first action of the first the engine allows.
std::optional<engine::Action> firstUnseenInAnyOrder(const engine::State& state,
                                                    const std::vector<Difference>& diffs,
                                                    const std::vector<std::size_t>& likeliest,
                                                    const std::vector<std::optional<engine::Place>>& via) {
    std::vector<std::size_t> rank(likeliest.size());
    for (std::size_t i = 0; i < likeliest.size(); ++i) rank[likeliest[i]] = i;
    std::vector<std::size_t> plan = likeliest;
    do {
        if (auto first = playUnseenInTurn(state, diffs, plan, via)) return first;
    } while (std::next_permutation(plan.begin(), plan.end(),
                                   [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; }));
    return std::nullopt;
}

}  // namespace

Timestamp BoardPart::lastLift(const Difference& d) const {
    auto it = liftedAt_.find(d.slug);
    return it == liftedAt_.end() ? Timestamp::max() : it->second;
}

bool BoardPart::liftedTogether(const std::vector<Difference>& diffs) const {
    std::vector<Timestamp> lifts;
    for (const auto& d : diffs)
        if (const Timestamp at = lastLift(d); at != Timestamp::max() && at >= boardActionAt_)
            lifts.push_back(at);
    std::sort(lifts.begin(), lifts.end());
    for (std::size_t i = 1; i < lifts.size(); ++i)
        if (lifts[i] - lifts[i - 1] < ctx_.options.liftsApart) return true;
    return false;
}

std::vector<std::size_t> BoardPart::landingOrder(const std::vector<Difference>& diffs) const {
    auto arrived = [&](const Difference& d) {
        auto it = arrivedAt_.find(d.slug);
        return it == arrivedAt_.end() ? Timestamp::max() : it->second;
    };
    std::vector<std::size_t> order(diffs.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return arrived(diffs[a]) < arrived(diffs[b]); });
    return order;
}

std::vector<std::vector<std::optional<engine::Place>>> BoardPart::unseenStops(
    const std::vector<Difference>& diffs) const {
    std::vector<std::vector<std::optional<engine::Place>>> stops(diffs.size());
    for (std::size_t i = 0; i < diffs.size(); ++i) {
        stops[i].push_back(std::nullopt);
        const auto& d = diffs[i];
        if (!d.expected) continue;
        for (const auto& [place, gap] : gaps_)
            if (place != *d.expected && place != *d.seen.place && gap.last >= lastLift(d))
                stops[i].push_back(place);
    }
    return stops;
}

std::optional<engine::Action> BoardPart::explainUnseen(const std::vector<Difference>& diffs) const {
    // Each difference a character of this game now on a place; a handful at
    // most (every order is tried).
    if (diffs.empty() || diffs.size() > 4) return std::nullopt;
    for (const auto& d : diffs)
        if (d.id.index >= state()->rules().roster().size() || d.seen.kind != Sighting::Kind::OnPlace)
            return std::nullopt;
    // One hand moved them at once: several-moved, as always.
    if (liftedTogether(diffs)) return std::nullopt;
    const auto likeliest = landingOrder(diffs);
    const auto choices = unseenStops(diffs);
    // No stop on an unseen place first, then one; each time every order,
    // likeliest first.
    std::vector<std::optional<engine::Place>> via(diffs.size());
    for (std::size_t stops = 0; stops <= 1; ++stops) {
        std::vector<std::size_t> pick(diffs.size(), 0);  // an index into each choices[i]
        while (true) {
            std::size_t used = 0;
            for (std::size_t i = 0; i < diffs.size(); ++i) {
                via[i] = choices[i][pick[i]];
                used += via[i].has_value();
            }
            if (used == stops)
                if (auto first = firstUnseenInAnyOrder(*state(), diffs, likeliest, via)) return first;
            std::size_t i = 0;
            while (i < diffs.size() && ++pick[i] == choices[i].size()) pick[i++] = 0;
            if (i == diffs.size()) break;
        }
    }
    return std::nullopt;
}

}  // namespace vivaref::referee
