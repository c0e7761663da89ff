// Judging the board and the vote keys. The board as seen is compared with
// the engine's expected position after every change; what a difference
// means depends on where the game is:
//   - guiding (the engine moved characters: an election's outcome, the
//     leftovers to floor 0, a new round, an undo, a resume): the characters
//     that differed when guidance began are guided, each until it has been
//     where the engine says (a piece in a hand counts as off the board);
//     then whatever else differs is judged as below, so a move the next
//     player made meanwhile is not lost;
//   - a refusal stands (repairs are never moves): nothing is accepted until
//     the whole board is back, the restore list following the board;
//   - a difference touching a faulty reader's place, or a character in a
//     hand: wait;
//   - one character elsewhere: the action of the seat to act, applied if the
//     engine allows it, refused with the engine's code and sentence if not;
//   - more than one, a character gone, a piece of no character of this
//     game: refused with our own codes (REFEREE-NOTES.md);
//   - the board matches: a refusal is lifted; a seat with no legal move
//     passes;
//   - physical cards face up and not yet entered: nothing is judged until
//     the host enters them (referee_reveal.cpp).
#include <algorithm>

#include "daemon/referee/board_places.hpp"
#include "daemon/referee/referee_impl.hpp"

namespace vivaref::referee {

using engine::Phase;
using nlohmann::json;

namespace {

bool sameBoard(const drivers::BoardObservation& a, const drivers::BoardObservation& b) {
    auto samePlaced = [](const auto& x, const auto& y) {
        return x.first == y.first && x.second.place == y.second.place &&
               x.second.uncertain == y.second.uncertain;
    };
    auto sameHand = [](const auto& x, const auto& y) {
        return x.first == y.first && x.second.liftedFrom == y.second.liftedFrom;
    };
    return std::equal(a.onBoard.begin(), a.onBoard.end(), b.onBoard.begin(), b.onBoard.end(), samePlaced) &&
           std::equal(a.inHand.begin(), a.inHand.end(), b.inHand.begin(), b.inHand.end(), sameHand) &&
           a.ambiguous == b.ambiguous && a.faultyReaders == b.faultyReaders &&
           a.failingReaders == b.failingReaders && a.unknownTags.size() == b.unknownTags.size();
}

json differenceJson(const Difference& d) {
    return json{{"character", d.character},
                {"expected", d.expected ? json(*d.expected) : json(nullptr)},
                {"seen", describe(d.seen)}};
}

std::string joinSentences(const std::vector<std::string>& parts) {
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? "; " : "") + parts[i];
    if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    return text + ".";
}

}  // namespace

void Referee::observe(const drivers::SensingUpdate& update, Timestamp now) {
    observe(update.observation, now);
}

void Referee::observe(const drivers::BoardObservation& observation, Timestamp now) {
    auto& m = *impl_;
    m.runDue(now, false);
    if (sameBoard(observation, m.seen)) return;
    const auto before = m.faultyReaders;
    // Places whose reader failed lately, and each one's gap.
    const bool wasFailing = !m.failingPlaces.empty();
    std::set<std::string> failing;
    for (const auto& reader : observation.failingReaders)
        if (auto index = m.layout.findReader(reader))
            failing.insert(m.layout.place(m.layout.placeOf(*index)).name);
    for (const auto& place : failing) {
        auto& gap = m.gaps[place];
        if (!m.failingPlaces.count(place)) gap.began = now;
        gap.last = now;
    }
    m.failingPlaces = std::move(failing);
    if (m.failingPlaces.empty())
        m.failingHoldUntil.reset();
    else if (!wasFailing)
        m.failingHoldUntil = now + m.options.failingHold;
    for (const auto& [slug, placed] : observation.onBoard) {
        auto was = m.seen.onBoard.find(slug);
        if (was != m.seen.onBoard.end() && was->second.place == placed.place) continue;
        // Seen landing during or just after its place's gap: it may have
        // landed any time since the gap began (the middle is the best guess).
        auto gap = m.gaps.find(placed.place.name);
        const bool unseen = gap != m.gaps.end() && now - gap->second.last <= m.options.liftsApart;
        m.arrivedAt[slug.name] = unseen ? gap->second.began + (now - gap->second.began) / 2 : now;
    }
    m.seen = observation;
    for (const auto& [slug, hand] : observation.inHand) m.liftedAt[slug.name] = hand.since;
    m.faultyReaders.clear();
    m.faultyPlaces.clear();
    for (const auto& reader : observation.faultyReaders) {
        m.faultyReaders.push_back(reader.name);
        if (auto index = m.layout.findReader(reader))
            m.faultyPlaces.insert(m.layout.place(m.layout.placeOf(*index)).name);
    }
    if (m.faultyReaders != before) {
        if (m.faultyReaders.empty())
            m.notice("reader-fault", "Every reader answers again.", json{{"faulty", json::array()}});
        else
            m.notice("reader-fault",
                     "A reader does not answer: moves touching its place wait until it is back.",
                     json{{"faulty", m.faultyReaders}});
    }
    m.settle();
    m.releaseHeldKeys();
}

