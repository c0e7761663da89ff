#include "daemon/server/host_secret.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include <sys/stat.h>

#include "daemon/server/secret_token.hpp"

namespace vivaref::server {

namespace {

// Closes the descriptor with its scope.
class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

std::runtime_error problem(const std::filesystem::path& file, const std::string& what) {
    return std::runtime_error("the host secret " + file.string() + ": " + what);
}

std::string systemError() { return std::strerror(errno); }

bool isSecret(std::string_view text) {
    return text.size() == kTokenBytes * 2 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

enum class ReadResult { Read, Missing };

// Reads the secret of `file` into `token`; a file others may read is made
// 0600 again (`warning` says so). Throws on anything else.
ReadResult readSecretFile(const std::filesystem::path& file, std::string& token, std::string& warning) {
    FileDescriptor fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
    if (fd.get() < 0) {
        if (errno == ENOENT) return ReadResult::Missing;
        throw problem(file, "cannot be opened: " + systemError());
    }
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0) throw problem(file, "cannot be examined: " + systemError());
    if (!S_ISREG(info.st_mode)) throw problem(file, "is not a regular file");
    if ((info.st_mode & 077) != 0) {
        if (::fchmod(fd.get(), 0600) != 0)
            throw problem(file, "can be read by other users and cannot be made private: " + systemError());
        warning =
            "the host secret " + file.string() + " could be read by other users: made private (0600) again";
    }
    char buffer[256];
    std::string text;
    for (;;) {
        const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw problem(file, "cannot be read: " + systemError());
        }
        if (got == 0) break;
        text.append(buffer, static_cast<std::size_t>(got));
        if (text.size() > sizeof buffer) break;
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.pop_back();
    if (!isSecret(text))
        throw problem(file,
                      "does not hold a host secret (one line of 64 hex digits); delete it and a new one "
                      "is made at the next start");
    token = std::move(text);
    return ReadResult::Read;
}

// Writes a fresh secret to a private temporary file beside `file`, then
// links it into place: the file appears whole or not at all, and a secret
// another process made meanwhile is never overwritten (link fails: EEXIST).
bool createSecretFile(const std::filesystem::path& file, const std::string& token) {
    std::string temporary = (file.parent_path() / ".host-secret.XXXXXX").string();
    FileDescriptor fd(::mkostemp(temporary.data(), O_CLOEXEC));  // mode 0600
    if (fd.get() < 0) throw problem(file, "cannot be created: " + systemError());
    const std::string line = token + "\n";
    bool ok = ::write(fd.get(), line.data(), line.size()) == static_cast<ssize_t>(line.size()) &&
              ::fsync(fd.get()) == 0;
    const std::string writeError = ok ? std::string() : systemError();
    bool linked = false;
    int linkErrno = 0;
    if (ok) {
        linked = ::link(temporary.c_str(), file.c_str()) == 0;
        linkErrno = errno;
    }
    ::unlink(temporary.c_str());
    if (!ok) throw problem(file, "cannot be written: " + writeError);
    if (!linked && linkErrno != EEXIST)
        throw problem(file, std::string("cannot be put in place: ") + std::strerror(linkErrno));
    return linked;
}

}  // namespace

HostSecret loadOrCreateHostSecret(const std::filesystem::path& directory) {
    HostSecret secret;
    secret.file = directory / kHostSecretFile;
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec) throw problem(secret.file, "its folder cannot be created: " + ec.message());
    if (readSecretFile(secret.file, secret.token, secret.warning) == ReadResult::Read) return secret;
    const std::string fresh = randomToken();
    secret.created = createSecretFile(secret.file, fresh);
    if (secret.created) {
        secret.token = fresh;
        return secret;
    }
    // Another start made it first: use theirs.
    if (readSecretFile(secret.file, secret.token, secret.warning) != ReadResult::Read)
        throw problem(secret.file, "vanished while it was being made");
    return secret;
}

std::optional<std::string> readHostSecret(const std::filesystem::path& directory, std::string& why) {
    const auto file = directory / kHostSecretFile;
    try {
        std::string token, warning;
        if (readSecretFile(file, token, warning) == ReadResult::Read) return token;
        why = "there is no host secret " + file.string() + " (it is made when 'vivaref serve' first starts)";
    } catch (const std::exception& e) {
        why = e.what();
    }
    return std::nullopt;
}

std::filesystem::path hostSecretDirectory(const std::filesystem::path& configStateDirectory,
                                          const std::filesystem::path& database) {
    if (!configStateDirectory.empty()) return configStateDirectory;
    return database.has_parent_path() ? database.parent_path() : std::filesystem::path(".");
}

}  // namespace vivaref::server
