// The board on the screens and the LEDs: what the engine expects and what the
// readers see, the differences, the guidance or refusal in plain words, what
// the board waits for, and which place and station LEDs blink or flash.
#include <algorithm>

#include "daemon/referee/board_part.hpp"
#include "daemon/referee/board_places.hpp"
#include "daemon/referee/refusal_rule.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"
#include "engine/destinations.hpp"

namespace vivaref::referee {

using nlohmann::json;

namespace {

json sightingJson(const Sighting& s) {
    switch (s.kind) {
        case Sighting::Kind::Absent:
            return nullptr;
        case Sighting::Kind::OnPlace:
            return json{{"on", placeJson(s.place)}, {"uncertain", s.uncertain}};
        case Sighting::Kind::InHand:
            return json{{"in_hand", true}, {"lifted_from", placeJson(s.place)}};
        case Sighting::Kind::Ambiguous: {
            json unclear = json::array();
            for (const auto p : s.candidates) unclear.push_back(placeJson(p));
            return json{{"unclear", std::move(unclear)}};
        }
    }
    return nullptr;
}

}  // namespace

json BoardPart::faultyReadersJson() const {
    json names = json::array();
    for (const auto& reader : seen_.faultyReaders) names.push_back(reader.name);
    return names;
}

json BoardPart::readersJson() const {
    json blind = json::array();
    for (const auto place : faultyPlaces_) blind.push_back(placeJson(place));
    return json{{"faulty", faultyReadersJson()},
                {"blind_places", std::move(blind)},
                {"unknown_tags", seen_.unknownTags.size()}};
}

void BoardPart::addStatus(json& out) const {
    const auto& roster = state()->rules().roster();
    // The board: what the engine expects and what the readers see.
    json expected = json::object();
    json seenJson = json::object();
    json inHand = json::array();
    for (int i = 0; i < roster.size(); ++i) {
        const auto c = engine::CharacterId{static_cast<std::uint8_t>(i)};
        expected[roster[c].id] = placeJson(boardPlace(state()->placeOf(c)));
    }
    auto seeing = [&](const drivers::CharacterSlug& slug) {
        seenJson[slug.name] = sightingJson(sightingOf(seen_, slug, ctx_.names));
    };
    for (const auto& [slug, placed] : seen_.onBoard) seeing(slug);
    for (const auto& [slug, hand] : seen_.inHand) {
        seeing(slug);
        inHand.push_back(slug.name);
    }
    for (const auto& [slug, places] : seen_.ambiguous) seeing(slug);
    out["board"] = json{{"expected", std::move(expected)}, {"seen", std::move(seenJson)}};
    json differences = json::array();
    for (const auto& d : comparison_.differences)
        differences.push_back(json{{"character", d.slug.name},
                                   {"expected", placeJson(d.expected)},
                                   {"seen", describe(d.seen)},
                                   {"seen_at", sightingJson(d.seen)}});
    out["differences"] = std::move(differences);
    out["in_hand"] = std::move(inHand);

    json guidance = nullptr;
    if (guiding_ && !comparison_.matches()) {
        json moves = json::array();
        std::string text;
        std::vector<engine::MessageValue> steps;
        for (const auto& d : comparison_.differences) {
            if (!guided_.contains(d.slug)) continue;  // a move made meanwhile: judged after
            const auto step = guidanceMessage(d);
            const auto sentence = words::english().say(step);
            text += (text.empty() ? "" : "; ") + sentence;
            moves.push_back(json{{"character", d.slug.name},
                                 {"to", placeJson(d.expected)},
                                 {"seen", describe(d.seen)},
                                 {"seen_at", sightingJson(d.seen)},
                                 {"do", sentence},
                                 {"do_says", words::messageJson(step)}});
            steps.push_back(engine::say::message(step));
        }
        guidance =
            json{{"text", text},
                 // How many pieces the guidance began with: fewer moves left
                 // means the table has started (a coronation's moment ends).
                 {"started_with", guidedAtStart_},
                 {"says",
                  words::messageJson(engine::Message("guide.steps", {{"steps", engine::say::list(steps)}}))},
                 {"moves", std::move(moves)}};
    }
    out["guidance"] = std::move(guidance);

    json refused = nullptr;
    if (refusal_) {
        json restore = json::array();
        std::string steps;
        std::vector<engine::MessageValue> stepMessages;
        for (const auto& d : refusal_->restore) {
            const auto step = restoreMessage(d);
            const auto sentence = words::english().say(step);
            steps += (steps.empty() ? "" : "; ") + sentence;
            restore.push_back(json{{"character", d.slug.name},
                                   {"to", placeJson(d.expected)},
                                   {"do", sentence},
                                   {"do_says", words::messageJson(step)}});
            stepMessages.push_back(engine::say::message(step));
        }
        const auto sentence = words::english().say(refusal_->message);
        const engine::Message whole(
            "referee.refusal-steps",
            {{"why", engine::say::message(refusal_->message)}, {"steps", engine::say::list(stepMessages)}});
        refused = json{{"code", refusal_->code},
                       {"rule", refusalRule(refusal_->code, refusal_->message)},
                       {"message", sentence},
                       {"says", words::messageJson(refusal_->message)},
                       {"text", sentence + " To go on: " + steps + "."},
                       {"text_says", words::messageJson(whole)},
                       {"restore", std::move(restore)}};
    }
    out["refusal"] = std::move(refused);
    // The order the readers missed, for the host to answer (REFEREE-NOTES.md, "When the readers are late").
    out["order_question"] = questionJson();
}

std::optional<engine::Message> BoardPart::waitingFor() const {
    using engine::Message;
    if (question_) return Message("order.waiting");
    if (guiding_ && !comparison_.matches()) {
        // Every guided piece to come off: the castle cleared for a new round.
        const bool clearing = std::ranges::all_of(comparison_.differences, [&](const Difference& d) {
            return !guided_.contains(d.slug) || !d.expected;
        });
        if (clearing && guidedAtStart_ > 1 && !guided_.empty())
            return Message("wait.board-clear", {{"round", engine::say::number(state()->round())}});
        return Message("wait.board-guided");
    }
    if (refusal_) return Message(refusal_->strict ? "wait.board-put-back" : "wait.character-put-back");
    if (!comparison_.blindPlaces.empty()) return Message("wait.faulty-reader");
    if (failingHold() && !comparison_.matches()) return Message("wait.failing-reader");
    if (comparison_.unsettled) return Message("wait.in-hand");
    if (ctx_.game.botThinking())
        return Message("wait.bot-thinking", {{"seat", ctx_.seatWords(state()->seatToAct())}});
    if (ctx_.game.awaitingAfar())
        return Message("wait.remote-turn", {{"seat", ctx_.seatWords(state()->seatToAct())}});
    if (ctx_.game.plan) return ctx_.planCall();
    return std::nullopt;
}

void BoardPart::addLedFacts(LedFacts& facts, bool inGame) const {
    facts.blindPlaces.insert(faultyPlaces_.begin(), faultyPlaces_.end());
    if (!inGame) return;
    if (guiding_ || refusal_) {
        for (const auto& d : comparison_.differences) {
            if (!refusal_ && !guided_.contains(d.slug)) continue;
            if (d.expected) facts.blinkPlaces.insert(*d.expected);
            if (d.seen.kind == Sighting::Kind::OnPlace) facts.blinkPlaces.insert(*d.seen.place);
            facts.blinkPlaces.insert(d.seen.candidates.begin(), d.seen.candidates.end());
        }
    }
    if (const auto& plan = ctx_.game.plan; plan && !guiding_ && !refusal_) {
        // The bot's (or the seat's from afar) move to make: the place its piece leaves blinks (none
        // for a placement: the piece is beside the board), its destination is lit.
        if (const auto from = boardPlace(state()->placeOf(plan->character())))
            facts.blinkPlaces.insert(*from);
        if (const auto to = boardPlace(plan->to())) facts.litPlaces.insert(*to);
    }
    if (flashPlace_) {
        facts.flashPlace = flashPlace_;
        facts.flashUntil = flashUntil_;
    }
    facts.stationBlinkUntil = stationBlinkUntil_;
}

void BoardPart::addHintFacts(LedFacts& facts) const {
    const auto& game = ctx_.game;
    if (!game.playing() || !state() || guiding_ || refusal_ || game.plan || game.botThinking() ||
        game.awaitingAfar())
        return;
    const auto& s = *state();
    const bool placement = s.phase() == engine::Phase::Placement;
    if (!placement && s.phase() != engine::Phase::Ascent) return;
    if (game.botAt(s.seatToAct())) return;
    auto hint = [&](engine::CharacterId c) {
        for (const auto to : engine::legalDestinations(s, c))
            if (const auto place = boardPlace(to)) facts.hintPlaces.insert(*place);
    };
    if (placement) {
        // Any piece not yet placed may go where any other may: the first one.
        for (int c = 0; c < s.characterCount(); ++c) {
            const engine::CharacterId id{static_cast<std::uint8_t>(c)};
            if (s.placeOf(id) != engine::Place::Reserve) continue;
            hint(id);
            break;
        }
        return;
    }
    for (const auto& [slug, hand] : seen_.inHand) {
        const auto c = ctx_.names.character(slug);
        if (c.index == engine::kInvalidIndex || !hand.liftedFrom) continue;
        // Only a piece lifted from where the game has it: its move is the one to make.
        if (boardPlace(s.placeOf(c)) != ctx_.names.place(*hand.liftedFrom)) continue;
        hint(c);
    }
}

const Notice* BoardPart::stationNotice(engine::Seat seat) const {
    auto it = stationNotices_.find(seat);
    return it == stationNotices_.end() ? nullptr : &it->second;
}

}  // namespace vivaref::referee
