#include "tests/support/scratch_postgres.hpp"

#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "tests/support/child_process.hpp"

namespace vivaref::testsupport {

namespace {

const std::filesystem::path kBin = "/usr/lib/postgresql/15/bin";
const std::filesystem::path kRunuser = "/usr/sbin/runuser";
const std::filesystem::path kOpenssl = "/usr/bin/openssl";

// The command as the server's user: through runuser when we are root.
std::vector<std::string> asServerUser(std::vector<std::string> argv) {
    if (::geteuid() != 0) return argv;
    std::vector<std::string> out = {"-u", "postgres", "--"};
    out.insert(out.end(), argv.begin(), argv.end());
    return out;
}

bool run(const std::vector<std::string>& argv, std::string* output) {
    const auto args = asServerUser(argv);
    const std::string binary = ::geteuid() == 0 ? kRunuser.string() : args.front();
    std::vector<std::string> rest(args.begin() + (::geteuid() == 0 ? 0 : 1), args.end());
    const auto r = runCommand(binary, rest, std::chrono::seconds(60), CommandOptions{});
    if (output) *output = r.out;
    return r.status == 0;
}

// A TCP port on 127.0.0.1 nobody listens on now (the kernel's pick; the
// server takes it a moment later).
int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return 0;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

bool openssl(const std::vector<std::string>& args, const std::filesystem::path& dir, std::string& whyNot) {
    const auto r = runCommand(kOpenssl.string(), args, std::chrono::seconds(60),
                              CommandOptions{{}, {}, dir / "openssl.log"});
    if (r.status != 0)
        whyNot = "openssl " + args.front() + " failed (" + (dir / "openssl.log").string() + ")";
    return r.status == 0;
}

// The club's CA, the server's key and certificate for localhost and
// 127.0.0.1 signed by it, and a CA that signed nothing: EC keys (quick to
// make), valid two days.
bool makeCertificates(const std::filesystem::path& dir, std::string& whyNot) {
    std::filesystem::create_directories(dir);
    const std::vector<std::string> ec = {"-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                         "-nodes"};
    auto ca = [&](const std::string& name, const std::string& cn) {
        std::vector<std::string> a = {"req", "-x509"};
        a.insert(a.end(), ec.begin(), ec.end());
        a.insert(a.end(), {"-keyout", (dir / (name + ".key")).string(), "-out",
                           (dir / (name + ".crt")).string(), "-days", "2", "-subj", "/CN=" + cn});
        return openssl(a, dir, whyNot);
    };
    if (!ca("ca", "vivaref scratch club CA") || !ca("wrong-ca", "vivaref another CA")) return false;
    std::vector<std::string> req = {"req"};
    req.insert(req.end(), ec.begin(), ec.end());
    req.insert(req.end(), {"-keyout", (dir / "server.key").string(), "-out", (dir / "server.csr").string(),
                           "-subj", "/CN=localhost"});
    if (!openssl(req, dir, whyNot)) return false;
    {
        std::ofstream ext(dir / "server.ext");
        ext << "subjectAltName = DNS:localhost, IP:127.0.0.1\n";
    }
    return openssl({"x509", "-req", "-in", (dir / "server.csr").string(), "-CA", (dir / "ca.crt").string(),
                    "-CAkey", (dir / "ca.key").string(), "-CAcreateserial", "-days", "2", "-extfile",
                    (dir / "server.ext").string(), "-out", (dir / "server.crt").string()},
                   dir, whyNot);
}

}  // namespace

std::unique_ptr<ScratchPostgres> ScratchPostgres::start(std::string& whyNot) {
    return start(whyNot, ScratchPostgresSettings{});
}

std::unique_ptr<ScratchPostgres> ScratchPostgres::start(std::string& whyNot,
                                                        const ScratchPostgresSettings& settings) {
    if (settings.tls && !std::filesystem::exists(kOpenssl)) {
        whyNot = "no " + kOpenssl.string() + " to make the TLS certificates: apt install openssl";
        return nullptr;
    }
    if (!std::filesystem::exists(kBin / "initdb") || !std::filesystem::exists(kBin / "pg_ctl")) {
        whyNot = "no PostgreSQL 15 server here (" + (kBin / "initdb").string() + "): apt install postgresql";
        return nullptr;
    }
    const passwd* user = nullptr;
    if (::geteuid() == 0) {
        user = ::getpwnam("postgres");
        if (!user) {
            whyNot = "running as root and there is no 'postgres' user to run the server as";
            return nullptr;
        }
        if (!std::filesystem::exists(kRunuser)) {
            whyNot = "running as root and there is no " + kRunuser.string();
            return nullptr;
        }
    }
    std::string pattern = (std::filesystem::temp_directory_path() / "vivaref-pg-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
        whyNot = "cannot make a scratch directory in " + std::filesystem::temp_directory_path().string();
        return nullptr;
    }
    std::unique_ptr<ScratchPostgres> pg(new ScratchPostgres(pattern));
    pg->settings_ = settings;
    {
        std::ofstream pw(pg->dir_ / "pw");
        pw << superPassword() << "\n";
    }
    if (user && (::chown(pattern.c_str(), user->pw_uid, user->pw_gid) != 0 ||
                 ::chown((pg->dir_ / "pw").c_str(), user->pw_uid, user->pw_gid) != 0)) {
        whyNot = "cannot give " + pattern + " to the postgres user";
        return nullptr;
    }
    std::string out;
    if (!run({(kBin / "initdb").string(), "-D", (pg->dir_ / "data").string(), "-U", "postgres", "-E", "UTF8",
              "--no-sync", "--auth=scram-sha-256", "--pwfile=" + (pg->dir_ / "pw").string()},
             &out)) {
        whyNot = "initdb failed in " + pattern;
        return nullptr;
    }
    if (settings.tls) {
        const auto tls = pg->dir_ / "tls";
        if (!makeCertificates(tls, whyNot)) return nullptr;
        // The server refuses a key others may read; as root, it must be the server's.
        std::filesystem::permissions(
            tls / "server.key", std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
        if (user && (::chown(tls.c_str(), user->pw_uid, user->pw_gid) != 0 ||
                     ::chown((tls / "server.key").c_str(), user->pw_uid, user->pw_gid) != 0)) {
            whyNot = "cannot give " + (tls / "server.key").string() + " to the postgres user";
            return nullptr;
        }
        // The unix socket as before; TCP from 127.0.0.1 only over TLS.
        std::ofstream hba(pg->dir_ / "data" / "pg_hba.conf", std::ios::trunc);
        hba << "local all all scram-sha-256\n"
               "hostssl all all 127.0.0.1/32 scram-sha-256\n"
               "hostnossl all all 127.0.0.1/32 reject\n";
        if (!hba) {
            whyNot = "cannot write " + (pg->dir_ / "data" / "pg_hba.conf").string();
            return nullptr;
        }
        pg->tcpPort_ = freePort();
        if (pg->tcpPort_ == 0) {
            whyNot = "no free TCP port on 127.0.0.1";
            return nullptr;
        }
        pg->port_ = pg->tcpPort_;
    }
    if (!pg->startAgain()) {
        whyNot = "pg_ctl could not start the server (log: " + (pg->dir_ / "log").string() + ")";
        return nullptr;
    }
    return pg;
}

ScratchPostgres::~ScratchPostgres() {
    if (running_) stop("immediate");
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

bool ScratchPostgres::pgCtl(const std::vector<std::string>& args, std::string* output) const {
    std::vector<std::string> argv = {(kBin / "pg_ctl").string(), "-D", (dir_ / "data").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv, output);
}

bool ScratchPostgres::stop(const std::string& mode) {
    const bool ok = pgCtl({"-m", mode, "-w", "-t", "30", "stop"});
    if (ok) running_ = false;
    return ok;
}

bool ScratchPostgres::startAgain() {
    const auto durable = settings_.fsync ? "on" : "off";
    std::string options = "-c unix_socket_directories='" + dir_.string() +
                          "' -c port=" + std::to_string(port_) + " -c fsync=" + durable +
                          " -c full_page_writes=" + durable +
                          " -c max_connections=" + std::to_string(settings_.maxConnections);
    if (!settings_.sharedBuffers.empty()) options += " -c shared_buffers=" + settings_.sharedBuffers;
    if (tcpPort_ == 0)
        options += " -c listen_addresses=''";
    else
        options += " -c listen_addresses=127.0.0.1 -c ssl=on -c ssl_cert_file='" +
                   (dir_ / "tls" / "server.crt").string() + "' -c ssl_key_file='" +
                   (dir_ / "tls" / "server.key").string() + "'";
    running_ = pgCtl({"-l", (dir_ / "log").string(), "-w", "-t", "30", "-o", options, "start"});
    return running_;
}

std::string ScratchPostgres::conninfo(const std::string& database, const std::string& user,
                                      const std::string& password) const {
    return "host=" + dir_.string() + " port=" + std::to_string(port_) + " dbname=" + database +
           " user=" + user + " password=" + password;
}

std::string ScratchPostgres::tlsConninfo(const std::string& host, const std::string& database,
                                         const std::string& user, const std::string& password,
                                         const std::string& sslmode,
                                         const std::filesystem::path& rootCert) const {
    std::string info = "host=" + host + " port=" + std::to_string(tcpPort_) + " dbname=" + database +
                       " user=" + user + " password=" + password + " sslmode=" + sslmode;
    if (!rootCert.empty()) info += " sslrootcert=" + rootCert.string();
    return info;
}

}  // namespace vivaref::testsupport
