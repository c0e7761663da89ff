#include "daemon/config/castle_config.hpp"

#include <cstdlib>

#include "drivers/sensing/board_layout.hpp"

namespace vivaref::config {

std::string_view castleEditionName(CastleEdition edition) {
    return edition == CastleEdition::Vive2024 ? "2024" : "classic";
}

std::string_view hardwareName(Hardware hardware) { return hardware == Hardware::Real ? "real" : "sim"; }

std::string_view readerTypeName(ReaderType type) {
    switch (type) {
        case ReaderType::Mfrc522:
            return "mfrc522";
        case ReaderType::Pn532:
            return "pn532";
        case ReaderType::Sim:
            return "sim";
    }
    return "?";
}

std::string_view biasName(Bias bias) {
    switch (bias) {
        case Bias::AsIs:
            return "as-is";
        case Bias::PullUp:
            return "pull-up";
        case Bias::PullDown:
            return "pull-down";
        case Bias::Disabled:
            return "disabled";
    }
    return "?";
}

std::string_view fieldRuleName(FieldRule rule) {
    switch (rule) {
        case FieldRule::OneAtATime:
            return "one-at-a-time";
        case FieldRule::AdjacentLevels:
            return "adjacent-levels";
        case FieldRule::SameOrAdjacentLevels:
            return "same-or-adjacent-levels";
    }
    return "?";
}

std::optional<int> placeLevel(std::string_view place) {
    if (place.size() == 1 && place[0] >= '0' && place[0] <= '6') return place[0] - '0';
    if (place == "wc3") return 3;
    if (place == "wc4") return 4;
    if (place.starts_with("dungeon")) return -1;
    return std::nullopt;
}

std::string GpioLine::text() const { return chip + ":" + std::to_string(line); }

std::vector<std::string> castlePlaces(CastleEdition edition) {
    std::vector<std::string> places = {"0", "1", "2", "3", "4", "5", "6"};
    if (edition == CastleEdition::Vive2024) {
        for (const char* p : {"wc3", "wc4", "dungeon1", "dungeon2", "dungeon3"}) places.emplace_back(p);
    }
    return places;
}

int CastleConfig::lineOf(const std::string& key) const {
    auto it = keyLines.find(key);
    return it == keyLines.end() ? 0 : it->second;
}

drivers::BoardLayout CastleConfig::layout() const {
    if (readers.empty()) return drivers::standardBoardLayout();
    drivers::BoardLayout board;
    for (const auto& r : readers)
        if (!r.place.empty()) board.addReader({r.name}, {r.place});  // no place: a problem the check reported
    return board;
}

drivers::FieldCoupling CastleConfig::fieldCoupling(const drivers::BoardLayout& board) const {
    if (fieldRule == FieldRule::OneAtATime) return drivers::FieldCoupling::oneAtATime(board.readerCount());
    std::vector<std::optional<int>> levels;
    for (drivers::ReaderIndex r = 0; r < board.readerCount(); ++r)
        levels.push_back(placeLevel(board.place(board.placeOf(r)).name));
    drivers::FieldCoupling coupling = drivers::couplingByLevel(
        levels, fieldRule == FieldRule::AdjacentLevels ? drivers::LevelCoupling::AdjacentLevels
                                                       : drivers::LevelCoupling::SameOrAdjacentLevels);
    for (const auto& r : readers) {
        const auto self = board.findReader({r.name});
        for (const auto& name : r.neighbours) {
            const auto other = board.findReader({name});
            if (self && other && *self != *other) coupling.couple(*self, *other);
        }
    }
    return coupling;
}

std::filesystem::path CastleConfig::databasePath() const {
    if (daemon.database.is_absolute()) return daemon.database;
    return daemon.stateDirectory / daemon.database;
}

std::filesystem::path CastleConfig::tagRegistryPath() const { return daemon.stateDirectory / "tags.json"; }

std::filesystem::path defaultStateDirectory() {
    if (const char* dir = std::getenv("STATE_DIRECTORY"); dir && *dir) return dir;
    if (const char* dir = std::getenv("XDG_STATE_HOME"); dir && *dir)
        return std::filesystem::path(dir) / "vivaref";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".local/state/vivaref";
    return "/var/lib/vivaref";
}

std::filesystem::path defaultDatabasePath() {
    if (const char* db = std::getenv("VIVAREF_DB"); db && *db) return db;
    return defaultStateDirectory() / kDefaultDatabaseName;
}

}  // namespace vivaref::config
