// The vote keys: a press during an election is that station's seat's vote;
// a refusal, or a key with no vote open, goes to that station alone; a key a
// moment early is held until the move that opens the vote shows
// (REFEREE-NOTES.md, "Votes" and "When the readers are late"). A bot's
// station counts nothing ("Bots").
#include <algorithm>

#include "daemon/referee/board_part.hpp"
#include "daemon/referee/refusal_rule.hpp"
#include "daemon/words/words.hpp"

namespace vivaref::referee {

using engine::Phase;
using nlohmann::json;

KeyOutcome BoardPart::press(KeyPress key, bool cardsAwaited, Decider& decider) {
    auto ignored = [&](const char* code) {
        privateNotice(key.seat, "ignored-key", engine::Message(code), json{{"code", code}});
        return KeyOutcome::NotCounted;
    };
    auto notSaved = [&] {
        privateNotice(
            key.seat, "ignored-key",
            engine::Message("station.log-blocked", {{"why", engine::say::message(ctx_.logRefusalMessage())}}),
            json{{"code", "log-unwritable"}});
        return KeyOutcome::NotCounted;
    };
    if (!state() || (ctx_.game.status != GameStatus::Playing && ctx_.game.status != GameStatus::Paused))
        return ignored("station.no-game");
    // A bot's station is no person's: its keys count for nothing, and say the
    // same before and after the bot voted (REFEREE-NOTES.md, "Bots"); nor
    // does a phone whose seat a bot plays for now.
    if (ctx_.game.botAt(key.seat)) return ignored(key.phone ? "phone.bot-seat" : "station.bot-seat");
    // Each seat votes as the host chose (REFEREE-NOTES.md, "Phones at the table").
    const auto source = ctx_.game.votesAt(key.seat);
    if (!key.phone && source == VoteSource::Phone) return ignored("station.votes-by-phone");
    if (key.phone && source == VoteSource::Station) return ignored("phone.votes-by-station");
    if (ctx_.game.status == GameStatus::Paused) return ignored("station.paused");
    if (ctx_.logBlocked()) return notSaved();
    if (cardsAwaited) return ignored("station.cards-awaited");
    if (state()->phase() != Phase::Election) {
        // The move that opens the vote may still be on its way to the
        // readers, or on a place whose reader is catching up.
        if ((!comparison_.matches() || !failingPlaces_.empty()) &&
            ctx_.options.earlyVoteHold > Timestamp(0)) {
            heldKeys_.push_back({key, ctx_.now + ctx_.options.earlyVoteHold});
            return KeyOutcome::Held;
        }
        return ignored("station.no-vote");
    }
    const auto verdict = decider.decide(engine::Action::vote(key.seat, key.card), false);
    if (verdict.isNotSaved()) return notSaved();
    if (const auto* refused = verdict.refusal()) {
        // Only this seat learns of it: a card not held tells about a hand.
        ++ctx_.counters.privateRefusals;
        if (!key.phone) stationBlinkUntil_[key.seat] = ctx_.now + ctx_.options.privateBlinkFor;
        // The engine names seats by number; the station's player reads "you".
        const auto why = refused->code == engine::RefusalCode::AlreadyVoted
                             ? engine::Message("referee.you-already-voted")
                             : refused->message;
        privateNotice(key.seat, "private-refusal",
                      engine::Message(key.phone ? "referee.vote-not-counted" : "referee.key-not-counted",
                                      {{"why", engine::say::message(why)}}),
                      json{{"code", engine::refusalCodeName(refused->code)},
                           {"rule", refusalRule(engine::refusalCodeName(refused->code), refused->message)}});
        return KeyOutcome::NotCounted;
    }
    return KeyOutcome::Counted;
}

void BoardPart::pressWithoutSeat(drivers::StationId station) {
    const bool inGame =
        state() && (ctx_.game.status == GameStatus::Playing || ctx_.game.status == GameStatus::Paused);
    tellStation(
        station, "ignored-key",
        inGame ? engine::Message("station.no-such-seat", {{"seat", engine::say::number(station.number + 1)}})
               : engine::Message("station.no-game"),
        json::object());
}

std::vector<KeyPress> BoardPart::releaseHeldKeys() {
    std::vector<KeyPress> open;
    if (heldKeys_.empty() || !state()) return open;
    if (state()->phase() == Phase::Election) {
        for (const auto& held : std::exchange(heldKeys_, {})) open.push_back(held.key);
    } else if (comparison_.matches() && failingPlaces_.empty()) {
        for (const auto& held : std::exchange(heldKeys_, {}))
            privateNotice(held.key.seat, "ignored-key", engine::Message("station.no-vote"), json::object());
    }
    return open;
}

void BoardPart::expireHeldKeys(const Due& due) {
    std::vector<HeldKey> over;
    std::erase_if(heldKeys_, [&](const HeldKey& held) {
        if (!due(held.until)) return false;
        over.push_back(held);
        return true;
    });
    for (const auto& held : over) {
        ctx_.now = std::max(ctx_.now, held.until);
        privateNotice(held.key.seat, "ignored-key", engine::Message("station.no-vote"), json::object());
    }
}

void BoardPart::privateNotice(engine::Seat seat, std::string kind, const engine::Message& says, json detail) {
    tellStation(drivers::StationId{seat.index}, std::move(kind), says, std::move(detail));
    stationNotices_[seat] = ctx_.notices.back();  // the seat's own page shows it too
}

void BoardPart::tellStation(drivers::StationId station, std::string kind, const engine::Message& says,
                            json detail) {
    ++ctx_.counters.stationNotices;
    ctx_.notices.push_back(Notice{ctx_.now, std::move(kind), Notice::Audience::Station, station.number,
                                  words::english().say(says), std::move(detail), says});
}

}  // namespace vivaref::referee
