#include "tests/store/random_game_writer.hpp"

#include <stdlib.h>

#include <stdexcept>

#include "engine/chance.hpp"
#include "engine/players/random_player.hpp"
#include "engine/record/line_writer.hpp"
#include "engine/record/record_replayer.hpp"
#include "engine/record/result_json.hpp"

namespace vivaref::store::testing {

ScratchDir::ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "vivaref-store.XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot make a scratch directory");
    path_ = pattern;
}

ScratchDir::~ScratchDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(path_, ec);
}

engine::RulesSpec randomSpec(std::uint64_t seed) {
    engine::Rng rng(seed * 7919 + 1);
    for (;;) {
        engine::RulesSpec spec;
        spec.edition = static_cast<engine::Edition>(rng.below(3));
        spec.seats = 2 + static_cast<int>(rng.below(7));
        if (spec.edition == engine::Edition::Vive2024) {
            spec.options.ambition = rng.below(2) == 0;
            spec.options.banished = rng.below(3) == 0;
            spec.variant = static_cast<engine::Variant>(rng.below(5));
            if (spec.variant == engine::Variant::Teams || spec.variant == engine::Variant::TeamPawn)
                for (int s = 0; s < spec.seats; ++s) spec.teams.push_back({2 * s, 2 * s + 1});
        }
        spec.first = static_cast<int>(rng.below(static_cast<std::uint32_t>(spec.seats)));
        if (!engine::Rules::validate(spec)) return spec;
    }
}

namespace {

class LogWriter {
public:
    LogWriter(GameStore& log, GameId id, const engine::Rules& rules,
              const std::function<bool(const WriteStatus&, GameId, std::int64_t)>& afterWrite,
              WrittenGame& game)
        : log_(log), id_(id), rules_(rules), afterWrite_(afterWrite), game_(game) {}
    bool drawn(const engine::State&, const engine::Decision& d) {
        game_.record.push_back(record::writeDecision(d, rules_));
        if (const auto* deal = std::get_if<engine::Deal>(&d))
            return after(log_.appendDeal(id_, *deal, now()));
        if (const auto* action = std::get_if<engine::Action>(&d))
            return after(log_.appendAction(id_, *action, now()));
        return after(log_.appendReshuffle(id_, std::get<engine::Reshuffle>(d), now()));
    }
    bool stopped = false;

private:
    WallTime now() { return WallTime(std::chrono::milliseconds(1'700'000'000'000 + 1000 * ++steps_)); }
    bool after(const WriteStatus& status) {
        if (afterWrite_ && !afterWrite_(status, id_, static_cast<std::int64_t>(game_.record.size())))
            stopped = true;
        return !stopped;
    }
    GameStore& log_;
    GameId id_;
    const engine::Rules& rules_;
    const std::function<bool(const WriteStatus&, GameId, std::int64_t)>& afterWrite_;
    WrittenGame& game_;
    std::int64_t steps_ = 0;
};

}  // namespace

WrittenGame writeRandomGame(GameStore& log, const engine::RulesSpec& spec, std::uint64_t seed,
                            const std::function<bool(const WriteStatus&, GameId, std::int64_t)>& afterWrite) {
    auto rules = std::make_shared<const engine::Rules>(spec);
    std::vector<std::string> names;
    for (int p = 0; p < rules->players(); ++p)
        names.push_back(std::string(1, static_cast<char>('A' + p)) + "nn");
    WrittenGame game;
    const WallTime start(std::chrono::milliseconds(1'700'000'000'000));
    game.id = log.createGame(NewGame{spec, names, seed, start, {}});
    game.record.push_back(record::writeSetup(spec));
    if (afterWrite && !afterWrite(WriteStatus{}, game.id, 1)) return game;
    engine::State state(rules);
    engine::Rng rng(seed);
    LogWriter writer(log, game.id, *rules, afterWrite, game);
    if (auto problem = engine::players::playRandomly(state, rng, writer)) throw std::runtime_error(*problem);
    if (writer.stopped) return game;
    game.result = record::resultJson(state);
    log.finishGame(game.id, game.result, start + std::chrono::hours(1));
    return game;
}

GameId writeRecordedGame(GameStore& log, const std::vector<std::string>& lines,
                         const std::vector<std::string>& names) {
    const WallTime start(std::chrono::milliseconds(1'700'000'000'000));
    std::optional<GameId> id;
    int steps = 0;
    auto at = [&] { return start + std::chrono::seconds(++steps); };
    auto walk = record::replayLines(
        lines, {.after = [&](const record::ReplayStep& s) {
            if (!s.decision) {
                std::vector<std::string> players = names;
                players.resize(static_cast<std::size_t>(s.state.rules().players()));
                id = log.createGame(NewGame{s.state.rules().spec(), players, std::nullopt, start, {}});
            } else if (const auto* deal = std::get_if<engine::Deal>(s.decision)) {
                log.appendDeal(*id, *deal, at());
            } else if (const auto* action = std::get_if<engine::Action>(s.decision)) {
                log.appendAction(*id, *action, at());
            } else {
                log.appendReshuffle(*id, std::get<engine::Reshuffle>(*s.decision), at());
            }
            return true;
        }});
    if (walk.failure || !walk.state || !id) throw std::runtime_error("the record does not replay");
    log.finishGame(*id, record::resultJson(*walk.state), at());
    return *id;
}

void fillTheLog(GameStore& log, GameId game) {
    log.limitPagesForTesting(1);
    for (const std::size_t size : {2000, 200, 20, 1}) {
        const std::string filler = "{\"f\":\"" + std::string(size, 'x') + "\"}";
        for (int i = 0; i < 5000; ++i)
            if (!log.appendRefereeEvent(game, "filler", filler, WallTime{}).durable) break;
    }
}

WrittenGame resumeRandomGame(GameStore& log, GameId id, std::uint64_t seed) {
    WrittenGame game;
    game.id = id;
    game.record = log.recordLines(id);
    auto walk = record::replayLines(game.record);
    if (walk.failure || !walk.state) throw std::runtime_error("the logged game does not replay");
    engine::State state = *walk.state;
    engine::Rng rng(seed);
    const std::function<bool(const WriteStatus&, GameId, std::int64_t)> none;
    LogWriter writer(log, id, state.rules(), none, game);
    if (auto problem = engine::players::playRandomly(state, rng, writer)) throw std::runtime_error(*problem);
    game.result = record::resultJson(state);
    log.finishGame(id, game.result, WallTime(std::chrono::milliseconds(1'800'000'000'000)));
    return game;
}

}  // namespace vivaref::store::testing
