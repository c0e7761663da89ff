// `vivaref check-config` and `vivaref serve` start here: a castle
// configuration read and checked as a whole, without touching any hardware.
// Every problem is reported (not only the first), each naming the file, the
// line, the key and the reason; the caller decides what to do with them.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "daemon/config/castle_config.hpp"
#include "daemon/config/config_problem.hpp"

namespace vivaref::config {

struct ConfigCheck {
    enum class Status {
        Valid,
        Problems,    // the file was read; `problems` says what is wrong
        Unreadable,  // missing, a directory, no permission: `problems` holds the one reason
    };
    Status status = Status::Valid;
    CastleConfig config;      // what the file says, as far as it could be read
    ConfigProblems problems;  // in line order; problems of the whole file last
};

// A file larger than this is not a castle configuration (the full 2024
// example is about 20 kB).
inline constexpr std::uintmax_t kMaxConfigBytes = 1 << 20;

// The file variant also reads the simulated castle's bench the file names
// (`[daemon] sim_bench`), and reports its problems after the file's; the
// text variant touches no file.
ConfigCheck checkCastleConfigFile(const std::filesystem::path& file);
ConfigCheck checkCastleConfigText(std::string_view text, const std::string& fileName);

// The checks that need the whole castle: every place with a reader, no GPIO
// line used twice, no two readers on one bus and chip select, stations
// numbered from 0 without gaps, knobs that agree with each other.
void checkCastle(const CastleConfig& config, ConfigProblems& problems);

// What start-up throws for a configuration that cannot be used: every problem, one a line.
class ConfigError : public std::runtime_error {
public:
    explicit ConfigError(const ConfigCheck& check);
    const ConfigProblems& problems() const { return problems_; }

private:
    ConfigProblems problems_;
};

// The castle FILE describes; throws ConfigError when it has any problem.
CastleConfig loadCastleConfig(const std::filesystem::path& file);

}  // namespace vivaref::config
