// What a late or failing reader hid: several characters out of place judged
// in the order they were lifted; the hold while a reader that missed a scan
// catches up (a placement, or a character out of place that may move onto
// its place); what is seen afterwards explained as the seats' actions in
// turn (REFEREE-NOTES.md, "When the readers are late").
#include <algorithm>
#include <functional>

#include "daemon/referee/board_part.hpp"
#include "daemon/referee/board_places.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"

namespace vivaref::referee {

using engine::Phase;
using nlohmann::json;

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
// the referee makes for a seat that can only pass. All of them, when the
// engine allows them all.
std::optional<std::vector<engine::Action>> playUnseenInTurn(
    const engine::State& state, const std::vector<Difference>& diffs, const std::vector<std::size_t>& plan,
    const std::vector<std::optional<engine::Place>>& via) {
    engine::State copy = state;
    std::vector<engine::Action> played;
    auto play = [&](const engine::Action& action) {
        if (copy.apply(action)) return false;
        played.push_back(action);
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
    if (played.empty()) return std::nullopt;
    return played;
}

// Every order of the differences, `likeliest` first, each played in turn
// with the stops `via`: each way the engine allows added to `ways` (an
// order that gives a way already there is one more order of it).
void addUnseenWays(const engine::State& state, const std::vector<Difference>& diffs,
                   const std::vector<std::size_t>& likeliest,
                   const std::vector<std::optional<engine::Place>>& via,
                   const std::function<bool(const std::vector<std::size_t>&)>& timesAllow,
                   std::vector<UnseenWay>& ways) {
    std::vector<std::size_t> rank(likeliest.size());
    for (std::size_t i = 0; i < likeliest.size(); ++i) rank[likeliest[i]] = i;
    std::vector<std::size_t> plan = likeliest;
    do {
        if (!timesAllow(plan)) continue;
        auto actions = playUnseenInTurn(state, diffs, plan, via);
        if (!actions) continue;
        std::vector<drivers::CharacterSlug> order;
        for (std::size_t i : plan) order.push_back(diffs[i].slug);
        auto same =
            std::find_if(ways.begin(), ways.end(), [&](const UnseenWay& w) { return w.actions == *actions; });
        if (same != ways.end()) {
            if (std::find(same->orders.begin(), same->orders.end(), order) == same->orders.end())
                same->orders.push_back(std::move(order));
        } else if (std::none_of(ways.begin(), ways.end(), [&](const UnseenWay& w) {
                       return std::find(w.orders.begin(), w.orders.end(), order) != w.orders.end();
                   })) {
            // (An order that gave another way through other stops already: the
            // likelier stops stand, an order names one way.)
            ways.push_back(UnseenWay{{std::move(order)}, std::move(*actions)});
        }
    } while (std::next_permutation(plan.begin(), plan.end(),
                                   [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; }));
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

bool BoardPart::landingsAllow(const std::vector<Difference>& diffs,
                              const std::vector<std::size_t>& plan) const {
    auto within = [&](std::size_t i) {
        auto it = landedWithin_.find(diffs[i].slug);
        return it == landedWithin_.end() ? std::pair(Timestamp::min(), Timestamp::max()) : it->second;
    };
    // Lifted since the board last gave an action, liftsApart or more after
    // another: moved after it (as firstLifted() judges them).
    auto lifted = [&](std::size_t i) {
        const Timestamp at = lastLift(diffs[i]);
        return at != Timestamp::max() && at >= boardActionAt_ ? std::optional(at) : std::nullopt;
    };
    for (std::size_t i = 0; i < plan.size(); ++i)
        for (std::size_t j = i + 1; j < plan.size(); ++j) {
            if (within(plan[i]).first > within(plan[j]).second) return false;
            const auto early = lifted(plan[j]);
            const auto late = lifted(plan[i]);
            if (early && late && *late - *early >= ctx_.options.liftsApart) return false;
        }
    return true;
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

std::vector<UnseenWay> BoardPart::explainUnseen(const std::vector<Difference>& diffs) const {
    // Each difference a character of this game now on a place; a handful at
    // most (every order is tried).
    if (diffs.empty() || diffs.size() > 4) return {};
    for (const auto& d : diffs)
        if (d.id.index >= state()->rules().roster().size() || d.seen.kind != Sighting::Kind::OnPlace)
            return {};
    // One hand moved them at once: several-moved, as always.
    if (liftedTogether(diffs)) return {};
    const auto likeliest = landingOrder(diffs);
    const auto choices = unseenStops(diffs);
    // No stop on an unseen place first, then one; each time every order the
    // landings' times allow, likeliest first. The ways with the fewest stops
    // count. Should the times allow none (a reader's timing off), every order.
    std::vector<UnseenWay> ways;
    std::vector<std::optional<engine::Place>> via(diffs.size());
    for (const bool timed : {true, false}) {
        const auto timesAllow = [&](const std::vector<std::size_t>& plan) {
            return !timed || landingsAllow(diffs, plan);
        };
        for (std::size_t stops = 0; stops <= 1 && ways.empty(); ++stops) {
            std::vector<std::size_t> pick(diffs.size(), 0);  // an index into each choices[i]
            while (true) {
                std::size_t used = 0;
                for (std::size_t i = 0; i < diffs.size(); ++i) {
                    via[i] = choices[i][pick[i]];
                    used += via[i].has_value();
                }
                if (used == stops) addUnseenWays(*state(), diffs, likeliest, via, timesAllow, ways);
                std::size_t i = 0;
                while (i < diffs.size() && ++pick[i] == choices[i].size()) pick[i++] = 0;
                if (i == diffs.size()) break;
            }
        }
        if (!ways.empty()) break;
    }
    return ways;
}

// --- the order the readers missed --------------------------------------------

namespace {

// One action of a way in words, without its full stop ("Ann placed Merlin
// on floor 1"); a pass says nothing.
std::optional<engine::Message> unseenStepMessage(const Context& ctx, const engine::Action& a,
                                                 const std::vector<Difference>& diffs,
                                                 const engine::State& before) {
    if (a.kind() != engine::ActionKind::Place && a.kind() != engine::ActionKind::Move) return std::nullopt;
    auto d =
        std::find_if(diffs.begin(), diffs.end(), [&](const Difference& x) { return x.id == a.character(); });
    if (d == diffs.end()) return std::nullopt;
    if (a.kind() == engine::ActionKind::Place)
        return engine::Message("order.step-placed", {{"seat", ctx.seatWords(a.seat())},
                                                     {"character", characterOf(*d)},
                                                     {"to", engine::say::place(a.to())}});
    return engine::Message("order.step-moved", {{"seat", ctx.seatWords(a.seat())},
                                                {"character", characterOf(*d)},
                                                {"from", engine::say::place(before.placeOf(a.character()))},
                                                {"to", engine::say::place(a.to())}});
}

// A way as the host's answer: "Merlin first: Ann placed Merlin on floor 1,
// then Bruno placed Odessa on floor 2."
engine::Message unseenWayMessage(const Context& ctx, const UnseenWay& way,
                                 const std::vector<Difference>& diffs, const engine::State& state) {
    engine::State copy = state;
    std::optional<engine::Message> steps;
    for (const auto& a : way.actions) {
        if (auto step = unseenStepMessage(ctx, a, diffs, copy))
            steps = steps ? engine::Message("order.then", {{"before", engine::say::message(*steps)},
                                                           {"after", engine::say::message(*step)}})
                          : *step;
        (void)copy.apply(a);
    }
    const auto first = std::find_if(diffs.begin(), diffs.end(), [&](const Difference& d) {
        return d.slug == way.orders.front().front();
    });
    return engine::Message(
        "order.answer", {{"character", characterOf(*first)},
                         {"steps", engine::say::message(steps.value_or(engine::Message("order.nothing")))}});
}

}  // namespace

engine::Message BoardPart::questionMessage() const {
    std::vector<engine::MessageValue> names;
    for (const auto& d : question_->diffs) names.push_back(characterOf(d));
    return engine::Message("order.question", {{"characters", engine::say::list(std::move(names))}});
}

void BoardPart::ask(const std::vector<Difference>& diffs, std::vector<UnseenWay> ways) {
    question_ = OrderQuestion{diffs, std::move(ways)};
    unseenAfterResume_.clear();
    ++ctx_.counters.orderQuestions;
    // Logged, so that a game resumed from the log asks it again.
    json characters = json::array();
    for (const auto& d : diffs) characters.push_back(d.slug.name);
    (void)ctx_.refereeEvent("order-question", json{{"characters", std::move(characters)}});
    ctx_.notice("order-question", questionMessage(), questionJson());
}

bool BoardPart::questionStands() const {
    // Each character asked about still seen where it was when asked.
    return question_ &&
           std::all_of(question_->diffs.begin(), question_->diffs.end(), [&](const Difference& q) {
               return std::any_of(comparison_.differences.begin(), comparison_.differences.end(),
                                  [&](const Difference& d) { return d.slug == q.slug && d.seen == q.seen; });
           });
}

json BoardPart::questionJson() const {
    if (!question_) return nullptr;
    json characters = json::array();
    for (const auto& d : question_->diffs)
        characters.push_back(
            json{{"character", d.slug.name}, {"on", placeJson(d.seen.place)}, {"seen", describe(d.seen)}});
    json answers = json::array();
    for (const auto& way : question_->ways) {
        json order = json::array();
        for (const auto& slug : way.orders.front()) order.push_back(slug.name);
        json actions = json::array();
        for (const auto& a : way.actions) {
            if (a.kind() == engine::ActionKind::Pass) continue;
            actions.push_back(json{{"action", a.kind() == engine::ActionKind::Place ? "place" : "move"},
                                   {"seat", a.seat().index},
                                   {"character", ctx_.slug(a.character())},
                                   {"to", engine::placeName(a.to())}});
        }
        const auto says = unseenWayMessage(ctx_, way, question_->diffs, *state());
        answers.push_back(json{{"characters", std::move(order)},
                               {"actions", std::move(actions)},
                               {"text", words::english().say(says)},
                               {"says", words::messageJson(says)}});
    }
    const auto says = questionMessage();
    return json{{"characters", std::move(characters)},
                {"text", words::english().say(says)},
                {"says", words::messageJson(says)},
                {"answers", std::move(answers)}};
}

std::optional<HostAnswer> BoardPart::answerOrder(const std::vector<std::string>& characters,
                                                 Decider& decider) {
    if (!question_ || !questionStands())
        return HostAnswer::refused("no-question", engine::Message("order.no-question"), ctx_.game.id);
    const auto way = std::find_if(question_->ways.begin(), question_->ways.end(), [&](const UnseenWay& w) {
        return std::any_of(w.orders.begin(), w.orders.end(), [&](const auto& order) {
            return std::equal(order.begin(), order.end(), characters.begin(), characters.end(),
                              [](const drivers::CharacterSlug& slug, const std::string& name) {
                                  return slug.name == name;
                              });
        });
    });
    if (way == question_->ways.end())
        return HostAnswer::refused(
            "not-an-answer",
            engine::Message("order.not-an-answer", {{"question", engine::say::message(questionMessage())}}),
            ctx_.game.id);
    const UnseenWay chosen = *way;
    const auto says = unseenWayMessage(ctx_, chosen, question_->diffs, *state());
    question_.reset();
    for (const auto& a : chosen.actions) {
        const auto verdict =
            a.kind() == engine::ActionKind::Pass ? decider.decide(a, true) : acceptBoardAction(a, decider);
        // Not saved, or no longer legal: what is left is judged from the board again.
        if (!verdict.isTaken()) break;
    }
    return HostAnswer::accepted(ctx_.game.id,
                                engine::Message("order.answered", {{"answer", engine::say::message(says)}}));
}

void BoardPart::askAgainAfterResume(const std::vector<std::string>& characters) {
    unseenAfterResume_ = std::set<std::string>(characters.begin(), characters.end());
    compare();
    std::erase_if(
        guided_, [&](const drivers::CharacterSlug& slug) { return unseenAfterResume_.count(slug.name) > 0; });
}

}  // namespace vivaref::referee
