// Placement, ascent and passing (RULES §3.2 and §3.3). Checks run in the
// order GAME-RECORD prescribes: phase, seat, turn, character, where the
// character stands, adjacency, capacity.
#include <bit>

#include "engine/state.hpp"

namespace vivaref::engine {
namespace {

Place wcOf(int floor) { return floor == 3 ? Place::Wc3 : Place::Wc4; }
int floorOfWc(Place wc) { return wc == Place::Wc3 ? 3 : 4; }

}  // namespace

std::optional<Refusal> State::checkActor(const Action& a, Phase phase, const char* when) const {
    if (phase_ != phase) {
        if (phase_ == Phase::GameOver) return refuse(RefusalCode::WrongPhase, Message("refusal.game-over"));
        return refuse(RefusalCode::WrongPhase, Message(when));
    }
    if (a.seat().index >= rules_->seats())
        return refuse(RefusalCode::UnknownSeat, Message("refusal.no-such-seat"));
    if (a.seat() != toAct_)
        return refuse(
            RefusalCode::NotYourTurn,
            Message("refusal.not-your-turn", {{"turn", say::seat(toAct_)}, {"seat", say::seat(a.seat())}}));
    return std::nullopt;
}

// An unknown character or place in a line is reported before anything about
// where it stands. WCs and dungeons do not exist outside the 2024 edition.
static std::optional<Refusal> checkNames(const State& s, const Action& a) {
    if (a.character().index >= s.characterCount())
        return refuse(RefusalCode::UnknownCharacter, Message("refusal.character-not-in-game"));
    Place to = a.to();
    bool exists = to <= Place::Box && (s.rules().is2024() || !(isWc(to) || isDungeon(to)));
    if (!exists) return refuse(RefusalCode::UnknownPlace, Message("refusal.no-such-place"));
    return std::nullopt;
}

std::optional<Refusal> State::checkPlace(const Action& a) const {
    if (auto r = checkActor(a, Phase::Placement, "refusal.placement-at-round-start")) return r;
    if (auto r = checkNames(*this, a)) return r;
    const auto who = say::character(rules_->roster()[a.character()]);
    if (place_[a.character().index] != Place::Reserve)
        return refuse(RefusalCode::AlreadyPlaced, Message("refusal.already-placed", {{"character", who}}));
    Place to = a.to();
    if (to < Place::Floor1 || to > Place::Floor4)
        return refuse(RefusalCode::FloorNotAllowed, Message("refusal.placed-on-floors-1-4"));
    if (count_[static_cast<int>(to)] >= rules_->floorLimit())
        return refuse(RefusalCode::FloorFull,
                      Message("refusal.floor-full", {{"floor", say::number(floorOf(to))},
                                                     {"limit", say::number(rules_->floorLimit())}}));
    return std::nullopt;
}

bool State::isLegalPlacement(const Action& a) const {
    const Place to = a.to();
    return phase_ == Phase::Placement && a.seat() == toAct_ && a.character().index < characters_ &&
           place_[a.character().index] == Place::Reserve && to >= Place::Floor1 && to <= Place::Floor4 &&
           count_[static_cast<int>(to)] < rules_->floorLimit();
}

void State::doPlace(const Action& a, EventList* ev) {
    putCharacter(a.character(), a.to());
    ++placed_;
    if (ev)
        ev->push(Event{.kind = EventKind::Placed,
                       .seat = a.seat(),
                       .character = a.character(),
                       .from = Place::Reserve,
                       .to = a.to(),
                       .round = round_});
    if (placed_ < rules_->totalPlacements()) {
        toAct_ = rules_->nextSeat(toAct_);
        return;
    }
    // Every seat has placed its count: the leftovers start on floor 0.
    if (ev) ev->push(Event{.kind = EventKind::PlacementEnded, .round = round_});
    for (int c = 0; c < characters_; ++c) {
        if (place_[c] != Place::Reserve) continue;
        CharacterId id{static_cast<std::uint8_t>(c)};
        putCharacter(id, Place::Floor0);
        if (ev)
            ev->push(Event{.kind = EventKind::LeftToFloor0,
                           .character = id,
                           .from = Place::Reserve,
                           .to = Place::Floor0,
                           .round = round_});
    }
    phase_ = Phase::Ascent;
    toAct_ = first_;
}

std::optional<Refusal> State::checkMove(const Action& a) const {
    if (auto r = checkActor(a, Phase::Ascent,
                            phase_ == Phase::Election ? "refusal.vote-first" : "refusal.move-in-ascent"))
        return r;
    if (auto r = checkNames(*this, a)) return r;
    const auto who = say::character(rules_->roster()[a.character()]);
    const Place from = place_[a.character().index];
    const Place to = a.to();
    if (from == Place::Reserve || from == Place::Box)
        return refuse(RefusalCode::CharacterNotInCastle,
                      Message("refusal.out-of-castle", {{"character", who}}));
    if (isDungeon(from))
        return refuse(RefusalCode::CannotMove, Message("refusal.in-dungeon", {{"character", who}}));
    if (from == Place::BesideThrone || from == Place::Throne)
        return refuse(RefusalCode::CannotMove, Message("refusal.crowned", {{"character", who}}));

    const int limit = rules_->floorLimit();
    if (isWc(from)) {
        // RULES §3.3: a character leaves a WC onto the same floor, nowhere else.
        int floor = floorOfWc(from);
        if (to != floorPlace(floor))
            return refuse(
                RefusalCode::NotAdjacent,
                Message("refusal.leave-wc-onto", {{"character", who}, {"floor", say::number(floor)}}));
        if (count_[floor] >= limit)
            return refuse(RefusalCode::FloorFull,
                          Message("refusal.stay-in-wc", {{"character", who}, {"floor", say::number(floor)}}));
        return std::nullopt;
    }
    const int floor = floorOf(from);
    const int up = floor + 1;
    if (to == floorPlace(up)) {  // floor 6 is the throne
        if (up < kFloors && count_[up] >= limit)
            return refuse(
                RefusalCode::FloorFull,
                Message("refusal.floor-full", {{"floor", say::number(up)}, {"limit", say::number(limit)}}));
        if (up == kFloors && count_[static_cast<int>(Place::Throne)] > 0)
            return refuse(RefusalCode::FloorFull, Message("refusal.throne-taken"));
        return std::nullopt;
    }
    if (rules_->is2024() && isWc(to) && floorOfWc(to) == up) {
        if (count_[up] < limit)
            return refuse(RefusalCode::FloorNotFull,
                          Message("refusal.wc-when-floor-full", {{"floor", say::number(up)}}));
        if (count_[static_cast<int>(to)] > 0)
            return refuse(RefusalCode::WcOccupied, Message("refusal.wc-taken", {{"floor", say::number(up)}}));
        return std::nullopt;
    }
    if (isFloor(to) && floorOf(to) <= floor)
        return refuse(RefusalCode::NotAdjacent, Message("refusal.never-down-or-sideways"));
    return refuse(RefusalCode::NotAdjacent,
                  Message("refusal.one-floor-up", {{"character", who}, {"to", say::place(floorPlace(up))}}));
}

bool State::isLegalMove(const Action& a) const {
    if (phase_ != Phase::Ascent || a.seat() != toAct_ || a.character().index >= characters_) return false;
    const Place to = moveDestination(place_[a.character().index]);
    return to != Place::Unknown && to == a.to();
}

void State::doMove(const Action& a, EventList* ev) {
    const Place from = place_[a.character().index];
    putCharacter(a.character(), a.to());
    passesInRow_ = 0;
    if (ev)
        ev->push(Event{.kind = EventKind::Moved,
                       .seat = a.seat(),
                       .character = a.character(),
                       .from = from,
                       .to = a.to(),
                       .round = round_});
    if (a.to() != Place::Throne) {
        toAct_ = rules_->nextSeat(toAct_);
        return;
    }
    // RULES §3.4: reaching the throne opens an election; the mover holds the crown.
    phase_ = Phase::Election;
    candidate_ = a.character();
    crown_ = a.seat();
    votes_.fill(VoteCard::Unknown);
    votesIn_ = 0;
    if (ev)
        ev->push(Event{.kind = EventKind::ElectionOpened,
                       .seat = a.seat(),
                       .character = a.character(),
                       .from = from,
                       .to = Place::Throne,
                       .round = round_});
}

std::optional<Refusal> State::checkPass(const Action& a) const {
    if (auto r = checkActor(a, Phase::Ascent, "refusal.pass-in-ascent")) return r;
    if (hasLegalMove()) return refuse(RefusalCode::MustMove, Message("refusal.must-move"));
    return std::nullopt;
}

void State::doPass(const Action& a, EventList* ev) {
    if (ev) ev->push(Event{.kind = EventKind::Passed, .seat = a.seat(), .round = round_});
    // Decision (RULES §3, termination): when every seat has passed in a row,
    // the round ends with no further coronation.
    if (++passesInRow_ >= rules_->seats()) {
        Seat last = current_.kings.empty() ? first_ : current_.crown;
        endRound(last, ev);
        return;
    }
    toAct_ = rules_->nextSeat(toAct_);
}

void State::addLegalPlacements(ActionList& out) const {
    const int limit = rules_->floorLimit();
    for (int c = 0; c < characters_; ++c) {
        if (place_[c] != Place::Reserve) continue;
        for (int f = 1; f <= 4; ++f)
            if (count_[f] < limit)
                out.push(Action::place(toAct_, CharacterId{static_cast<std::uint8_t>(c)}, floorPlace(f)));
    }
}

std::array<Place, kPlaceCount> State::moveDestinations() const {
    // A character has at most one legal move: up one floor, into the WC of a
    // full floor above, or out of a WC. Worked out per place, not per character.
    static constexpr auto kNowhere = [] {
        std::array<Place, kPlaceCount> a{};
        for (auto& p : a) p = Place::Unknown;
        return a;
    }();
    std::array<Place, kPlaceCount> destination = kNowhere;
    const int limit = rules_->floorLimit();
    const bool wcs = rules_->is2024();
    for (int f = 0; f < kFloors; ++f) {
        const int up = f + 1;
        if (up == kFloors) {
            if (count_[static_cast<int>(Place::Throne)] == 0) destination[f] = Place::Throne;
        } else if (count_[up] < limit) {
            destination[f] = floorPlace(up);
        } else if (wcs && (up == 3 || up == 4) && count_[static_cast<int>(wcOf(up))] == 0) {
            destination[f] = wcOf(up);
        }
    }
    if (wcs) {
        if (count_[3] < limit) destination[static_cast<int>(Place::Wc3)] = Place::Floor3;
        if (count_[4] < limit) destination[static_cast<int>(Place::Wc4)] = Place::Floor4;
    }
    return destination;
}

std::uint16_t State::movableCharacters(const std::array<Place, kPlaceCount>& destination) const {
    std::uint16_t movable = 0;
    for (int p = 0; p < kPlaceCount; ++p)
        if (destination[p] != Place::Unknown) movable |= at_[p];
    return movable;
}

void State::addLegalMoves(ActionList& out) const {
    const auto destination = moveDestinations();
    for (unsigned movable = movableCharacters(destination); movable != 0; movable &= movable - 1) {
        const auto c = static_cast<std::uint8_t>(std::countr_zero(movable));
        out.push(Action::move(toAct_, CharacterId{c}, destination[static_cast<int>(place_[c])]));
    }
}

bool State::hasLegalMove() const { return movableCharacters() != 0; }

}  // namespace vivaref::engine
