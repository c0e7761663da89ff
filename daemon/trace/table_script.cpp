#include "daemon/trace/table_script.hpp"

#include <map>
#include <memory>

#include "daemon/words/words.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/record_replayer.hpp"
#include "engine/state.hpp"

namespace vivaref::trace {

using engine::Place;

std::optional<std::string> boardPlaceName(Place p) {
    if (p == Place::BesideThrone) return std::string(engine::placeName(Place::Throne));
    if (p == Place::Box || p == Place::Reserve || p == Place::Unknown) return std::nullopt;
    return std::string(engine::placeName(p));
}

namespace {

// Writes the script, keeping the clock and what stands where on the board.
class ScriptWriter {
public:
    explicit ScriptWriter(const TableScriptOptions& options)
        : timing_(options.timing), noise_(options.noise), random_(options.noise.seed), t_(options.start) {}

    std::vector<TraceLine> take() { return std::move(lines_); }

    void host(HostKind kind, nlohmann::json payload, std::vector<std::string> players = {}) {
        emit(HostLine{kind, std::move(payload), std::move(players)});
        t_ += timing_.hostGap;
    }

    void press(engine::Seat seat, engine::VoteCard card) {
        const auto key = card == engine::VoteCard::Yes  ? drivers::VoteKey::Yes
                         : card == engine::VoteCard::No ? drivers::VoteKey::No
                                                        : drivers::VoteKey::Stomachache;
        emit(ButtonLine{drivers::StationId{seat.index}, key});
        t_ += timing_.pressGap;
    }

    // The player's own action: a character put on, or moved to, `to`.
    void act(const std::string& slug, Place to) {
        auto name = boardPlaceName(to);
        if (board_.contains(slug)) {
            lift(slug);
            t_ += chance(noise_.slowHand) ? noise_.slowHandMs : timing_.liftToPut;
        }
        if (name) put(slug, *name);
        t_ += name ? timing_.settle : timing_.offBoard;
    }

    // The board must next match `state` (which must outlive the writer):
    // tidy() does it, before the next player action.
    void expect(const engine::State& state) {
        state_ = &state;
        tidyPending_ = true;
    }
    void clearFirst() { clearPending_ = true; }

    // Every tag where the state says, as the referee guides: those leaving
    // the board lifted first, then the moves, then the new ones.
    void tidy() {
        if (!tidyPending_ || !state_) return;
        tidyPending_ = false;
        if (clearPending_) {
            clearPending_ = false;
            std::vector<std::string> all;
            for (const auto& [slug, _] : board_) all.push_back(slug);
            liftAll(all);
        }
        const auto& roster = state_->rules().roster();
        std::vector<std::string> leaving;
        std::vector<std::pair<std::string, std::string>> moving, arriving;
        for (int c = 0; c < roster.size(); ++c) {
            const std::string& slug = roster[engine::CharacterId{static_cast<std::uint8_t>(c)}].id;
            auto want = boardPlaceName(state_->positions()[c]);
            auto at = board_.find(slug);
            if (at == board_.end()) {
                if (want) arriving.emplace_back(slug, *want);
            } else if (!want) {
                leaving.push_back(slug);
            } else if (at->second != *want) {
                moving.emplace_back(slug, *want);
            }
        }
        liftAll(leaving);
        for (const auto& [slug, place] : moving) {
            lift(slug);
            t_ += chance(noise_.slowHand) ? noise_.slowHandMs : timing_.liftToPut;
            put(slug, place);
            t_ += timing_.settle;
        }
        for (const auto& [slug, place] : arriving) {
            put(slug, place);
            t_ += timing_.liftGap;
        }
        if (!arriving.empty()) t_ += timing_.settle;
    }

private:
    void emit(TraceInput input) { lines_.push_back({t_, std::move(input)}); }
    // A tag landing on `place`, with the noise of a real hand around it.
    void put(const std::string& slug, const std::string& place) {
        if (chance(noise_.graze)) {
            emit(PutLine{{slug}, {otherPlace(place)}});
            t_ += noise_.grazeMs;
            emit(LiftLine{{slug}});
            t_ += noise_.hoverMs;
        }
        if (chance(noise_.hover)) {
            emit(PutLine{{slug}, {place}});
            t_ += noise_.hoverMs;
            emit(LiftLine{{slug}});
            t_ += noise_.hoverMs;
        }
        emit(PutLine{{slug}, {place}});
        if (chance(noise_.doubleTouch)) {
            t_ += noise_.touchMs;
            emit(LiftLine{{slug}});
            t_ += noise_.touchMs;
            emit(PutLine{{slug}, {place}});
        }
        board_[slug] = place;
    }
    bool chance(double probability) {
        if (!noise_.enabled() || probability <= 0) return false;
        return std::uniform_real_distribution<double>(0.0, 1.0)(random_) < probability;
    }
    // A place a hand brushes on its way: any other floor, the throne or a WC.
    std::string otherPlace(const std::string& place) {
        static const char* const kPlaces[] = {"0", "1", "2", "3", "4", "5", "6", "wc3", "wc4"};
        for (;;) {
            const std::string other = kPlaces[random_() % std::size(kPlaces)];
            if (other != place) return other;
        }
    }
    void lift(const std::string& slug) {
        emit(LiftLine{{slug}});
        board_.erase(slug);
    }
    void liftAll(const std::vector<std::string>& slugs) {
        for (const auto& slug : slugs) {
            lift(slug);
            t_ += timing_.liftGap;
        }
        if (!slugs.empty()) t_ += timing_.offBoard;
    }

