// Judging the board: the observations taken in, guidance, and what a
// difference between the board and the game means, which depends on where
// the game is:
//   - guiding (the engine moved characters: an election's outcome, the
//     leftovers to floor 0, a new round, an undo, a resume): the characters
//     that differed when guidance began are guided, each until it has been
//     where the engine says (a piece in a hand counts as off the board);
//     then whatever else differs is judged as below, so a move the next
//     player made meanwhile is not lost;
//   - a refusal stands until the board is back at the position before it,
//     or shows one legal action from that position (the correction the
//     refusal asked for: one floor up instead of two, another floor than a
//     full one); while several pieces still differ, the restore list
//     follows the board;
//   - a difference touching a faulty reader's place, or a character in a
//     hand: wait;
//   - one character elsewhere: the action of the seat to act, applied if the
//     engine allows it, refused with the engine's code and sentence if not;
//   - more than one, a character gone, a piece of no character of this
//     game: refused with our own codes (REFEREE-NOTES.md);
//   - the board matches: a refusal is lifted; a seat with no legal move
//     passes;
//   - physical cards face up and not yet entered: nothing is judged until
//     the host enters them (Referee::Impl::settle() asks PhysicalCardsPart).
#include "daemon/referee/board_part.hpp"

#include <algorithm>

#include "daemon/referee/board_places.hpp"
#include "daemon/referee/refusal_rule.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"

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
    return json{{"character", d.slug.name}, {"expected", placeJson(d.expected)}, {"seen", describe(d.seen)}};
}

std::string joinSentences(const std::vector<std::string>& parts) {
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? "; " : "") + parts[i];
    if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    return text + ".";
}

}  // namespace

bool BoardPart::observe(const drivers::BoardObservation& observation, Timestamp now) {
    if (sameBoard(observation, seen_)) return false;
    const bool faultsChanged = observation.faultyReaders != seen_.faultyReaders;
    // Places whose reader failed lately, and each one's gap.
    const bool wasFailing = !failingPlaces_.empty();
    std::set<engine::Place> failing;
    for (const auto& reader : observation.failingReaders)
        if (const auto place = ctx_.names.placeOfReader(reader)) failing.insert(*place);
    for (const auto place : failing) {
        auto& gap = gaps_[place];
        if (!failingPlaces_.count(place)) gap.began = now;
        gap.last = now;
    }
    failingPlaces_ = std::move(failing);
    if (failingPlaces_.empty())
        failingHoldUntil_.reset();
    else if (!wasFailing)
        failingHoldUntil_ = now + ctx_.options.failingHold;
    for (const auto& [slug, placed] : observation.onBoard) {
        auto was = seen_.onBoard.find(slug);
        if (was != seen_.onBoard.end() && was->second.place == placed.place) continue;
        // Seen landing during or just after its place's gap: it may have
        // landed any time since the gap began (the middle is the best guess).
        auto gap = gaps_.find(ctx_.names.place(placed.place));
        const bool unseen = gap != gaps_.end() && now - gap->second.last <= ctx_.options.liftsApart;
        arrivedAt_[slug] = unseen ? gap->second.began + (now - gap->second.began) / 2 : now;
        // When it may have landed: the readers show a landing late, by up to
        // about liftsApart (the stability window), and one in a gap any time in it.
        landedWithin_[slug] = {(unseen ? gap->second.began : now) - ctx_.options.liftsApart, now};
    }
    seen_ = observation;
    for (const auto& [slug, hand] : observation.inHand) liftedAt_[slug] = hand.since;
    faultyPlaces_.clear();
    for (const auto& reader : observation.faultyReaders)
        if (const auto place = ctx_.names.placeOfReader(reader)) faultyPlaces_.insert(*place);
    if (faultsChanged) {
        if (seen_.faultyReaders.empty())
            ctx_.notice("reader-fault", engine::Message("notice.readers-back"),
                        json{{"faulty", json::array()}});
        else
            ctx_.notice("reader-fault", engine::Message("notice.reader-silent"),
                        json{{"faulty", faultyReadersJson()}});
    }
    return true;
}

void BoardPart::startGame() {
    refusal_.reset();
    question_.reset();
    unseenAfterResume_.clear();
    flashPlace_.reset();
    stationBlinkUntil_.clear();
    stationNotices_.clear();
    liftedAt_.clear();
    heldKeys_.clear();
    boardActionAt_ = ctx_.now;
    startGuiding();  // a board left from before is cleared first
}

void BoardPart::guide() {
    refusal_.reset();
    question_.reset();
    startGuiding();
}

void BoardPart::afterUndo() {
    boardActionAt_ = ctx_.now;  // lifts before an undo are not ordered against the board after it
    heldKeys_.clear();
    refusal_.reset();
    question_.reset();
    unseenAfterResume_.clear();
    flashPlace_.reset();
    startGuiding();
}

