// The host's secret when the configuration names no host_token: made once,
// at the first start, from the kernel's randomness (randomToken()), and kept
// in the state directory as `host-secret` (mode 0600, one line of 64 hex
// digits). Every later start reads the same file, so the host's link stays
// valid across restarts and upgrades. `vivaref serve` prints the host's link
// with it; `vivaref host-link` prints it again on the machine; deleting the
// file makes a new one at the next start (every host device must then be
// given the new link).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace vivaref::server {

inline constexpr std::string_view kHostSecretFile = "host-secret";

struct HostSecret {
    std::string token;
    std::filesystem::path file;
    bool created = false;  // made by this call (the first start)
    // Said when the file was readable by others and was made private again.
    std::string warning;
};

// The secret in `directory` (created if missing), made now if the file does
// not exist. Throws std::runtime_error naming the file and the reason when
// it cannot be read, written, or does not hold a secret.
HostSecret loadOrCreateHostSecret(const std::filesystem::path& directory);

// The secret already in `directory`, or nullopt with `why` said (no such
// file, not readable: e.g. not run as the service's user).
std::optional<std::string> readHostSecret(const std::filesystem::path& directory, std::string& why);

// The directory the secret lives in, the same rule as the tag registry's:
// the configuration's state directory, else beside the game log.
std::filesystem::path hostSecretDirectory(const std::filesystem::path& configStateDirectory,
                                          const std::filesystem::path& database);

}  // namespace vivaref::server