void Referee::Impl::releaseHeldKeys() {
    if (heldKeys.empty() || !state) return;
    if (state->phase() == Phase::Election) {
        for (const auto& held : std::exchange(heldKeys, {})) pressKey(held.press);
    } else if (comparison.matches() && failingPlaces.empty()) {
        for (const auto& held : std::exchange(heldKeys, {}))
            privateNotice(held.press.station.number, "ignored-key", "No vote is open.", json::object());
    }
}

void Referee::Impl::expireHeldKeys(const std::function<bool(Timestamp)>& due) {
    std::vector<HeldKey> over;
    std::erase_if(heldKeys, [&](const HeldKey& held) {
        if (!due(held.until)) return false;
        over.push_back(held);
        return true;
    });
    for (const auto& held : over) {
        now = std::max(now, held.until);
        privateNotice(held.press.station.number, "ignored-key", "No vote is open.", json::object());
    }
}

void Referee::Impl::compare() {
    if (state)
        comparison = compareBoard(*state, seen, faultyPlaces);
    else
        comparison = {};
}

void Referee::Impl::startGuiding() {
    guiding = true;
    compare();
    guided.clear();
    for (const auto& d : comparison.differences) guided.insert(d.character);
}

void Referee::Impl::stopGuiding() {
    guiding = false;
    guided.clear();
}

bool Referee::Impl::guidanceDone() {
    // A guided character that has been in place once is no longer guided:
    // moving it again later is a move like any other.
    std::erase_if(guided, [&](const std::string& slug) {
        return std::none_of(comparison.differences.begin(), comparison.differences.end(),
                            [&](const Difference& d) { return d.character == slug; });
    });
    return guided.empty();
}