void BoardPart::stop() {
    refusal_.reset();
    question_.reset();
    unseenAfterResume_.clear();
    stopGuiding();
}

void BoardPart::compare() {
    if (state())
        comparison_ = compareBoard(*state(), seen_, ctx_.names, faultyPlaces_);
    else
        comparison_ = {};
}

void BoardPart::startGuiding() {
    guiding_ = true;
    compare();
    guided_.clear();
    for (const auto& d : comparison_.differences) guided_.insert(d.slug);
    guidedAtStart_ = guided_.size();
}

void BoardPart::stopGuiding() {
    guiding_ = false;
    guided_.clear();
}

bool BoardPart::guidanceDone() {
    // A guided character that has been in place once is no longer guided:
    // moving it again later is a move like any other.
    std::erase_if(guided_, [&](const drivers::CharacterSlug& slug) {
        return std::none_of(comparison_.differences.begin(), comparison_.differences.end(),
                            [&](const Difference& d) { return d.slug == slug; });
    });
    return guided_.empty();
}

void BoardPart::review() {
    compare();
    // The board agrees with the game: nothing went unseen before now.
    if (comparison_.matches())
        std::erase_if(gaps_, [&](const auto& gap) { return !failingPlaces_.count(gap.first); });
}

bool BoardPart::guidanceOver() {
    if (!guiding_) return true;
    if (!guidanceDone()) return false;
    stopGuiding();
    ctx_.notice("guided",
                engine::Message(comparison_.matches() ? "notice.board-matches" : "notice.guided-in-place"));
    return true;
}

bool BoardPart::judge(Decider& decider) {
    if (question_) {
        // The game waits for the host's answer, as long as the board still
        // shows what was asked about.
        if (questionStands()) return false;
        question_.reset();
        ctx_.notice("order-dropped", engine::Message("order.dropped"));
    }
    if (comparison_.matches()) {
        if (refusal_) clearRefusal("notice.board-back");
        return autoPass(decider);
    }
    const auto& diffs = comparison_.differences;
    // A piece in a hand or out of sight, a chance to come, a bot thinking, a
    // seat played from afar that has not chosen yet: nothing is judged yet.
    const bool waiting = failingHold() || !comparison_.blindPlaces.empty() || comparison_.unsettled ||
                         state()->phase() == Phase::AwaitDeal || state()->phase() == Phase::AwaitReshuffle ||
                         ctx_.game.botThinking() || ctx_.game.awaitingAfar();
    if (refusal_ && refusal_->strict && (waiting || diffs.size() > 1)) {
        // Not yet one action from the position before the refusal: the
        // restore list follows the board. One character elsewhere is judged
        // as any move is (a correction as the refusal told is that move).
        refuse(refusal_->code, refusal_->message, diffs);
        return false;
    }
    if (waiting) return false;
    const bool unseenBeforeResume =
        !unseenAfterResume_.empty() && std::all_of(diffs.begin(), diffs.end(), [&](const Difference& d) {
            return unseenAfterResume_.count(d.slug.name) > 0;
        });
    if (!gaps_.empty() || unseenBeforeResume) {
        auto ways = explainUnseen(diffs);
        // Orders that record different decisions: the host is asked.
        if (ways.size() > 1) {
            ask(diffs, std::move(ways));
            return false;
        }
        // explainUnseen() tried the actions on a copy: the engine takes them.
        if (!ways.empty()) {
            const engine::Action action = ways.front().actions.front();
            if (offBotPlan(action)) {
                refuseOffPlan(diffs);
                return false;
            }
            return action.kind() == engine::ActionKind::Pass ? decider.decide(action, true).isTaken()
                                                             : acceptBoardAction(action, decider).isTaken();
        }
    }
    std::optional<Difference> first;
    if (diffs.size() > 1) first = firstLifted(diffs);
    if (diffs.size() > 1 && !first) {
        std::vector<engine::MessageValue> names;
        for (const auto& d : diffs) names.push_back(characterOf(d));
        refuse("several-moved",
               engine::Message("referee.several-moved", {{"characters", engine::say::list(names)}}), diffs);
        return false;
    }
    const Difference d = first ? *first : diffs.front();
    if (d.id.index >= state()->rules().roster().size()) {
        refuse("not-in-game",
               engine::Message("referee.not-in-game", {{"tag", engine::say::text(d.slug.name)}}), diffs);
        return false;
    }
    if (d.seen.kind == Sighting::Kind::Absent) {
        refuse("character-gone", engine::Message("referee.character-gone", {{"character", characterOf(d)}}),
               diffs, false);
        return false;
    }
    const engine::Place to = *d.seen.place;
    const engine::Seat seat = state()->seatToAct();
    const engine::Place from = state()->placeOf(d.id);
    const auto action = from == engine::Place::Reserve ? engine::Action::place(seat, d.id, to)
                                                       : engine::Action::move(seat, d.id, to);
    if (offBotPlan(action)) {
        refuseOffPlan(diffs);
        return false;
    }
    const auto verdict = acceptBoardAction(action, decider);
    // Not saved: nothing is refused; the board is judged again once the log saves.
    if (const auto* refused = verdict.refusal())
        refuse(std::string(engine::refusalCodeName(refused->code)), refused->message, diffs);
    return verdict.isTaken();
}

