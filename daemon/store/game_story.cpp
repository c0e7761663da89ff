#include "daemon/store/game_story.hpp"

#include <array>
#include <chrono>
#include <ctime>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "daemon/words/words.hpp"
#include "engine/record/record_replayer.hpp"
#include "engine/record/score_breakdown.hpp"

namespace vivaref::store {

namespace {

// An Ambition card as the pages name it (web-ui/js/names.js), with its points.
std::string ambitionTitle(engine::AmbitionCard c) {
    static constexpr std::array<std::string_view, engine::kAmbitionCardCount> kTitles = {
        "The Jester is King",
        "It's a Queen",
        "It's a King",
        "0 favourites in a WC",
        "1 favourite in a WC",
        "2 favourites in a WC",
        "No favourite on floors 0-1",
        "No favourite on floors 2-3",
        "No favourite on floors 4-5",
        "1 favourite in the dungeons",
        "2 favourites in the dungeons",
        "3 favourites in the dungeons",
        "No WC and no dungeon",
        "Only Yes votes",
        "Friend of the King",
        "Under 11"};
    const auto i = static_cast<std::size_t>(c);
    if (i >= kTitles.size()) return std::string(engine::ambitionCardName(c));
    return "\"" + std::string(kTitles[i]) + "\" (" + std::to_string(engine::ambitionCardPoints(c)) + ")";
}

std::string placeText(engine::Place p) {
    using engine::Place;
    if (p == Place::Throne) return "the throne";
    if (engine::isFloor(p)) return "floor " + std::to_string(engine::floorOf(p));
    if (p == Place::Wc3) return "the WC of floor 3";
    if (p == Place::Wc4) return "the WC of floor 4";
    if (engine::isDungeon(p)) return "dungeon " + std::string(engine::placeName(p).substr(7));
    if (p == Place::Box) return "the box";
    if (p == Place::BesideThrone) return "beside the throne";
    return std::string(engine::placeName(p));
}

class Storyteller {
public:
    // `withheld`: the rounds whose favourites and Ambition cards are left
    // out (nullopt: none); `votesCast`: tell the votes of an open election.
    Storyteller(const GameSummary& game, std::ostream& out, std::optional<std::set<int>> withheld,
                bool votesCast)
        : game_(game), out_(out), withheld_(std::move(withheld)), votesCast_(votesCast) {}

    void step(const record::ReplayStep& s) {
        const auto& rules = s.state.rules();
        for (const auto& e : s.events) {
            if (e.kind == engine::EventKind::VoteCast)
                if (const auto* vote = std::get_if<engine::Action>(s.decision))
                    unrevealed_.push_back(seatName(rules, e.seat) + " " +
                                          std::string(engine::voteCardName(vote->card())));
            event(e, s.state, rules);
        }
    }

    // After the last line: the votes of an election still open, if asked.
    void finish() const {
        if (!votesCast_ || unrevealed_.empty()) return;
        out_ << "    Votes cast, not yet revealed:";
        for (std::size_t i = 0; i < unrevealed_.size(); ++i) out_ << (i ? ", " : " ") << unrevealed_[i];
        out_ << ".\n";
    }

    std::string seatName(const engine::Rules& rules, engine::Seat seat) const {
        std::string names;
        for (int i = 0; i < rules.playersAt(seat); ++i)
            names += (i ? " & " : "") + playerName(rules.playerAt(seat, i).index);
        return names.empty() ? "Seat " + std::to_string(seat.index + 1) : names;
    }
    std::string playerName(int player) const {
        for (const auto& p : game_.players)
            if (p.player == player && !p.name.empty()) return p.name;
        return "Player " + std::to_string(player + 1);
    }

private:
    static std::string name(const engine::Rules& rules, engine::CharacterId c) {
        return c.index < rules.roster().size() ? rules.roster()[c].name : "?";
    }

    bool secret() const { return withheld_ && withheld_->contains(round_); }

