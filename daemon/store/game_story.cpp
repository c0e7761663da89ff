#include "daemon/store/game_story.hpp"

#include <algorithm>
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

using engine::Message;
namespace say = engine::say;

class Storyteller {
public:
    // `withheld`: the rounds whose favourites and Ambition cards are left
    // out (nullopt: none); `votesCast`: tell the votes of an open election.
    Storyteller(const GameSummary& game, const words::Words& words, std::ostream& out,
                std::optional<std::set<int>> withheld, bool votesCast)
        : game_(game), words_(words), out_(out), withheld_(std::move(withheld)), votesCast_(votesCast) {}

    // A line of the story: indented by `depth` steps of two spaces.
    void tell(int depth, const Message& m) const {
        out_ << std::string(static_cast<std::size_t>(2 * depth), ' ') << words_.say(m) << "\n";
    }

    void step(const record::ReplayStep& s) {
        const auto& rules = s.state.rules();
        for (const auto& e : s.events) {
            if (e.kind == engine::EventKind::VoteCast)
                if (const auto* vote = std::get_if<engine::Action>(s.decision))
                    unrevealed_.push_back(
                        say::message(Message("story.vote", {{"who", seatValue(rules, e.seat)},
                                                            {"card", say::vote(vote->card())}})));
            event(e, s.state, rules);
        }
    }

    // After the last line: the votes of an election still open, if asked.
    void finish() const {
        if (!votesCast_ || unrevealed_.empty()) return;
        tell(2, Message("story.votes-cast", {{"votes", say::list(unrevealed_)}}));
    }

    // A seat: its players' names, or "Seat N" (from 1).
    engine::MessageValue seatValue(const engine::Rules& rules, engine::Seat seat) const {
        std::vector<engine::MessageValue> names;
        for (int i = 0; i < rules.playersAt(seat); ++i)
            names.push_back(playerValue(rules.playerAt(seat, i).index));
        if (names.empty()) return say::message(Message("seat.numbered", {{"seat", say::seat(seat)}}));
        if (names.size() == 1) return names.front();
        return say::list(std::move(names));
    }
    // How many play the seat: a team's verbs agree with both ("Ann and Bob move").
    static engine::MessageValue seatPlayers(const engine::Rules& rules, engine::Seat seat) {
        return say::number(std::max(1, rules.playersAt(seat)));
    }
    engine::MessageValue playerValue(int player) const {
        for (const auto& p : game_.players)
            if (p.player == player && !p.name.empty()) return say::player(p.name);
        return say::message(Message("breakdown.player-numbered", {{"number", say::number(player + 1)}}));
    }

private:
    static engine::MessageValue character(const engine::Rules& rules, engine::CharacterId c) {
        if (c.index < rules.roster().size()) return say::character(rules.roster()[c]);
        return say::character("", "?");
    }

    bool secret() const { return withheld_ && withheld_->contains(round_); }