Verdict BoardPart::acceptBoardAction(const engine::Action& a, Decider& decider) {
    const bool hadRefusal = refusal_.has_value();
    auto verdict = decider.decide(a, false);
    if (!verdict.isTaken()) return verdict;
    boardActionAt_ = ctx_.now;
    unseenAfterResume_.clear();
    flashPlace_ = boardPlace(a.to());
    flashUntil_ = ctx_.now + ctx_.options.flashFor;
    if (hadRefusal) clearRefusal("notice.legal-action-done");
    return verdict;
}

bool BoardPart::offBotPlan(const engine::Action& a) const {
    const auto& plan = ctx_.game.plan;
    return plan && a.kind() != engine::ActionKind::Pass && !(a == *plan);
}

void BoardPart::refuseOffPlan(const std::vector<Difference>& diffs) {
    const bool afar = ctx_.game.planFromAfar;
    refuse(afar ? "remote-move" : "bot-move",
           engine::Message(afar ? "referee.remote-move" : "referee.bot-move",
                           {{"plan", engine::say::message(ctx_.planMessage())}}),
           diffs);
}

void BoardPart::refuse(std::string code, engine::Message message, std::vector<Difference> restore,
                       bool strict) {
    const bool fresh = !refusal_;
    if (!fresh && refusal_->code == code && refusal_->restore == restore) return;
    std::vector<std::string> steps;
    json restoreJson = json::array();
    for (const auto& d : restore) {
        steps.push_back(restoreSentence(d));
        auto entry = differenceJson(d);
        entry["do"] = steps.back();
        restoreJson.push_back(std::move(entry));
    }
    const auto sentence = words::english().say(message);
    json detail{{"code", code},
                {"message", sentence},
                {"says", words::messageJson(message)},
                {"restore", restoreJson}};
    refusal_ = BoardRefusal{code, std::move(message), std::move(restore), strict};
    if (fresh) {
        ++ctx_.counters.refusals[code];
        ctx_.refereeEvent("refusal", detail);
    }
    // The rule it applies (rules.html's anchor), for the pages; the log keeps what it kept.
    detail["rule"] = refusalRule(code, refusal_->message);
    // The English text as it was; the message as the status's text_says.
    std::vector<engine::MessageValue> stepMessages;
    for (const auto& d : refusal_->restore) stepMessages.push_back(engine::say::message(restoreMessage(d)));
    const auto says = stepMessages.empty()
                          ? refusal_->message
                          : engine::Message("referee.refusal-steps",
                                            {{"why", engine::say::message(refusal_->message)},
                                             {"steps", engine::say::list(std::move(stepMessages))}});
    ctx_.notice("refused", sentence + " " + joinSentences(steps), says, std::move(detail));
}

void BoardPart::clearRefusal(const char* why) {
    refusal_.reset();
    ctx_.notice("recovered", engine::Message(why));
}

bool BoardPart::autoPass(Decider& decider) {
    if (state()->phase() != Phase::Placement && state()->phase() != Phase::Ascent) return false;
    engine::ActionList legal;
    state()->legalActions(legal);
    if (legal.size() != 1 || legal[0].kind() != engine::ActionKind::Pass) return false;
    return decider.decide(legal[0], true).isTaken();
}

bool BoardPart::failingHoldOver(const Due& due) {
    if (!failingHoldUntil_ || !due(*failingHoldUntil_)) return false;
    // The hold is over with a reader still failing: judge what waited.
    ctx_.now = std::max(ctx_.now, *failingHoldUntil_);
    failingHoldUntil_.reset();
    return true;
}

void BoardPart::expireFlashes(const Due& due) {
    if (flashPlace_ && due(flashUntil_)) flashPlace_.reset();
    std::erase_if(stationBlinkUntil_, [&](const auto& entry) { return due(entry.second); });
}

void BoardPart::deadlines(const std::function<void(Timestamp)>& consider) const {
    if (flashPlace_) consider(flashUntil_);
    if (failingHoldUntil_) consider(*failingHoldUntil_);
    for (const auto& [seat, until] : stationBlinkUntil_) consider(until);
    for (const auto& held : heldKeys_) consider(held.until);
}

}  // namespace vivaref::referee
