// What the host's undo would take back, in words (issue 34): the decision a
// person took that it takes back, named from the state before it, and
// whether it goes back before a coronation the table has already seen
// scored. The host's page says the first after an undo and asks before the
// second (REFEREE-NOTES.md, "Undo").
#include "daemon/referee/referee_impl.hpp"

namespace vivaref::referee {

namespace {

namespace say = engine::say;
using engine::Message;

// The coronations scored so far: the finished rounds' and the current one's
// (a royal couple's first King is scored before its round ends).
std::size_t coronationsScored(const engine::State& state) {
    std::size_t n = state.currentRound().coronations.size();
    for (const auto& round : state.finishedRounds()) n += round.coronations.size();
    return n;
}

engine::MessageValue undoneCharacter(const engine::State& state, engine::CharacterId c) {
    const auto& roster = state.rules().roster();
    return c.index < roster.size() ? say::character(roster[c]) : say::character("?", "?");
}

// One decision, taken back, as the host reads it; `before`: the state it was
// taken in. Who voted, never what (the host does not see votes either).
Message undoneMessage(const Context& ctx, const engine::State& before, const engine::Decision& d) {
    if (const auto* deal = std::get_if<engine::Deal>(&d))
        return Message("undo.dealt", {{"round", say::number(deal->round)}});
    if (std::holds_alternative<engine::Reshuffle>(d)) return Message("undo.reshuffled");
    const auto& a = std::get<engine::Action>(d);
    switch (a.kind()) {
        case engine::ActionKind::Keep:
            return Message("undo.kept", {{"player", say::player(ctx.playerName(a.player()))}});
        case engine::ActionKind::Place:
            return Message("undo.placed", {{"seat", ctx.seatWords(a.seat())},
                                           {"character", undoneCharacter(before, a.character())},
                                           {"to", say::place(a.to())}});
        case engine::ActionKind::Move:
            return Message("undo.moved", {{"seat", ctx.seatWords(a.seat())},
                                          {"character", undoneCharacter(before, a.character())},
                                          {"from", say::place(before.placeOf(a.character()))},
                                          {"to", say::place(a.to())}});
        case engine::ActionKind::Vote:
            return Message("undo.voted", {{"seat", ctx.seatWords(a.seat())},
                                          {"character", undoneCharacter(before, before.candidate())},
                                          {"round", say::number(before.round())}});
        case engine::ActionKind::Pass:
            break;
    }
    return Message("undo.passed", {{"seat", ctx.seatWords(a.seat())}});
}

}  // namespace

engine::Message UndoPreview::confirmation() const {
    return Message("undo.confirm-scoring", {{"round", say::number(unscoresRound)},
                                            {"cards", say::text(ambitionsShown ? "both" : "favourites")}});
}

std::optional<UndoPreview> Referee::Impl::undoPreview() const {
    const auto& game = ctx.game;
    if (!game.state || (game.status != GameStatus::Playing && game.status != GameStatus::Paused))
        return std::nullopt;
    const auto from = timeline.takeBackFrom();
    if (!from) return std::nullopt;
    const auto& taken = timeline.decisions()[*from];
    UndoPreview preview{undoneMessage(ctx, taken.before, taken.what)};
    // A coronation scored after that decision has been shown to the table.
    if (coronationsScored(*game.state) > coronationsScored(taken.before)) {
        preview.unscoresRound = taken.before.round();
        // Ambition cards are shown when the round ends (its last coronation).
        preview.ambitionsShown = game.state->rules().options().ambition &&
                                 game.state->finishedRounds().size() > taken.before.finishedRounds().size();
    }
    return preview;
}

std::optional<UndoPreview> Referee::undoPreview() const { return impl_->undoPreview(); }

}  // namespace vivaref::referee