    // One line or a few for each kind of event, told as it happened.
    void event(const engine::Event& e, const engine::State& state, const engine::Rules& rules) {
        using engine::EventKind;
        switch (e.kind) {
            case EventKind::RoundDealt:
                return tellDeal(e, state, rules);
            case EventKind::JesterSetUp:
                return tellJesterSetUp(e, rules);
            case EventKind::Compensated:
                return tellCompensated(e, rules);
            case EventKind::AmbitionKept:
                return tellAmbitionKept(e, state);
            case EventKind::Placed:
                return tellPlaced(e, rules);
            case EventKind::PlacementEnded:
                return tellPlacementEnded();
            case EventKind::LeftToFloor0:
                return tellLeftToFloor0(e, rules);
            case EventKind::PlacedAtRandom:
                return tellPlacedAtRandom(e, rules);
            case EventKind::Moved:
                return tellMoved(e, rules);
            case EventKind::Passed:
                return tellPassed(e, rules);
            case EventKind::ElectionOpened:
                return tellElectionOpened(e, rules);
            case EventKind::VoteCast:
                return;  // secret: told with the reveal (or by finish())
            case EventKind::VotesRevealed:
                return tellVotesRevealed(state, rules);
            case EventKind::Crowned:
                return tellCrowned(e, rules);
            case EventKind::Rejected:
                return tellRejected(e, rules);
            case EventKind::Eliminated:
                return tellEliminated(e, rules);
            case EventKind::Cancelled:
                return tellCancelled(e, rules);
            case EventKind::PileReshuffled:
                return tellPileReshuffled();
            case EventKind::CoronationScored:
                return;  // told with the round's scores
            case EventKind::RoundEnded:
                return tellRoundEnded(state, rules);
            case EventKind::GameOver:
                return tellGameOver(state);
        }
    }

    void tellDeal(const engine::Event& e, const engine::State& state, const engine::Rules& rules) {
        round_ = e.round;
        out_ << "\nRound " << e.round << "\n  Favourites:";
        if (secret()) {
            out_ << " secret until the round is scored.\n";
            return;
        }
        out_ << "\n";
        for (int p = 0; p < rules.players(); ++p) {
            const auto& card = state.favourites(engine::PlayerId{static_cast<std::uint8_t>(p)});
            out_ << "    " << playerName(p) << ":";
            for (std::size_t i = 0; i < card.characters.size(); ++i)
                out_ << (i ? ", " : " ") << name(rules, card.characters[i]);
            if (card.banished) out_ << " (banished: " << name(rules, *card.banished) << ")";
            out_ << "\n";
        }
    }

    void tellJesterSetUp(const engine::Event& e, const engine::Rules& rules) {
        out_ << "  " << name(rules, e.character) << " starts on floor 3.\n";
    }

    void tellCompensated(const engine::Event& e, const engine::Rules& rules) {
        out_ << "  " << seatName(rules, e.seat) << " gains 3 points (one character to place).\n";
    }

    void tellAmbitionKept(const engine::Event& e, const engine::State& state) {
        if (secret()) {
            out_ << "  " << playerName(e.player.index) << " keeps an Ambition card.\n";
            return;
        }
        out_ << "  " << playerName(e.player.index) << " keeps the Ambition card "
             << ambitionTitle(state.keptAmbition(e.player)) << ".\n";
    }

    void tellPlaced(const engine::Event& e, const engine::Rules& rules) {
        out_ << "  " << seatName(rules, e.seat) << " places " << name(rules, e.character) << " on "
             << placeText(e.to) << ".\n";
    }

    void tellPlacementEnded() { out_ << "  Placement is over; the ascent begins.\n"; }

    void tellLeftToFloor0(const engine::Event& e, const engine::Rules& rules) {
        out_ << "  " << name(rules, e.character) << " was left over: floor 0.\n";
    }

    void tellPlacedAtRandom(const engine::Event& e, const engine::Rules& rules) {
        out_ << "  " << name(rules, e.character) << " starts on " << placeText(e.to) << ".\n";
    }

    void tellMoved(const engine::Event& e, const engine::Rules& rules) {
        out_ << "  " << seatName(rules, e.seat) << " moves " << name(rules, e.character) << " from "
             << placeText(e.from) << " to " << placeText(e.to) << ".\n";
    }

