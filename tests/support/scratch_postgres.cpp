#include "tests/support/scratch_postgres.hpp"

#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <vector>

#include "tests/support/child_process.hpp"

namespace vivaref::testsupport {

namespace {

const std::filesystem::path kBin = "/usr/lib/postgresql/15/bin";
const std::filesystem::path kRunuser = "/usr/sbin/runuser";

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

}  // namespace

std::unique_ptr<ScratchPostgres> ScratchPostgres::start(std::string& whyNot) {
    return start(whyNot, ScratchPostgresSettings{});
}

std::unique_ptr<ScratchPostgres> ScratchPostgres::start(std::string& whyNot,
                                                        const ScratchPostgresSettings& settings) {
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
    std::string options = "-c listen_addresses='' -c unix_socket_directories='" + dir_.string() +
                          "' -c port=5432 -c fsync=" + durable + " -c full_page_writes=" + durable +
                          " -c max_connections=" + std::to_string(settings_.maxConnections);
    if (!settings_.sharedBuffers.empty()) options += " -c shared_buffers=" + settings_.sharedBuffers;
    running_ = pgCtl({"-l", (dir_ / "log").string(), "-w", "-t", "30", "-o", options, "start"});
    return running_;
}

std::string ScratchPostgres::conninfo(const std::string& database, const std::string& user,
                                      const std::string& password) const {
    return "host=" + dir_.string() + " port=5432 dbname=" + database + " user=" + user +
           " password=" + password;
}

}  // namespace vivaref::testsupport
