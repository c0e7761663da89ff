#include "daemon/trace/table_script.hpp"

#include <map>
#include <memory>

#include "engine/record/line_reader.hpp"
#include "engine/record/line_writer.hpp"
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
    script.error =
        TableScriptError{line, std::string(engine::refusalCodeName(refusal.code)), refusal.message};
    return script;
}

}  // namespace

TableScript tableScriptFromRecord(std::string_view text, const TableScriptOptions& options) {
    ScriptWriter writer(options);
    std::optional<engine::State> game;
    int lineNumber = 0;
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view lineText = text.substr(0, end);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        ++lineNumber;
        if (record::isBlankLine(lineText)) continue;

        record::LineRead read = record::readLine(lineText, game ? &game->rules() : nullptr);
        if (read.refusal) return fail(lineNumber, *read.refusal);
        std::optional<engine::Refusal> refusal;
        if (auto* spec = std::get_if<engine::RulesSpec>(&*read.line)) {
            if (game)
                return fail(lineNumber, {engine::RefusalCode::WrongPhase,
                                         "The game is already set up: a record has one setup line."});
            if (auto bad = engine::Rules::validate(*spec)) return fail(lineNumber, *bad);
            game.emplace(std::make_shared<const engine::Rules>(*spec));
            writer.host(HostKind::NewGame, nlohmann::json::parse(record::setupJson(*spec).dump()),
                        playerNames(options, game->rules().players()));
        } else if (!game) {
            return fail(lineNumber,
                        {engine::RefusalCode::BadRecord, "The record does not start with its setup."});
        } else if (auto* deal = std::get_if<engine::Deal>(&*read.line)) {
            const bool laterRound = game->round() > 1;
            if ((refusal = game->apply(*deal))) return fail(lineNumber, *refusal);
            writer.host(HostKind::Deal, nlohmann::json::parse(record::dealJson(*deal, game->rules()).dump()));
            if (laterRound) writer.clearFirst();
        } else if (auto* reshuffle = std::get_if<engine::Reshuffle>(&*read.line)) {
            if ((refusal = game->apply(*reshuffle))) return fail(lineNumber, *refusal);
            nlohmann::json pile = nlohmann::json::array();
            for (auto card : reshuffle->pile) pile.push_back(engine::voteCardName(card));
            writer.host(HostKind::Reshuffle, {{"pile", pile}});
        } else {
            const auto& action = std::get<engine::Action>(*read.line);
            const engine::Rules& rules = game->rules();
            // The board first matches the state before the action (what the
            // engine moved itself is guided back first); an illegal line gives no input.
            writer.tidy();
            if ((refusal = game->apply(action))) return fail(lineNumber, *refusal);
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
        writer.expect(*game);
    }
    if (!game) return fail(lineNumber + 1, {engine::RefusalCode::BadRecord, "The record has no setup line."});
    writer.tidy();
    TableScript script;
    script.lines = writer.take();
    return script;
}

}  // namespace vivaref::trace