    // One line or a few for each kind of event, told as it happened.
    void event(const engine::Event& e, const engine::State& state, const engine::Rules& rules) {
        using engine::EventKind;
        switch (e.kind) {
            case EventKind::RoundDealt:
                return tellDeal(e, state, rules);
            case EventKind::JesterSetUp:
                return tell(1,
                            Message("story.jester-set-up", {{"character", character(rules, e.character)}}));
            case EventKind::Compensated:
                return tell(1, Message("story.compensated", {{"seat", seatValue(rules, e.seat)},
                                                             {"players", seatPlayers(rules, e.seat)}}));
            case EventKind::AmbitionKept:
                return tellAmbitionKept(e, state);
            case EventKind::Placed:
                return tell(1, Message("story.placed", {{"seat", seatValue(rules, e.seat)},
                                                        {"players", seatPlayers(rules, e.seat)},
                                                        {"character", character(rules, e.character)},
                                                        {"to", say::place(e.to)}}));
            case EventKind::PlacementEnded:
                return tell(1, Message("story.placement-ended"));
            case EventKind::LeftToFloor0:
                return tell(1,
                            Message("story.left-to-floor-0", {{"character", character(rules, e.character)}}));
            case EventKind::PlacedAtRandom:
                return tell(
                    1, Message("story.placed-at-random",
                               {{"character", character(rules, e.character)}, {"to", say::place(e.to)}}));
            case EventKind::Moved:
                return tell(1, Message("story.moved", {{"seat", seatValue(rules, e.seat)},
                                                       {"players", seatPlayers(rules, e.seat)},
                                                       {"character", character(rules, e.character)},
                                                       {"from", say::place(e.from)},
                                                       {"to", say::place(e.to)}}));
            case EventKind::Passed:
                return tell(1, Message("story.passed", {{"seat", seatValue(rules, e.seat)},
                                                        {"players", seatPlayers(rules, e.seat)}}));
            case EventKind::ElectionOpened:
                unrevealed_.clear();
                return tell(1, Message("story.election", {{"character", character(rules, e.character)}}));
            case EventKind::VoteCast:
                return;  // secret: told with the reveal (or by finish())
            case EventKind::VotesRevealed:
                return tellVotesRevealed(state, rules);
            case EventKind::Crowned:
                return tell(2, Message("story.crowned", {{"character", character(rules, e.character)},
                                                         {"seat", seatValue(rules, e.seat)}}));
            case EventKind::Rejected:
                return tell(2, Message("story.rejected", {{"character", character(rules, e.character)},
                                                          {"to", say::place(e.to)}}));
            case EventKind::Eliminated:
                return tell(2, Message("story.eliminated", {{"character", character(rules, e.character)}}));
            case EventKind::Cancelled:
                return tell(2, Message("story.cancelled", {{"character", character(rules, e.character)}}));
            case EventKind::PileReshuffled:
                return tell(2, Message("story.reshuffled"));
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
        out_ << "\n";
        tell(0, Message("story.round", {{"round", say::number(e.round)}}));
        if (secret()) return tell(1, Message("story.favourites-secret"));
        tell(1, Message("story.favourites"));
        for (int p = 0; p < rules.players(); ++p) {
            const auto& card = state.favourites(engine::PlayerId{static_cast<std::uint8_t>(p)});
            std::vector<engine::MessageValue> characters;
            for (const auto c : card.characters) characters.push_back(character(rules, c));
            if (card.banished)
                tell(2,
                     Message("story.favourites-banished", {{"player", playerValue(p)},
                                                           {"characters", say::list(std::move(characters))},
                                                           {"banished", character(rules, *card.banished)}}));
            else
                tell(2, Message("story.favourites-of", {{"player", playerValue(p)},
                                                        {"characters", say::list(std::move(characters))}}));
        }
    }

    void tellAmbitionKept(const engine::Event& e, const engine::State& state) {
        if (secret())
            return tell(1, Message("story.ambition-kept-secret", {{"player", playerValue(e.player.index)}}));
        const auto card = state.keptAmbition(e.player);
        tell(1, Message("story.ambition-kept", {{"player", playerValue(e.player.index)},
                                                {"card", say::ambition(card)},
                                                {"points", say::number(engine::ambitionCardPoints(card))}}));
    }

    void tellVotesRevealed(const engine::State& state, const engine::Rules& rules) {
        unrevealed_.clear();
        const auto& reveal = state.lastReveal();
        if (!reveal) return;
        std::vector<engine::MessageValue> votes;
        for (int s = 0; s < rules.seats(); ++s)
            votes.push_back(say::message(
                Message("story.vote", {{"who", seatValue(rules, engine::Seat{static_cast<std::uint8_t>(s)})},
                                       {"card", say::vote(reveal->votes[static_cast<std::size_t>(s)])}})));
        if (reveal->emissaryVote)
            votes.push_back(say::message(
                Message(reveal->emissaryDrew ? "story.vote-emissary" : "story.vote-emissary-favourite",
                        {{"card", say::vote(*reveal->emissaryVote)}})));
        tell(2, Message("story.votes", {{"votes", say::list(std::move(votes))}}));
    }

    // "Ann 24", "the Emissary 5": a list of scores, by player, then the Emissary's.
    engine::MessageValue scores(const std::vector<int>& byPlayer, std::optional<int> emissary) const {
        std::vector<engine::MessageValue> items;
        for (std::size_t p = 0; p < byPlayer.size(); ++p)
            items.push_back(say::message(Message("story.score", {{"who", playerValue(static_cast<int>(p))},
                                                                 {"points", say::number(byPlayer[p])}})));
        if (emissary)
            items.push_back(
                say::message(Message("story.score-emissary", {{"points", say::number(*emissary)}})));
        return say::list(std::move(items));
    }

    // The round's scores, the score track, and why, favourite by favourite.
    void tellRoundEnded(const engine::State& state, const engine::Rules& rules) {
        if (state.finishedRounds().empty()) return;
        const auto& r = state.finishedRounds().back();
        const bool emissary = rules.hasEmissary();
        tell(1, Message("story.round-scores",
                        {{"round", say::number(r.round)},
                         {"scores", scores({r.scores.begin(), r.scores.end()},
                                           emissary ? std::optional(r.emissaryScore) : std::nullopt)}}));
        const auto totals = state.totals();
        tell(1,
             Message("story.score-track",
                     {{"scores", scores({totals.begin(), totals.end()},
                                        emissary ? std::optional(state.emissaryTotal()) : std::nullopt)}}));
        tell(1, Message("story.why"));
        std::vector<std::string> names;
        for (int p = 0; p < rules.players(); ++p) {
            names.emplace_back();
            for (const auto& known : game_.players)
                if (known.player == p) names.back() = known.name;
        }
        for (const auto& line : record::roundBreakdownLines(r, rules, names)) tell(line.depth, line.says);
    }

    void tellGameOver(const engine::State& state) {
        const auto winners = state.winners();
        out_ << "\n";
        if (winners.empty()) return tell(0, Message("story.game-over-emissary"));
        std::vector<engine::MessageValue> who;
        for (const auto w : winners)
            who.push_back(
                say::message(Message("story.winner", {{"player", playerValue(w.index)},
                                                      {"points", say::number(state.totals()[w.index])}})));
        tell(0, Message("story.game-over", {{"count", say::number(static_cast<std::int64_t>(winners.size()))},
                                            {"winners", say::list(std::move(who))}}));
    }

    const GameSummary& game_;
    const words::Words& words_;
    std::ostream& out_;
    std::optional<std::set<int>> withheld_;
    bool votesCast_;
    int round_ = 0;
    std::vector<engine::MessageValue> unrevealed_;  // "Ann Yes", since the election opened
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

GameSummary knownGame(GameStore& log, GameId id) {
    auto game = log.game(id);
    if (!game)
        throw StoreError(log.file(),
                         "holds no game " + std::to_string(id.value) + "; 'vivaref games' lists them");
    return *game;
}

// As the pages decide (server/game_archive.cpp).
bool stillPlayed(const GameSummary& g) { return !g.ended && !g.complete && !g.abandoned; }

// "Edition 2024, 4 seats, 3 rounds, Ambition and Banished."
Message setupMessage(const engine::Rules& rules) {
    std::vector<engine::MessageValue> options;
    if (rules.options().ambition) options.push_back(say::message(Message("story.option-ambition")));
    if (rules.options().banished) options.push_back(say::message(Message("story.option-banished")));
    switch (rules.variant()) {
        case engine::Variant::None:
            break;
        case engine::Variant::Emissary:
            options.push_back(say::message(Message("story.option-emissary")));
            break;
        case engine::Variant::RoyalCouple:
            options.push_back(say::message(Message("story.option-royal-couple")));
            break;
        case engine::Variant::Teams:
            options.push_back(say::message(Message("story.option-teams")));
            break;
        case engine::Variant::TeamPawn:
            options.push_back(say::message(Message("story.option-team-pawn")));
            break;
    }
    Message m(options.empty() ? "story.setup" : "story.setup-options",
              {{"edition", say::text(std::string(engine::editionName(rules.edition())))},
               {"seats", say::number(rules.seats())},
               {"rounds", say::number(rules.rounds())}});
    if (!options.empty()) m.args.push_back({"options", say::list(std::move(options))});
    return m;
}

}  // namespace

void writeStory(GameStore& log, GameId id, std::ostream& out, const words::Words& words,
                bool revealInProgress) {
    const auto summary = knownGame(log, id);
    const auto* game = &summary;
    const auto events = log.events(id);
    int undos = 0;
    for (const auto& e : events) undos += e.kind == "undo";
    const auto lines = log.recordLines(id);
    // A game still being played keeps its secrets (game_story.hpp).
    const bool playing = stillPlayed(summary);
    const bool withhold = playing && !revealInProgress;
    // A game's number and a seed are names, not quantities: never "1,024".
    const auto gameNumber = say::text(std::to_string(id.value));

    Storyteller teller(*game, words, out, withhold ? std::optional(unscoredRounds(lines)) : std::nullopt,
                       playing && revealInProgress);
    if (game->ended)
        teller.tell(0, Message("story.game-ended", {{"game", gameNumber},
                                                    {"started", say::text(localTimeText(game->started))},
                                                    {"ended", say::text(localTimeText(*game->ended))}}));
    else
        teller.tell(0, Message("story.game",
                               {{"game", gameNumber}, {"started", say::text(localTimeText(game->started))}}));
    if (withhold)
        teller.tell(
            0, Message("story.withheld",
                       {{"command", say::text("'vivaref show --reveal " + std::to_string(id.value) + "'")}}));
    auto walk = record::replayLines(
        lines, {.after = [&](const record::ReplayStep& s) {
            if (!s.decision) {
                const auto& rules = s.state.rules();
                teller.tell(0, setupMessage(rules));
                std::vector<engine::MessageValue> seats;
                for (int seat = 0; seat < rules.seats(); ++seat) {
                    const engine::Seat at{static_cast<std::uint8_t>(seat)};
                    seats.push_back(say::message(Message(
                        "story.seat", {{"seat", say::seat(at)}, {"who", teller.seatValue(rules, at)}})));
                }
                teller.tell(0, Message("story.seats", {{"seats", say::list(std::move(seats))}}));
                if (game->seed && !withhold)
                    teller.tell(0, Message("story.seed", {{"seed", say::text(std::to_string(*game->seed))}}));
                if (undos) teller.tell(0, Message("story.undos", {{"count", say::number(undos)}}));
                return true;
            }
            teller.step(s);
            return true;
        }});
    teller.finish();
    if (walk.failure) {
        out << "\n";
        teller.tell(
            0, Message("story.refused",
                       {{"line", say::number(walk.failure->line)},
                        {"code", say::text(std::string(engine::refusalCodeName(walk.failure->refusal.code)))},
                        {"why", say::message(walk.failure->refusal.message)},
                        {"command", say::text("'vivaref verify " + std::to_string(id.value) + "'")}}));
    } else if (game->abandoned) {
        out << "\n";
        teller.tell(0, Message("story.abandoned"));
    } else if (walk.state && !walk.state->isOver()) {
        out << "\n";
        teller.tell(0, Message(game->ended ? "story.stops-incomplete" : "story.stops-in-progress"));
    }
}

void writeStory(GameStore& log, GameId id, std::ostream& out, bool revealInProgress) {
    writeStory(log, id, out, words::Words(words::kFallbackLanguage, words::NameMarks::Plain),
               revealInProgress);
}

bool inProgress(GameStore& log, GameId id) { return stillPlayed(knownGame(log, id)); }

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
