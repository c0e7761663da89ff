// A PostgreSQL server of the tests' own: Debian's initdb and pg_ctl
// (/usr/lib/postgresql/15/bin) make a cluster in a scratch directory that
// listens only on a unix socket in that directory (no TCP port to collide
// with), with password (SCRAM) authentication, so the roles' passwords are
// really checked. Run as root, the server runs as the `postgres` user
// (through runuser) and owns the directory. The destructor stops it
// (immediate) and removes the directory. One per test binary: a start costs
// about a second.
//
// With ScratchPostgresSettings::tls it also listens on TCP 127.0.0.1 (a free
// port) with ssl=on: openssl makes, in the scratch directory, a CA and the
// server's certificate for localhost and 127.0.0.1 it signs (and a second
// CA that signed nothing, for the refusals); pg_hba.conf then takes TCP
// connections only over TLS (hostssl) and rejects plain ones (hostnossl).
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
    bool tls = false;           // also TCP 127.0.0.1 with TLS only (needs openssl)
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

    // With tls: a conninfo over TCP to 127.0.0.1 (`host`: localhost or
    // 127.0.0.1) on tcpPort() with these sslmode and sslrootcert (left out
    // when empty); the CA that signed the server's certificate, and one that
    // did not.
    std::string tlsConninfo(const std::string& host, const std::string& database, const std::string& user,
                            const std::string& password, const std::string& sslmode,
                            const std::filesystem::path& rootCert) const;
    int tcpPort() const { return tcpPort_; }
    std::filesystem::path caCertificate() const { return dir_ / "tls" / "ca.crt"; }
    std::filesystem::path wrongCaCertificate() const { return dir_ / "tls" / "wrong-ca.crt"; }

    // pg_ctl stop (mode: fast or immediate) and start again; true when done.
    bool stop(const std::string& mode);
    bool startAgain();

private:
    explicit ScratchPostgres(std::filesystem::path dir) : dir_(std::move(dir)) {}
    bool pgCtl(const std::vector<std::string>& args, std::string* output = nullptr) const;

    std::filesystem::path dir_;
    ScratchPostgresSettings settings_;
    bool running_ = false;
    int port_ = 5432;  // the unix socket's, and TCP's with tls
    int tcpPort_ = 0;  // 0: no TCP
};

}  // namespace vivaref::testsupport
