// What the game log throws when it cannot be used at all: a sentence naming
// the file, what is wrong and what to do.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace vivaref::store {

class StoreError : public std::runtime_error {
public:
    StoreError(const std::filesystem::path& file, const std::string& problem)
        : std::runtime_error("the game log '" + file.string() + "' " + problem), file_(file) {}
    const std::filesystem::path& file() const { return file_; }

private:
    std::filesystem::path file_;
};

}  // namespace vivaref::store