void Referee::Impl::settle() {
    // Each round of the loop accepts at most one decision; a game has far
    // fewer automatic decisions in a row than this.
    for (int guard = 0; guard < 64; ++guard) {
        compare();
        // The board agrees with the game: nothing went unseen before now.
        if (comparison.matches())
            std::erase_if(gaps, [&](const auto& gap) { return !failingPlaces.count(gap.first); });
        if (!state || status != GameStatus::Playing) return;
        if (autoKeep()) continue;
        if (guiding) {
            if (!guidanceDone()) return;
            stopGuiding();
            notice("guided", comparison.matches() ? "The board matches the game: play on."
                                                  : "The guided characters are in place: play on.");
        }
        // Physical cards face up and not yet entered: nothing is accepted.
        if (revealNeeded()) return;
        if (comparison.matches()) {
            if (refusal) clearRefusal("The board is back as it was: play on.");
            if (autoPass()) continue;
            return;
        }
        if (refusal && refusal->strict) {
            // Repairs are never moves: the restore list follows the board.
            refuse(refusal->code, refusal->message, comparison.differences);
            return;
        }
        if (failingHold() || !comparison.blindPlaces.empty() || comparison.unsettled) return;
        if (state->phase() == Phase::AwaitDeal || state->phase() == Phase::AwaitReshuffle) return;
        const auto& diffs = comparison.differences;
        if (!gaps.empty()) {
            // explainUnseen() tried the action on a copy: the engine takes it.
            if (const auto action = explainUnseen(diffs)) {
                if (action->kind() == engine::ActionKind::Pass ? decide(*action, true)
                                                               : acceptBoardAction(*action))
                    return;
                continue;
            }
        }
        std::optional<Difference> first;
        if (diffs.size() > 1) first = firstLifted(diffs);
        if (diffs.size() > 1 && !first) {
            std::vector<std::string> names;
            for (const auto& d : diffs) names.push_back(d.character);
            std::string list;
            for (std::size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + names[i];
            refuse("several-moved", "Several characters are out of place (" + list + "): move one at a time.",
                   diffs);
            return;
        }
        const Difference d = first ? *first : diffs.front();
        if (d.id.index >= state->rules().roster().size()) {
            refuse("not-in-game", d.character + " is not a character of this game.", diffs);
            return;
        }
        if (d.seen.kind == Sighting::Kind::Absent) {
            refuse("character-gone", d.character + " has left the board.", diffs, false);
            return;
        }
        const engine::Place to = enginePlace(d.seen.place);
        const engine::Seat seat = state->seatToAct();
        const engine::Place from = state->placeOf(d.id);
        const auto action = from == engine::Place::Reserve ? engine::Action::place(seat, d.id, to)
                                                           : engine::Action::move(seat, d.id, to);
        if (auto refused = acceptBoardAction(action)) {
            refuse(std::string(engine::refusalCodeName(refused->code)), refused->message, diffs);
            return;
        }
    }
}

std::optional<engine::Refusal> Referee::Impl::acceptBoardAction(const engine::Action& a) {
    const bool hadRefusal = refusal.has_value();
    if (auto refused = decide(a, false)) return refused;
    boardActionAt = now;
    flashPlace = boardPlace(a.to());
    flashUntil = now + options.flashFor;
    if (hadRefusal) clearRefusal("A legal action was completed: play on.");
    return std::nullopt;
}

std::optional<Difference> Referee::Impl::firstLifted(const std::vector<Difference>& diffs) const {
    // Each must be a character of this game standing on a place, lifted
    // since the game last moved it; the lifts in a row, each liftsApart or
    // more after the one before.
    std::vector<std::pair<Timestamp, const Difference*>> lifts;
    for (const auto& d : diffs) {
        if (d.id.index >= state->rules().roster().size() || d.seen.kind != Sighting::Kind::OnPlace)
            return std::nullopt;
        auto it = liftedAt.find(d.character);
        if (it == liftedAt.end() || it->second < boardActionAt) return std::nullopt;
        lifts.emplace_back(it->second, &d);
    }
    std::sort(lifts.begin(), lifts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 1; i < lifts.size(); ++i)
        if (lifts[i].first - lifts[i - 1].first < options.liftsApart) return std::nullopt;
    return *lifts.front().second;
}

bool Referee::Impl::failingHold() const {
    if (!failingHoldUntil || now >= *failingHoldUntil || !state) return false;
    std::set<std::string> moved;
    for (const auto& d : comparison.differences) moved.insert(d.character);
    engine::ActionList legal;
    state->legalActions(legal);
    return std::any_of(legal.begin(), legal.end(), [&](const engine::Action& a) {
        // A placement comes from beside the board: any target may hide it. A
        // move only when its character is out of place: a neighbour may be
        // reading it by cross-talk while its reader catches up.
        if (a.kind() == engine::ActionKind::Move) {
            if (!moved.count(slug(a.character()))) return false;
        } else if (a.kind() != engine::ActionKind::Place) {
            return false;
        }
        const auto place = boardPlace(a.to());
        return place && failingPlaces.count(*place);
    });
}

std::optional<engine::Action> Referee::Impl::explainUnseen(const std::vector<Difference>& diffs) const {
    // Each difference a character of this game now on a place; a handful at
    // most (every order is tried).
    if (diffs.empty() || diffs.size() > 4) return std::nullopt;
    for (const auto& d : diffs)
        if (d.id.index >= state->rules().roster().size() || d.seen.kind != Sighting::Kind::OnPlace)
            return std::nullopt;
    auto liftedSince = [&](const Difference& d) {
        auto it = liftedAt.find(d.character);
        return it == liftedAt.end() ? Timestamp::max() : it->second;
    };
    auto arrived = [&](const Difference& d) {
        auto it = arrivedAt.find(d.character);
        return it == arrivedAt.end() ? Timestamp::max() : it->second;
    };
    // Two pieces lifted closer together than liftsApart since the board
    // last gave an action: one hand moved them at once (several-moved).
    std::vector<Timestamp> lifts;
    for (const auto& d : diffs)
        if (const Timestamp at = liftedSince(d); at != Timestamp::max() && at >= boardActionAt)
            lifts.push_back(at);
    std::sort(lifts.begin(), lifts.end());
    for (std::size_t i = 1; i < lifts.size(); ++i)
        if (lifts[i] - lifts[i - 1] < options.liftsApart) return std::nullopt;
    // The likeliest order first: as each landed (a landing in a gap dated
    // to the gap's middle).
    std::vector<std::size_t> order(diffs.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return arrived(diffs[a]) < arrived(diffs[b]); });
    std::vector<std::size_t> rank(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = i;

    // Where a move between two places may have stopped on the way: a place
    // unseen at some time since the character was lifted.
    std::vector<std::optional<engine::Place>> via(diffs.size());
    std::vector<std::vector<std::optional<engine::Place>>> choices(diffs.size());
    for (std::size_t i = 0; i < diffs.size(); ++i) {
        choices[i].push_back(std::nullopt);
        const auto& d = diffs[i];
        if (!d.expected) continue;
        for (const auto& [place, gap] : gaps)
            if (place != *d.expected && place != d.seen.place && gap.last >= liftedSince(d))
                choices[i].push_back(enginePlace(place));
    }

    // The actions of the seats in turn, on a copy, with the passes the
    // referee makes for a seat that can only pass; the first of them when
    // the engine allows them all.
    auto tryPlan = [&](const std::vector<std::size_t>& plan) -> std::optional<engine::Action> {
        engine::State copy = *state;
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
                if (passes == state->rules().seats() || !play(legal[0])) return false;
            }
            const engine::Seat seat = copy.seatToAct();
            return play(copy.placeOf(c) == engine::Place::Reserve ? engine::Action::place(seat, c, to)
                                                                  : engine::Action::move(seat, c, to));
        };
        for (std::size_t i : plan) {
            const auto& d = diffs[i];
            // The engine itself put it there meanwhile (the leftovers to floor 0).
            if (!via[i] && copy.placeOf(d.id) == enginePlace(d.seen.place)) continue;
            if (via[i] && !act(d.id, *via[i])) return std::nullopt;
            if (!act(d.id, enginePlace(d.seen.place))) return std::nullopt;
        }
        return first;
    };

    // No stop on an unseen place first, then one; each time every order,
    // likeliest first.
    for (std::size_t stops = 0; stops <= 1; ++stops) {
        std::vector<std::size_t> pick(diffs.size(), 0);  // an index into each choices[i]
        while (true) {
            std::size_t used = 0;
            for (std::size_t i = 0; i < diffs.size(); ++i) {
                via[i] = choices[i][pick[i]];
                used += via[i].has_value();
            }
            if (used == stops) {
                std::vector<std::size_t> plan = order;
                do {
                    if (auto first = tryPlan(plan)) return first;
                } while (std::next_permutation(plan.begin(), plan.end(), [&](std::size_t a, std::size_t b) {
                    return rank[a] < rank[b];
                }));
            }
            std::size_t i = 0;
            while (i < diffs.size() && ++pick[i] == choices[i].size()) pick[i++] = 0;
            if (i == diffs.size()) break;
        }
    }
    return std::nullopt;
}