    TableTiming timing_;
    TableNoise noise_;
    std::mt19937_64 random_;
    std::int64_t t_;
    std::vector<TraceLine> lines_;
    std::map<std::string, std::string> board_;  // slug -> place, as put so far
    const engine::State* state_ = nullptr;
    bool tidyPending_ = false;
    bool clearPending_ = false;
};

std::vector<std::string> playerNames(const TableScriptOptions& options, int players) {
    if (!options.players.empty()) return options.players;
    std::vector<std::string> names;
    for (int p = 1; p <= players; ++p) names.push_back("Player " + std::to_string(p));
    return names;
}

TableScript fail(int line, const engine::Refusal& refusal) {
    TableScript script;
    script.error = TableScriptError{line, std::string(engine::refusalCodeName(refusal.code)),
                                    words::inEnglish(refusal.message)};
    return script;
}

}  // namespace

TableScript tableScriptFromRecord(std::string_view text, const TableScriptOptions& options) {
    ScriptWriter writer(options);
    record::ReplayObserver observer;
    // The board first matches the state before an action (what the engine
    // moved itself is guided back first); an illegal line gives no input.
    observer.before = [&](int, const engine::Decision& decision, const engine::State&) {
        if (std::holds_alternative<engine::Action>(decision)) writer.tidy();
        return true;
    };
    observer.after = [&](const record::ReplayStep& step) {
        const engine::Rules& rules = step.state.rules();
        if (!step.decision) {
            writer.host(HostKind::NewGame, nlohmann::json::parse(record::setupJson(rules.spec()).dump()),
                        playerNames(options, rules.players()));
        } else if (const auto* deal = std::get_if<engine::Deal>(step.decision)) {
            writer.host(HostKind::Deal, nlohmann::json::parse(record::dealJson(*deal, rules).dump()));
            if (deal->round > 1) writer.clearFirst();
        } else if (const auto* reshuffle = std::get_if<engine::Reshuffle>(step.decision)) {
            nlohmann::json pile = nlohmann::json::array();
            for (auto card : reshuffle->pile) pile.push_back(engine::voteCardName(card));
            writer.host(HostKind::Reshuffle, {{"pile", pile}});
        } else {
            const auto& action = std::get<engine::Action>(*step.decision);
            switch (action.kind()) {
                case engine::ActionKind::Keep:
                    writer.host(HostKind::Keep,
                                nlohmann::json::parse(record::actionJson(action, rules).dump()));
                    break;
                case engine::ActionKind::Place:
                case engine::ActionKind::Move:
                    writer.act(rules.roster()[action.character()].id, action.to());
                    break;
                case engine::ActionKind::Vote:
                    writer.press(action.seat(), action.card());
                    break;
                case engine::ActionKind::Pass:
                    break;
            }
        }
        writer.expect(step.state);
        return true;
    };
    const auto replay = record::replayText(text, std::move(observer));
    if (replay.failure) return fail(replay.failure->line, replay.failure->refusal);
    writer.expect(*replay.state);  // the replayer's own state is gone
    writer.tidy();
    TableScript script;
    script.lines = writer.take();
    return script;
}

}  // namespace vivaref::trace
