#include "random_play.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "engine/chance.hpp"
#include "engine/players/random_player.hpp"
#include "engine/state.hpp"
#include "engine/views.hpp"
#include "reference_rules.hpp"

namespace vivaref::test {

using namespace vivaref::engine;

namespace {

// A round has at most 13 placements, fewer than 14 x 8 moves up, and every
// failed election costs a card: far below this bound.
constexpr int kMaxActionsPerRound = 1500;

struct Broken : std::runtime_error {
    using std::runtime_error::runtime_error;
};

template <typename... Parts>
[[noreturn]] void fail(const Parts&... parts) {
    std::ostringstream out;
    (out << ... << parts);
    throw Broken(out.str());
}

std::string list(const std::vector<int>& v) {
    std::ostringstream out;
    out << '[';
    for (std::size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << v[i];
    return out.str() + "]";
}

Seat seatAt(int i) { return Seat{static_cast<std::uint8_t>(i)}; }
PlayerId playerAt(int i) { return PlayerId{static_cast<std::uint8_t>(i)}; }

class CheckedGame {
public:
    CheckedGame(const RulesSpec& spec, std::uint64_t seed, GameStats& stats)
        : rules_(std::make_shared<const Rules>(spec)), state_(rules_), rng_(seed), stats_(stats) {
        totals_.assign(rules_->players(), rules_->startingScore());
        lostNo_.assign(rules_->seats(), 0);
        lostStomachache_.assign(rules_->seats(), 0);
        emissaryTotal_ = rules_->hasEmissary() ? rules_->emissaryStartingScore() : 0;
    }

    void play() {
        checkInvariants();
        if (auto problem = players::playRandomly(state_, rng_, *this)) fail(*problem);
        const State copy = state_;
        if (!(copy == state_)) fail("a copy of the final state is not equal to it");
        const auto back = State::deserialize(rules_, state_.serialize());
        if (!back || back->serialize() != state_.serialize())
            fail("serialize() of the deserialized final state differs");
        if (static_cast<int>(state_.finishedRounds().size()) != rules_->rounds())
            fail("the game ended after ", state_.finishedRounds().size(), " rounds of ", rules_->rounds());
    }

    // The engine's random play (players::playRandomly) asks: each decision
    // before it is applied...
    bool drawn(const State& state, const Decision& d) {
        if (++actionsThisRound_ > kMaxActionsPerRound)
            fail("round ", state.round(), " did not end within ", kMaxActionsPerRound, " actions");
        before_.emplace(state);
        if (!(*before_ == state)) fail("a copy of the state is not equal to it");
        if (const auto* a = std::get_if<Action>(&d)) {
            ActionList legal;
            state.legalActions(legal);
            if (legal.empty()) fail("no legal action in phase ", phaseName(state.phase()));
            if (std::find(legal.begin(), legal.end(), *a) == legal.end())
                fail("randomAction drew an action not in legalActions");
            if (a->kind() == ActionKind::Pass) ++stats_.passes;
        } else if (std::holds_alternative<Reshuffle>(d)) {
            ++stats_.reshuffles;
        }
        return true;
    }

    // ...and after it, with the events it caused.
    void applied(const State&, const EventList& events) {
        ++stats_.actions;
        for (const Event& e : events) onEvent(*before_, e);
        checkInvariants();
    }

private:
    void onEvent(const State& before, const Event& e) {
        switch (e.kind) {
            case EventKind::RoundDealt:
                onDeal();
                break;
            case EventKind::VotesRevealed:
                onReveal(before);
                break;
            case EventKind::Crowned:
                onCoronation(before);
                break;
            case EventKind::RoundEnded:
                onRoundEnd(before);
                break;
            case EventKind::GameOver:
                onGameOver();
                break;
            default:
                break;
        }
    }

    void onDeal() {
        const int players = rules_->players();
        lostNo_.assign(rules_->seats(), 0);
        lostStomachache_.assign(rules_->seats(), 0);
        emissaryLostNo_ = emissaryLostStomachache_ = 0;
        rejections_ = 0;
        coronations_ = 0;
        firstKing_.reset();
        firstKingMover_.reset();
        kings_.clear();
        revealed_ = false;
        actionsThisRound_ = 0;
        if (expectedFirst_ && !(state_.firstPlayer() == *expectedFirst_))
            fail("round ", state_.round(), " starts with seat ", int{state_.firstPlayer().index},
                 ", expected seat ", int{expectedFirst_->index});
        roundScores_ = reference::compensation(*rules_, state_.firstPlayer());
        emissaryRound_ = 0;
        // A single-pawn team's +3 is the team's, shown by both its players.
        for (int p = 0; p < players; ++p) totals_[p] += roundScores_[p];
        if (state_.currentRound().scores != roundScores_)
            fail("after the deal the round's scores are ", list(state_.currentRound().scores),
                 ", expected the compensation ", list(roundScores_));
        for (int s = 0; s < rules_->seats(); ++s)
            if (!(state_.hand(seatAt(s)) == rules_->startingHand()))
                fail("seat ", s, " was not dealt the setup hand");
    }

    void onReveal(const State& before) {
        const Reveal& r = *state_.lastReveal();
        const CharacterId candidate = before.candidate();
        if (!(r.candidate == candidate)) fail("the reveal names another candidate");
        bool anyNo = false, anyStomachache = false;
        for (int s = 0; s < rules_->seats(); ++s) {
            const VoteCard v = r.votes[s];
            anyNo |= v == VoteCard::No;
            anyStomachache |= v == VoteCard::Stomachache;
            if (v == VoteCard::No) ++lostNo_[s];
            if (v == VoteCard::Stomachache) ++lostStomachache_[s];
        }
        if (rules_->hasEmissary()) {
            const bool favourite = before.emissaryFavourites().counts(candidate);
            const auto pile = before.emissaryPile();
            const VoteCard expected = favourite ? VoteCard::Yes : pile.front();
            if (!r.emissaryVote || *r.emissaryVote != expected || r.emissaryDrew == favourite)
                fail("the Emissary voted ", r.emissaryVote ? voteCardName(*r.emissaryVote) : "nothing",
                     ", expected ", voteCardName(expected),
                     favourite ? " for its favourite" : " from its pile");
            anyNo |= expected == VoteCard::No;
            anyStomachache |= expected == VoteCard::Stomachache;
            if (r.emissaryDrew && expected == VoteCard::No) ++emissaryLostNo_;
            if (r.emissaryDrew && expected == VoteCard::Stomachache) ++emissaryLostStomachache_;
        }
        ElectionOutcome outcome = ElectionOutcome::Crowned;
        Place sentTo = Place::Throne;
        if (!rules_->is2024()) {
            if (anyNo) outcome = ElectionOutcome::Eliminated, sentTo = Place::Box;
        } else if (anyStomachache) {
            outcome = ElectionOutcome::Cancelled, sentTo = Place::Floor5;
        } else if (anyNo) {
            outcome = ElectionOutcome::Rejected;
            if (rules_->roster().isJester(candidate)) {
                const int limit = rules_->floorLimit();
                sentTo = before.countAt(Place::Floor2) < limit   ? Place::Floor2
                         : before.countAt(Place::Floor1) < limit ? Place::Floor1
                                                                 : Place::Floor0;
            } else {
                const Place order[] = {Place::Dungeon3, Place::Dungeon2, Place::Dungeon1};
                sentTo = rejections_ < 3 ? order[rejections_] : Place::Box;
                ++rejections_;
            }
        }
        if (r.outcome != outcome)
            fail("election outcome ", electionOutcomeName(r.outcome), ", expected ",
                 electionOutcomeName(outcome));
        if (outcome != ElectionOutcome::Crowned) {
            ++stats_.failedElections;
            if (r.sentTo != sentTo || state_.placeOf(candidate) != sentTo)
                fail("the candidate went to ", placeName(state_.placeOf(candidate)), " (reveal says ",
                     placeName(r.sentTo), "), expected ", placeName(sentTo));
            if (state_.phase() == Phase::Ascent &&
                !(state_.seatToAct() == rules_->nextSeat(before.crownHolder())))
                fail("after a failed election seat ", int{state_.seatToAct().index},
                     " plays, not the one after the crown holder");
        }
    }

    void onCoronation(const State& before) {
        ++stats_.coronations;
        reference::Coronation c;
        c.positions = before.positions();
        c.king = before.candidate();
        c.mover = before.crownHolder();
        c.firstKing = firstKing_;
        c.firstKingMover = firstKingMover_;
        const bool last = !rules_->isRoyalCouple() || coronations_ == 1;
        c.scoresAmbition = rules_->options().ambition && last;
        c.round = before.round();
        const auto scores = reference::scoreCoronation(before, c);
        for (int p = 0; p < rules_->players(); ++p) {
            roundScores_[p] += scores.byPlayer[p];
            totals_[p] = rules_->is2024() ? std::max(0, totals_[p] + scores.byPlayer[p])
                                          : totals_[p] + scores.byPlayer[p];
        }
        emissaryRound_ += scores.emissary;
        emissaryTotal_ = std::max(0, emissaryTotal_ + scores.emissary);
        checkBreakdown(before, c, scores);
        kings_.push_back(c.king);
        lastCrown_ = c.mover;
        revealed_ = true;
        if (!last) {
            firstKing_ = c.king;
            firstKingMover_ = c.mover;
            if (state_.currentRound().scores != roundScores_)
                fail("after the first coronation the round's scores are ", list(state_.currentRound().scores),
                     ", expected ", list(roundScores_));
        }
        ++coronations_;
    }

    // The coronation's breakdown: each sheet's lines add up to its total, the
    // totals are the reference's scores, every favourite line names where that
    // character stood.
    void checkBreakdown(const State& before, const reference::Coronation& c,
                        const reference::CoronationScores& scores) {
        const auto& list = state_.currentRound().coronations;
        if (list.size() != static_cast<std::size_t>(coronations_ + 1)) {
            fail("the round lists ", list.size(), " coronation breakdowns after ", coronations_ + 1,
                 " coronations");
            return;
        }
        const CoronationScore& b = list.back();
        if (!(b.king == c.king) || !(b.crown == c.mover))
            fail("the breakdown names another King or crown holder");
        if (b.jesterKing != rules_->roster().isJester(c.king)) fail("the breakdown's Jester flag is wrong");
        if (b.players.size() != static_cast<std::size_t>(rules_->players())) {
            fail("the breakdown has ", b.players.size(), " sheets");
            return;
        }
        auto checkSheet = [&](const ScoreSheet& sheet, const FavouritesCard& card, int expected,
                              const char* who, int p) {
            int sum = 0, characters = 0;
            for (const ScoreLine& line : sheet.lines) {
                sum += line.points;
                if (line.kind == ScoreLineKind::Favourite || line.kind == ScoreLineKind::Banished) {
                    ++characters;
                    if (line.place != c.positions[line.character.index])
                        fail(who, p, "'s line puts a character elsewhere");
                    if ((line.kind == ScoreLineKind::Banished) == card.counts(line.character))
                        fail(who, p, "'s line gets the seal wrong");
                }
                if (line.kind == ScoreLineKind::Ambition && !c.scoresAmbition)
                    fail(who, p, " has an Ambition line off time");
            }
            if (characters != static_cast<int>(card.characters.size()))
                fail(who, p, "'s sheet lists ", characters, " characters");
            if (sum != sheet.total)
                fail(who, p, "'s lines add up to ", sum, ", not the sheet's total ", sheet.total);
            if (sheet.total != expected)
                fail(who, p, "'s sheet totals ", sheet.total, ", the reference ", expected);
        };
        for (int p = 0; p < rules_->players(); ++p)
            checkSheet(b.players[p], before.favourites(PlayerId{static_cast<std::uint8_t>(p)}),
                       scores.byPlayer[p], "player ", p);
        if (rules_->hasEmissary() != b.emissary.has_value()) fail("the Emissary's sheet is missing or extra");
        if (b.emissary) checkSheet(*b.emissary, before.emissaryFavourites(), scores.emissary, "Emissary ", 0);
    }

    void onRoundEnd(const State& before) {
        ++stats_.rounds;
        endPositions_ = before.positions();
        const RoundResult& r = state_.finishedRounds().back();
        if (r.round != before.round() || static_cast<int>(state_.finishedRounds().size()) != before.round())
            fail("the finished round is numbered ", r.round, ", expected ", before.round());
        if (r.scores != roundScores_)
            fail("round ", r.round, " scores ", list(r.scores), ", a recount from the positions gives ",
                 list(roundScores_));
        if (rules_->hasEmissary() && r.emissaryScore != emissaryRound_)
            fail("round ", r.round, " Emissary score ", r.emissaryScore, ", expected ", emissaryRound_);
        if (r.kings != kings_) fail("round ", r.round, " lists other kings than were crowned");
        for (int p = 0; p < rules_->players(); ++p) {
            int sum = r.compensation[p];
            for (const CoronationScore& k : r.coronations) sum += k.players[p].total;
            if (sum != r.scores[p])
                fail("round ", r.round, " player ", p, "'s breakdown adds up to ", sum, ", not ",
                     r.scores[p]);
        }
        int emissarySum = 0;
        for (const CoronationScore& k : r.coronations)
            if (k.emissary) emissarySum += k.emissary->total;
        if (emissarySum != r.emissaryScore)
            fail("round ", r.round, " Emissary breakdown adds up to ", emissarySum);
        if (!(r.crown == lastCrown_))
            fail("round ", r.round, " names seat ", int{r.crown.index}, " as crown, expected ",
                 int{lastCrown_.index});
        if (rules_->isRoyalCouple() && kings_.size() < 2) ++stats_.allPassRounds;
        expectedFirst_ = rules_->is2024() ? lastCrown_ : rules_->nextSeat(lastCrown_);
    }

    void onGameOver() {
        const auto expected = reference::winners(state_, endPositions_);
        const auto actual = state_.winners();
        std::vector<int> e, a;
        for (auto p : expected) e.push_back(p.index);
        for (auto p : actual) a.push_back(p.index);
        std::sort(a.begin(), a.end());
        if (a != e)
            fail("winners ", list(a), ", expected ", list(e), " (totals ", list(state_.totals()), ")");
        if (publicView(state_).winners != actual) fail("the public view names other winners");
        // Without a floor at 0 a total is the sum of the rounds.
        if (!rules_->is2024()) {
            for (int p = 0; p < rules_->players(); ++p) {
                int sum = 0;
                for (const RoundResult& r : state_.finishedRounds()) sum += r.scores[p];
                if (state_.totals()[p] != sum) fail("player ", p, "'s total is not the sum of the rounds");
            }
        }
    }

    void checkInvariants();
    void checkPositions();
    void checkCards();
    void checkCopies();
    void checkViews();

    std::shared_ptr<const Rules> rules_;
    State state_;
    std::optional<State> before_;  // before the decision being applied
    Rng rng_;
    GameStats& stats_;
    int actionsThisRound_ = 0;
    std::vector<int> lostNo_, lostStomachache_;
    int emissaryLostNo_ = 0, emissaryLostStomachache_ = 0;
    int rejections_ = 0;
    int coronations_ = 0;
    std::optional<CharacterId> firstKing_;
    std::optional<Seat> firstKingMover_;
    std::vector<CharacterId> kings_;
    Seat lastCrown_{};
    std::optional<Seat> expectedFirst_;
    bool revealed_ = false;
    std::vector<int> roundScores_;
    int emissaryRound_ = 0;
    std::vector<int> totals_;
    int emissaryTotal_ = 0;
    std::array<Place, kMaxCharacters> endPositions_{};
};

void CheckedGame::checkInvariants() {
    checkPositions();
    checkCards();
    if (state_.totals() != totals_) fail("totals ", list(state_.totals()), ", expected ", list(totals_));
    if (rules_->hasEmissary() && state_.emissaryTotal() != emissaryTotal_)
        fail("Emissary total ", state_.emissaryTotal(), ", expected ", emissaryTotal_);
    checkCopies();
    checkViews();
}

void CheckedGame::checkPositions() {
    const int n = state_.characterCount();
    if (n != rules_->roster().size())
        fail("the state has ", n, " characters, the roster ", rules_->roster().size());
    std::array<int, kPlaceCount> count{};
    for (int c = 0; c < n; ++c) {
        const Place p = state_.placeOf(CharacterId{static_cast<std::uint8_t>(c)});
        if (static_cast<int>(p) >= kPlaceCount) fail("character ", c, " stands nowhere");
        ++count[static_cast<int>(p)];
        if (rules_->roster().isJester(CharacterId{static_cast<std::uint8_t>(c)}) && isDungeon(p))
            fail("the Jester is in a dungeon");
    }
    for (int p = 0; p < kPlaceCount; ++p)
        if (state_.countAt(static_cast<Place>(p)) != count[p])
            fail("countAt(", placeName(static_cast<Place>(p)), ") is ", state_.countAt(static_cast<Place>(p)),
                 ", ", count[p], " stand there");
    for (int f = 1; f <= 5; ++f)
        if (count[f] > rules_->floorLimit())
            fail("floor ", f, " holds ", count[f], " over its limit ", rules_->floorLimit());
    for (Place p : {Place::Throne, Place::Wc3, Place::Wc4, Place::Dungeon1, Place::Dungeon2, Place::Dungeon3,
                    Place::BesideThrone})
        if (count[static_cast<int>(p)] > 1) fail(placeName(p), " holds ", count[static_cast<int>(p)]);
    if (!rules_->is2024())
        for (Place p : {Place::Wc3, Place::Wc4, Place::Dungeon1, Place::Dungeon2, Place::Dungeon3})
            if (count[static_cast<int>(p)]) fail("a classic character stands in ", placeName(p));
    if (!rules_->isRoyalCouple() && count[static_cast<int>(Place::BesideThrone)])
        fail("a first King without a royal couple");
    const Phase phase = state_.phase();
    if (phase == Phase::Ascent || phase == Phase::Election || phase == Phase::AwaitReshuffle) {
        if (count[static_cast<int>(Place::Reserve)])
            fail("characters are still beside the board in the ascent");
    }
    if (phase == Phase::Ascent && count[static_cast<int>(Place::Throne)])
        fail("the throne is taken outside an election");
    if (phase == Phase::Election &&
        (count[static_cast<int>(Place::Throne)] != 1 || state_.placeOf(state_.candidate()) != Place::Throne))
        fail("an election without its candidate on the throne");
}

void CheckedGame::checkCards() {
    if (state_.phase() == Phase::AwaitDeal) return;  // hands are dealt with the round
    const Hand start = rules_->startingHand();
    const bool election = state_.phase() == Phase::Election;
    for (int s = 0; s < rules_->seats(); ++s) {
        const Hand& h = state_.hand(seatAt(s));
        const int expectNo = start.no - lostNo_[s], expectSt = start.stomachache - lostStomachache_[s];
        // While a vote is cast and not revealed, its card may be off the hand.
        // (Kept as a VoteCard, Unknown for none, not an optional: GCC 12 at
        // -O3 wrongly warns that a disengaged optional's payload is read.)
        const VoteCard vote =
            election ? state_.voteOf(seatAt(s)).value_or(VoteCard::Unknown) : VoteCard::Unknown;
        const auto fits = [&](int held, int expected, VoteCard c) {
            return held == expected || (vote == c && held == expected - 1);
        };
        if (expectNo < 0 || expectSt < 0) fail("seat ", s, " played more cards than it was dealt");
        if (!fits(h.no, expectNo, VoteCard::No) || !fits(h.stomachache, expectSt, VoteCard::Stomachache) ||
            !fits(h.yes, 1, VoteCard::Yes))
            fail("seat ", s, " holds ", int{h.yes}, "/", int{h.no}, "/", int{h.stomachache},
                 " (yes/no/stomachache), expected 1/", expectNo, "/", expectSt, " from the cards played");
    }
    if (rules_->hasEmissary() && !election && state_.phase() != Phase::AwaitDeal) {
        const auto pile = state_.emissaryPile();
        const auto n = [&](VoteCard c) { return static_cast<int>(std::count(pile.begin(), pile.end(), c)); };
        if (n(VoteCard::Yes) != 1 || n(VoteCard::No) != start.no - emissaryLostNo_ ||
            n(VoteCard::Stomachache) != start.stomachache - emissaryLostStomachache_ ||
            static_cast<int>(pile.size()) != n(VoteCard::Yes) + n(VoteCard::No) + n(VoteCard::Stomachache))
            fail("the Emissary's pile holds ", n(VoteCard::Yes), "/", n(VoteCard::No), "/",
                 n(VoteCard::Stomachache), " after losing ", emissaryLostNo_, " No and ",
                 emissaryLostStomachache_, " Stomachache");
    }
}

void CheckedGame::checkCopies() {
    // Clone equality is checked on the copy step() takes before each action.
    const std::string text = state_.serialize();
    const auto back = State::deserialize(rules_, text);
    if (!back) fail("deserialize(serialize()) failed");
    if (!(*back == state_)) fail("deserialize(serialize()) is not equal to the state");
}

void CheckedGame::checkViews() {
    const PublicView pv = publicView(state_);
    if (pv.phase != state_.phase() || pv.round != state_.round())
        fail("the public view shows another phase or round");
    for (int c = 0; c < state_.characterCount(); ++c)
        if (pv.positions[c] != state_.positions()[c])
            fail("the public view shows character ", c, " elsewhere");
    if (pv.totals != state_.totals()) fail("the public view shows other totals");
    if (pv.lastReveal != state_.lastReveal()) fail("the public view shows another reveal");
    if (!revealed_ && !pv.revealedFavourites.empty())
        fail("the public view shows favourites before any coronation this round");
    for (std::size_t p = 0; p < pv.revealedFavourites.size(); ++p)
        if (p >= static_cast<std::size_t>(rules_->players()) ||
            !(pv.revealedFavourites[p] == state_.favourites(playerAt(static_cast<int>(p)))))
            fail("the public view shows a favourites card that is not player ", p, "'s");
    if (pv.emissaryFavourites && !rules_->hasEmissary()) fail("the public view invents an Emissary card");
    if (!pv.emissaryFavourites && rules_->hasEmissary() && state_.phase() != Phase::AwaitDeal)
        fail("the Emissary's face-up card is missing");
    if (pv.emissaryFavourites && !(*pv.emissaryFavourites == state_.emissaryFavourites()))
        fail("the public view shows another Emissary card");
    // Who has voted, one flag a seat, during an election (outside one the list may be empty).
    const bool election = state_.phase() == Phase::Election;
    if (election ? static_cast<int>(pv.voted.size()) != rules_->seats()
                 : !pv.voted.empty() && static_cast<int>(pv.voted.size()) != rules_->seats())
        fail("the public view's voted list is not one per seat");
    for (std::size_t s = 0; s < pv.voted.size(); ++s)
        if (pv.voted[s] != (election && state_.hasVoted(seatAt(static_cast<int>(s)))))
            fail("the public view misreports who voted");
    if (!state_.isOver() && !pv.winners.empty()) fail("winners before the end");
    for (int p = 0; p < rules_->players(); ++p) {
        const PlayerId pid = playerAt(p);
        const Seat s = rules_->seatOf(pid);
        const PlayerView v = playerView(state_, pid);
        if (!(v.player == pid) || !(v.seat == s)) fail("player ", p, "'s view is someone else's");
        // While a deal is awaited a view may be blank, never someone else's.
        const bool blankAllowed = state_.phase() == Phase::AwaitDeal;
        if (!(v.favourites == state_.favourites(pid)) && !(blankAllowed && v.favourites == FavouritesCard{}))
            fail("player ", p, "'s view shows another favourites card");
        if (!(v.hand == state_.hand(s)) && !(blankAllowed && v.hand == Hand{}))
            fail("player ", p, "'s view shows the hand ", int{v.hand.yes}, "/", int{v.hand.no}, "/",
                 int{v.hand.stomachache}, ", the seat holds ", int{state_.hand(s).yes}, "/",
                 int{state_.hand(s).no}, "/", int{state_.hand(s).stomachache}, " in phase ",
                 phaseName(state_.phase()));
        if (state_.phase() == Phase::Election && v.ownVote != state_.voteOf(s))
            fail("player ", p, "'s view shows another vote");
        const AmbitionCard kept = state_.keptAmbition(pid);
        if (kept != AmbitionCard::Unknown && v.ambition != kept)
            fail("player ", p, "'s view shows another kept Ambition card");
        if (kept == AmbitionCard::Unknown && v.ambition)
            fail("player ", p, "'s view shows an Ambition card not kept");
        const auto& pair = state_.ambitionChoices(pid);
        for (AmbitionCard c : v.ambitionChoices)
            if (c != pair[0] && c != pair[1])
                fail("player ", p, "'s view offers an Ambition card not dealt to them");
        if (state_.phase() == Phase::KeepAmbition && kept == AmbitionCard::Unknown &&
            v.ambitionChoices.size() != 2)
            fail("player ", p, " cannot see the two Ambition cards to choose from");
    }
}

}  // namespace

std::optional<std::string> playCheckedGame(const RulesSpec& spec, std::uint64_t seed, GameStats& stats) {
    try {
        CheckedGame game(spec, seed, stats);
        game.play();
        return std::nullopt;
    } catch (const Broken& e) {
        return std::string(e.what());
    }
}

std::vector<PlayConfig> randomPlayConfigs() {
    std::vector<PlayConfig> out;
    const auto add = [&out](std::string name, const RulesSpec& spec) {
        if (!Rules::validate(spec)) out.push_back({std::move(name), spec});
    };
    for (int seats = 3; seats <= 6; ++seats) {
        RulesSpec classic;
        classic.edition = Edition::Classic;
        classic.seats = seats;
        add("classic " + std::to_string(seats), classic);
        RulesSpec online = classic;
        online.edition = Edition::Online;
        add("online " + std::to_string(seats), online);
    }
    RulesSpec online3;
    online3.edition = Edition::Online;
    online3.rounds = 3;
    add("online 4, 3 rounds", online3);

    const Options optionSets[] = {{false, false}, {true, false}, {false, true}, {true, true}};
    const char* optionNames[] = {"", " +ambition", " +banished", " +ambition +banished"};
    for (int o = 0; o < 4; ++o) {
        const auto make = [&](int seats, Variant v) {
            RulesSpec s;
            s.edition = Edition::Vive2024;
            s.seats = seats;
            s.variant = v;
            s.options = optionSets[o];
            return s;
        };
        for (int seats = 3; seats <= 8; ++seats)
            add("2024 " + std::to_string(seats) + optionNames[o], make(seats, Variant::None));
        for (int seats = 2; seats <= 5; ++seats)
            add("2024 " + std::to_string(seats) + " emissary" + optionNames[o],
                make(seats, Variant::Emissary));
        for (int seats = 3; seats <= 8; ++seats)
            add("2024 " + std::to_string(seats) + " royal-couple" + optionNames[o],
                make(seats, Variant::RoyalCouple));
        for (Variant v : {Variant::Teams, Variant::TeamPawn}) {
            for (int seats = 3; seats <= 8; ++seats) {
                std::vector<int> pairs{1, seats / 2, seats};
                pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
                for (int teamsOfTwo : pairs) {
                    RulesSpec s = make(seats, v);
                    int next = 0;
                    for (int st = 0; st < seats; ++st) {
                        if (st < teamsOfTwo)
                            s.teams.push_back({next, next + 1}), next += 2;
                        else
                            s.teams.push_back({next}), next += 1;
                    }
                    add("2024 " + std::to_string(seats) + " seats " + std::string(variantName(v)) + " with " +
                            std::to_string(teamsOfTwo) + " teams of two" + optionNames[o],
                        s);
                }
            }
        }
    }
    return out;
}

}  // namespace vivaref::test
