#include "daemon/server/archive_cache.hpp"

namespace vivaref::server {

std::shared_ptr<const std::string> ArchiveCache::find(std::int64_t id, const std::string& version) {
    const auto it = entries_.find(id);
    if (it == entries_.end() || it->second.version != version) {
        ++counters_.misses;
        return nullptr;
    }
    ++counters_.hits;
    recency_.splice(recency_.begin(), recency_, it->second.used);
    return it->second.text;
}

std::shared_ptr<const std::string> ArchiveCache::keep(std::int64_t id, std::string version,
                                                      std::string text) {
    auto shared = std::make_shared<const std::string>(std::move(text));
    if (auto old = entries_.find(id); old != entries_.end()) drop(old);
    if (shared->size() > maxBytes_) return shared;
    while (!entries_.empty() && bytes_ + shared->size() > maxBytes_) {
        drop(entries_.find(recency_.back()));
        ++counters_.dropped;
    }
    recency_.push_front(id);
    entries_.emplace(id, Entry{std::move(version), shared, recency_.begin()});
    bytes_ += shared->size();
    return shared;
}

void ArchiveCache::drop(std::map<std::int64_t, Entry>::iterator it) {
    bytes_ -= it->second.text->size();
    recency_.erase(it->second.used);
    entries_.erase(it);
}

}  // namespace vivaref::server