void Referee::Impl::refuse(std::string code, std::string message, std::vector<Difference> restore,
                           bool strict) {
    const bool fresh = !refusal;
    if (!fresh && refusal->code == code && refusal->restore == restore) return;
    std::vector<std::string> steps;
    json restoreJson = json::array();
    for (const auto& d : restore) {
        steps.push_back(restoreSentence(d));
        auto entry = differenceJson(d);
        entry["do"] = steps.back();
        restoreJson.push_back(std::move(entry));
    }
    refusal = BoardRefusal{code, message, std::move(restore), strict};
    json detail{{"code", code}, {"message", message}, {"restore", restoreJson}};
    if (fresh) {
        ++counters.refusals[code];
        refereeEvent("refusal", detail);
    }
    notice("refused", message + " " + joinSentences(steps), std::move(detail));
}

void Referee::Impl::clearRefusal(const char* why) {
    refusal.reset();
    notice("recovered", why);
}

bool Referee::Impl::autoPass() {
    if (state->phase() != Phase::Placement && state->phase() != Phase::Ascent) return false;
    engine::ActionList legal;
    state->legalActions(legal);
    if (legal.size() != 1 || legal[0].kind() != engine::ActionKind::Pass) return false;
    return !decide(legal[0], true);
}

void Referee::Impl::privateNotice(int station, std::string kind, std::string text, json detail) {
    Notice notice{now,     std::move(kind), Notice::Audience::Station,
                  station, std::move(text), std::move(detail)};
    stationNotices[station] = notice;  // the seat's own page shows it too
    ++counters.stationNotices;
    notices.push_back(std::move(notice));
}

