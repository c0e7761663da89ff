#include "tests/simulation/sim_helpers.hpp"

#include <stdlib.h>

#include <stdexcept>

#include <sqlite3.h>

#include "daemon/store/game_store.hpp"
#include "engine/players/random_player.hpp"
#include "engine/record/line_writer.hpp"

namespace vivaref::simtest {

namespace {

engine::RulesSpec spec(engine::Edition edition, int seats, engine::Variant variant = engine::Variant::None,
                       engine::Options options = {}) {
    engine::RulesSpec s;
    s.edition = edition;
    s.seats = seats;
    s.variant = variant;
    s.options = options;
    if (variant == engine::Variant::Teams || variant == engine::Variant::TeamPawn)
        for (int seat = 0; seat < seats; ++seat) s.teams.push_back({2 * seat, 2 * seat + 1});
    return s;
}

class RecordText {
public:
    explicit RecordText(const engine::Rules& rules) : rules_(rules) {}
    bool drawn(const engine::State&, const engine::Decision& d) {
        return line(record::writeDecision(d, rules_));
    }
    bool line(const std::string& text) {
        text_ += text + "\n";
        return true;
    }
    std::string take() { return std::move(text_); }

private:
    const engine::Rules& rules_;
    std::string text_;
};

}  // namespace

std::vector<GameFamily> gameFamilies() {
    using engine::Edition;
    using engine::Variant;
    return {
        {"classic-3", spec(Edition::Classic, 3)},
        {"classic-4", spec(Edition::Classic, 4)},
        {"classic-6", spec(Edition::Classic, 6)},
        {"online-4", spec(Edition::Online, 4)},
        {"2024-5", spec(Edition::Vive2024, 5)},
        {"2024-4-ambition-banished", spec(Edition::Vive2024, 4, Variant::None, {true, true})},
        {"2024-8", spec(Edition::Vive2024, 8)},
        {"2024-4-emissary", spec(Edition::Vive2024, 4, Variant::Emissary)},
        {"2024-4-emissary-banished", spec(Edition::Vive2024, 4, Variant::Emissary, {false, true})},
        {"2024-4-royal-couple-ambition", spec(Edition::Vive2024, 4, Variant::RoyalCouple, {true, false})},
        {"2024-3-teams", spec(Edition::Vive2024, 3, Variant::Teams)},
        {"2024-3-team-pawn", spec(Edition::Vive2024, 3, Variant::TeamPawn)},
    };
}

std::string randomRecord(const engine::RulesSpec& s, std::uint64_t seed) {
    if (auto bad = engine::Rules::validate(s))
        throw std::invalid_argument(::vivaref::engine::describe(bad->message));
    auto rules = std::make_shared<const engine::Rules>(s);
    engine::State state(rules);
    engine::Rng rng(seed);
    RecordText text(*rules);
    text.line(record::writeSetup(s));
    if (auto problem = engine::players::playRandomly(state, rng, text)) throw std::runtime_error(*problem);
    return text.take();
}

TempDir::TempDir(const std::filesystem::path& parent) {
    const auto base = parent.empty() ? std::filesystem::temp_directory_path() : parent;
    std::string pattern = (base / "vivaref-sim-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot make a temporary folder");
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

std::string dumpDatabase(const std::filesystem::path& file, bool blankWallTimes) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        throw std::runtime_error("cannot open " + file.string());
    }
    auto query = [db](const std::string& sql, auto&& row) {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
            throw std::runtime_error(std::string("dump: ") + sqlite3_errmsg(db));
        while (sqlite3_step(s) == SQLITE_ROW) row(s);
        sqlite3_finalize(s);
    };
    std::vector<std::string> tables;
    query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", [&](sqlite3_stmt* s) {
        tables.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)));
    });
    std::string out;
    for (const auto& table : tables) {
        out += "[" + table + "]\n";
        query("SELECT * FROM \"" + table + "\" ORDER BY 1, 2", [&](sqlite3_stmt* s) {
            for (int c = 0; c < sqlite3_column_count(s); ++c) {
                const std::string column = sqlite3_column_name(s, c);
                const bool wall = column == "started_ms" || column == "ended_ms" || column == "at_ms" ||
                                  column == "last_fault_ms";
                if (blankWallTimes && wall) continue;
                // A game's uid is 128 random bits by design (schema 3): never the same twice.
                if (column == "uid") continue;
                const auto* text = sqlite3_column_text(s, c);
                out += column + "=" + (text ? reinterpret_cast<const char*>(text) : "NULL") + " ";
            }
            out += "\n";
        });
    }
    sqlite3_close(db);
    return out;
}

nlohmann::ordered_json simulateInto(const std::string& traceText, const std::filesystem::path& db,
                                    std::int64_t epochMs, std::uint64_t seed) {
    simulation::RigOptions options;
    options.referee.seed = seed;
    options.referee.wallAtZero = store::WallTime(std::chrono::milliseconds(epochMs));
    store::GameStore log(db, store::GameStore::Access::CreateIfMissing, store::Durability::Normal);
    auto outcome = simulation::simulateTrace(traceText, options, &log);
    if (outcome.error) throw std::runtime_error("the trace is malformed: " + outcome.error->describe());
    return outcome.summary;
}

std::string eventDifference(store::GameStore& a, store::GameStore& b, store::GameId game) {
    const auto left = a.events(game);
    const auto right = b.events(game);
    if (left.size() != right.size())
        return std::to_string(left.size()) + " events against " + std::to_string(right.size());
    for (std::size_t i = 0; i < left.size(); ++i) {
        if (left[i].kind != right[i].kind || left[i].at != right[i].at || left[i].payload != right[i].payload)
            return "event " + std::to_string(i) + ": " + left[i].kind + " " + left[i].payload + " against " +
                   right[i].kind + " " + right[i].payload + " (" +
                   std::to_string((left[i].at - right[i].at).count()) + " ms apart)";
    }
    return {};
}

std::string storedTrace(store::GameStore& log, store::GameId game) {
    std::string text;
    for (const auto& line : log.traceLines(game)) text += line + "\n";
    return text;
}

}  // namespace vivaref::simtest
