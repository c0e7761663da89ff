// A PostgreSQL server of the tests' own: Debian's initdb and pg_ctl
// (/usr/lib/postgresql/15/bin) make a cluster in a scratch directory that
// listens only on a unix socket in that directory (no TCP port to collide
// with), with password (SCRAM) authentication, so the roles' passwords are
// really checked. Run as root, the server runs as the `postgres` user
// (through runuser) and owns the directory. The destructor stops it
// (immediate) and removes the directory. One per test binary: a start costs
// about a second.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace vivaref::testsupport {

// The server's settings where a caller needs other than the tests' defaults
// (the scale bench: more connections, durable writes, a bigger cache).
struct ScratchPostgresSettings {
    int maxConnections = 40;
    bool fsync = false;         // off: the tests' data need not survive a crash
    std::string sharedBuffers;  // e.g. "256MB"; empty: the server's default
};

class ScratchPostgres {
public:
    // Starts a server; nothing, and `whyNot` says why (no initdb, no
    // postgres user), when this machine cannot.
    static std::unique_ptr<ScratchPostgres> start(std::string& whyNot);
    static std::unique_ptr<ScratchPostgres> start(std::string& whyNot,
                                                  const ScratchPostgresSettings& settings);
    ~ScratchPostgres();
    ScratchPostgres(const ScratchPostgres&) = delete;
    ScratchPostgres& operator=(const ScratchPostgres&) = delete;

    // A libpq conninfo for `user` on `database` (the superuser: postgres).
    std::string conninfo(const std::string& database, const std::string& user,
                         const std::string& password) const;
    std::string superConninfo(const std::string& database) const {
        return conninfo(database, "postgres", superPassword());
    }
    static std::string superPassword() { return "scratch-super"; }
    const std::filesystem::path& directory() const { return dir_; }

    // pg_ctl stop (mode: fast or immediate) and start again; true when done.
    bool stop(const std::string& mode);
    bool startAgain();

private:
    explicit ScratchPostgres(std::filesystem::path dir) : dir_(std::move(dir)) {}
    bool pgCtl(const std::vector<std::string>& args, std::string* output = nullptr) const;

    std::filesystem::path dir_;
    ScratchPostgresSettings settings_;
    bool running_ = false;
};

}  // namespace vivaref::testsupport