void Referee::Impl::pressKey(const drivers::ButtonEvent& e) {
    runDue(e.at, false);
    const int station = e.station.number;
    if (!state || (status != GameStatus::Playing && status != GameStatus::Paused))
        return privateNotice(station, "ignored-key", "No game is being played.", json::object());
    if (station < 0 || station >= state->rules().seats())
        return privateNotice(station, "ignored-key", "This game has no seat " + std::to_string(station) + ".",
                             json::object());
    if (status == GameStatus::Paused)
        return privateNotice(station, "ignored-key", "The game is paused: vote once it goes on.",
                             json::object());
    if (revealNeeded())
        return privateNotice(station, "ignored-key", "The host is entering the revealed cards: wait.",
                             json::object());
    if (state->phase() != Phase::Election) {
        // The move that opens the vote may still be on its way to the
        // readers, or on a place whose reader is catching up.
        if ((!comparison.matches() || !failingPlaces.empty()) && options.earlyVoteHold > Timestamp(0)) {
            heldKeys.push_back({e, now + options.earlyVoteHold});
            return;
        }
        return privateNotice(station, "ignored-key", "No vote is open.", json::object());
    }
    engine::VoteCard card = e.key == drivers::VoteKey::Yes  ? engine::VoteCard::Yes
                            : e.key == drivers::VoteKey::No ? engine::VoteCard::No
                                                            : engine::VoteCard::Stomachache;
    const auto vote = engine::Action::vote(engine::Seat{static_cast<std::uint8_t>(station)}, card);
    if (auto refused = decide(vote, false)) {
        // Only this station learns of it: a card not held tells about a hand.
        ++counters.privateRefusals;
        stationBlinkUntil[station] = now + options.privateBlinkFor;
        return privateNotice(station, "private-refusal", refused->message + " This key was not counted.",
                             json{{"code", engine::refusalCodeName(refused->code)}});
    }
    settle();
}

}  // namespace vivaref::referee