    void tellPassed(const engine::Event& e, const engine::Rules& rules) {
        out_ << "  " << seatName(rules, e.seat) << " passes: no legal move.\n";
    }

    void tellElectionOpened(const engine::Event& e, const engine::Rules& rules) {
        unrevealed_.clear();
        out_ << "  Election of " << name(rules, e.character) << ".\n";
    }

    void tellVotesRevealed(const engine::State& state, const engine::Rules& rules) {
        unrevealed_.clear();
        const auto& reveal = state.lastReveal();
        if (!reveal) return;
        out_ << "    Votes:";
        for (int s = 0; s < rules.seats(); ++s)
            out_ << (s ? ", " : " ") << seatName(rules, engine::Seat{static_cast<std::uint8_t>(s)}) << " "
                 << engine::voteCardName(reveal->votes[static_cast<std::size_t>(s)]);
        if (reveal->emissaryVote)
            out_ << ", the Emissary " << engine::voteCardName(*reveal->emissaryVote)
                 << (reveal->emissaryDrew ? "" : " (a favourite)");
        out_ << ".\n";
    }

    void tellCrowned(const engine::Event& e, const engine::Rules& rules) {
        out_ << "    " << name(rules, e.character) << " is crowned King, brought to the throne by "
             << seatName(rules, e.seat) << ".\n";
    }

    void tellRejected(const engine::Event& e, const engine::Rules& rules) {
        out_ << "    " << name(rules, e.character) << " is rejected: to " << placeText(e.to) << ".\n";
    }

    void tellEliminated(const engine::Event& e, const engine::Rules& rules) {
        out_ << "    " << name(rules, e.character) << " is eliminated: to the box.\n";
    }

    void tellCancelled(const engine::Event& e, const engine::Rules& rules) {
        out_ << "    Stomachache: " << name(rules, e.character) << " goes back to floor 5.\n";
    }

    void tellPileReshuffled() { out_ << "    The Emissary's pile is reshuffled.\n"; }

    // The round's scores, the score track, and why, favourite by favourite.
    void tellRoundEnded(const engine::State& state, const engine::Rules& rules) {
        if (state.finishedRounds().empty()) return;
        const auto& r = state.finishedRounds().back();
        out_ << "  Scores of round " << r.round << ":";
        for (std::size_t p = 0; p < r.scores.size(); ++p)
            out_ << (p ? ", " : " ") << playerName(static_cast<int>(p)) << " " << r.scores[p];
        if (rules.hasEmissary()) out_ << ", the Emissary " << r.emissaryScore;
        out_ << ".\n  Score track:";
        const auto totals = state.totals();
        for (std::size_t p = 0; p < totals.size(); ++p)
            out_ << (p ? ", " : " ") << playerName(static_cast<int>(p)) << " " << totals[p];
        if (rules.hasEmissary()) out_ << ", the Emissary " << state.emissaryTotal();
        out_ << ".\n  Why, favourite by favourite:\n";
        std::vector<std::string> names;
        for (int p = 0; p < rules.players(); ++p) names.push_back(playerName(p));
        out_ << record::roundBreakdownText(r, rules, names);
    }

    void tellGameOver(const engine::State& state) {
        const auto winners = state.winners();
        out_ << "\nThe game is over. ";
        if (winners.empty()) {
            out_ << "The Emissary wins; every player loses.\n";
            return;
        }
        out_ << (winners.size() == 1 ? "Winner: " : "Winners (a shared win): ");
        for (std::size_t i = 0; i < winners.size(); ++i)
            out_ << (i ? ", " : "") << playerName(winners[i].index) << " with "
                 << state.totals()[winners[i].index];
        out_ << ".\n";
    }

