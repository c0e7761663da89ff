// The answers of GET /api/games/ID, kept as JSON text. Building one replays
// the whole game through the engine (a few ms and ~250 KB for a full game);
// a finished game never changes, so its answer is built once and then costs
// a lookup. Each entry is kept with the game's version (what would change
// if the log's row changed: its end, its status, its result); an entry of
// another version is built again. The oldest-used entries go first when the
// cache holds more than its budget.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <string>

namespace vivaref::server {

struct ArchiveCacheCounters {
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::uint64_t dropped = 0;  // entries let go for the budget
};

class ArchiveCache {
public:
    explicit ArchiveCache(std::size_t maxBytes = 16u << 20) : maxBytes_(maxBytes) {}

    // The text kept for game `id` at `version`, or null (none, or another version).
    std::shared_ptr<const std::string> find(std::int64_t id, const std::string& version);
    // Keeps `text` as game `id`'s answer at `version` (a text larger than
    // the whole budget is not kept) and hands it back.
    std::shared_ptr<const std::string> keep(std::int64_t id, std::string version, std::string text);

    std::size_t bytes() const { return bytes_; }
    std::size_t size() const { return entries_.size(); }
    const ArchiveCacheCounters& counters() const { return counters_; }

private:
    struct Entry {
        std::string version;
        std::shared_ptr<const std::string> text;
        std::list<std::int64_t>::iterator used;
    };
    void drop(std::map<std::int64_t, Entry>::iterator it);

    std::size_t maxBytes_;
    std::size_t bytes_ = 0;
    std::map<std::int64_t, Entry> entries_;
    std::list<std::int64_t> recency_;  // most recently used first
    ArchiveCacheCounters counters_;
};

}  // namespace vivaref::server