    const GameSummary& game_;
    std::ostream& out_;
    std::optional<std::set<int>> withheld_;
    bool votesCast_;
    int round_ = 0;
    std::vector<std::string> unrevealed_;  // "Ann Yes", since the election opened
};

// The rounds of a game in progress not scored yet: the last, and any dealt
// later (the record may stop anywhere).
std::set<int> unscoredRounds(const std::vector<std::string>& lines) {
    std::set<int> rounds;
    auto walk = record::replayLines(lines, {.after = [&](const record::ReplayStep& s) {
                                        for (const auto& e : s.events)
                                            if (e.kind == engine::EventKind::RoundDealt)
                                                rounds.insert(e.round);
                                        return true;
                                    }});
    if (walk.state)
        for (const auto& r : walk.state->finishedRounds()) rounds.erase(r.round);
    return rounds;
}

}  // namespace

namespace {

GameSummary knownGame(GameStore& log, GameId id) {
    auto game = log.game(id);
    if (!game)
        throw StoreError(log.file(),
                         "holds no game " + std::to_string(id.value) + "; 'vivaref games' lists them");
    return *game;
}

// As the pages decide (server/game_archive.cpp).
bool stillPlayed(const GameSummary& g) { return !g.ended && !g.complete && !g.abandoned; }

}  // namespace

bool inProgress(GameStore& log, GameId id) { return stillPlayed(knownGame(log, id)); }

void writeStory(GameStore& log, GameId id, std::ostream& out, bool revealInProgress) {
    const auto summary = knownGame(log, id);
    const auto* game = &summary;
    const auto events = log.events(id);
    int undos = 0;
    for (const auto& e : events) undos += e.kind == "undo";
    const auto lines = log.recordLines(id);
    // A game still being played keeps its secrets (game_story.hpp).
    const bool playing = stillPlayed(summary);
    const bool withhold = playing && !revealInProgress;

    Storyteller teller(*game, out, withhold ? std::optional(unscoredRounds(lines)) : std::nullopt,
                       playing && revealInProgress);
    out << "Game " << id.value << ", started " << localTimeText(game->started);
    if (game->ended) out << ", ended " << localTimeText(*game->ended);
    out << ".\n";
    if (withhold)
        out << "It is still being played: the favourites and Ambition cards of the round in play and the "
               "referee's seed are left out ('vivaref show --reveal "
            << id.value << "' prints them).\n";
    auto walk = record::replayLines(
        lines, {.after = [&](const record::ReplayStep& s) {
            if (!s.decision) {
                const auto& rules = s.state.rules();
                out << "Edition " << engine::editionName(rules.edition()) << ", " << rules.seats()
                    << " seats, " << rules.rounds() << (rules.rounds() == 1 ? " round" : " rounds");
                if (rules.options().ambition) out << ", Ambition";
                if (rules.options().banished) out << ", Banished";
                if (rules.variant() != engine::Variant::None)
                    out << ", variant " << engine::variantName(rules.variant());
                out << ".\nSeats:";
                for (int seat = 0; seat < rules.seats(); ++seat)
                    out << (seat ? "," : "") << " " << seat << " "
                        << teller.seatName(rules, engine::Seat{static_cast<std::uint8_t>(seat)});
                out << ".\n";
                if (game->seed && !withhold) out << "The referee dealt with seed " << *game->seed << ".\n";
                if (undos) out << "Decisions taken back during the game: " << undos << " (left out below).\n";
                return true;
            }
            teller.step(s);
            return true;
        }});
    teller.finish();
    if (walk.failure)
        out << "\nThe log's decision " << walk.failure->line << " is refused by the rules ("
            << engine::refusalCodeName(walk.failure->refusal.code) << ": "
            << words::inEnglish(walk.failure->refusal.message) << "); 'vivaref verify " << id.value
            << "' says more.\n";
    else if (game->abandoned)
        out << "\nThe game was abandoned here.\n";
    else if (walk.state && !walk.state->isOver())
        out << "\nThe log stops here: the game is " << (game->ended ? "incomplete" : "still in progress")
            << ".\n";
}

std::string localTimeText(WallTime t) {
    const std::time_t seconds =
        std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
    std::tm tm{};
    localtime_r(&seconds, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M", &tm);
    return buffer;
}

}  // namespace vivaref::store
