#include "daemon/config/config_in_force.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "daemon/config/config_writer.hpp"

namespace vivaref::config {
namespace {

std::string osError(const std::string& what) { return what + ": " + std::strerror(errno); }

// The whole of `text` into a new `file` (mode 0640: it may hold the host's
// password), fsynced; false with why.
bool writeSynced(const std::filesystem::path& file, std::string_view text, std::string& why) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0640);
    if (fd < 0) {
        why = osError("cannot create " + file.string());
        return false;
    }
    bool ok = true;
    for (std::size_t done = 0; ok && done < text.size();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = ENOSPC;
            why = osError("cannot write " + file.string());
            ok = false;
        } else {
            done += static_cast<std::size_t>(n);
        }
    }
    if (ok && ::fsync(fd) != 0) {
        why = osError("cannot flush " + file.string() + " to the disk");
        ok = false;
    }
    if (::close(fd) != 0 && ok) {
        why = osError("cannot write " + file.string());
        ok = false;
    }
    return ok;
}

bool syncDirectory(const std::filesystem::path& directory, std::string& why) {
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        why = osError("cannot flush the directory " + directory.string());
        if (fd >= 0) ::close(fd);
        return false;
    }
    ::close(fd);
    return true;
}

// The previous file kept as the backup: a second name for it (a hard link),
// else a copy; false with why.
bool keepBackup(const std::filesystem::path& file, const std::filesystem::path& backup, std::string& why) {
    std::error_code ec;
    std::filesystem::remove(backup, ec);
    if (ec) {
        why = "cannot replace " + backup.string() + ": " + ec.message();
        return false;
    }
    std::filesystem::create_hard_link(file, backup, ec);
    if (!ec) return true;
    std::filesystem::copy_file(file, backup, std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) {
        why = "cannot keep " + file.string() + " as " + backup.string() + ": " + ec.message();
        return false;
    }
    return true;
}

SaveResult notSaved(const std::filesystem::path& target, std::string why) {
    SaveResult result;
    result.message = engine::Message("castle.config.not-saved", {{"file", engine::say::text(target.string())},
                                                                 {"why", engine::say::text(why)}});
    result.why = "not saved: " + why + "; the configuration in force is unchanged";
    return result;
}

std::string readText(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

ConfigInForce configInForce(const std::filesystem::path& given) {
    ConfigInForce inForce;
    inForce.given = given;
    inForce.check = checkCastleConfigFile(given);
    if (inForce.check.status == ConfigCheck::Status::Unreadable) return inForce;
    inForce.saved = inForce.check.config.daemon.stateDirectory / kSavedConfigName;
    std::error_code ec;
    if (std::filesystem::equivalent(inForce.saved, given, ec)) {
        // Given castle.ini itself: it is the file in force, and a save replaces it (its backup kept).
        inForce.why = "the configuration in force is " + given.string() + " (the state directory's own " +
                      std::string(kSavedConfigName) + ")";
        return inForce;
    }
    if (!std::filesystem::exists(inForce.saved, ec)) {
        inForce.why = "the configuration in force is " + given.string() +
                      " (no castle saved by the set-up in " + inForce.saved.parent_path().string() + ")";
        return inForce;
    }
    ConfigCheck saved = checkCastleConfigFile(inForce.saved);
    if (saved.status == ConfigCheck::Status::Valid) {
        inForce.usesSaved = true;
        inForce.check = std::move(saved);
        inForce.why = "the configuration in force is " + inForce.saved.string() +
                      ", the castle saved by the set-up, instead of " + given.string() +
                      " (remove it to go back to " + given.string() + ")";
        return inForce;
    }
    inForce.savedProblems = saved.problems;
    inForce.why =
        inForce.saved.string() + ", the castle saved by the set-up, cannot be used (" +
        (saved.problems.empty() ? std::string("it has problems") : saved.problems.front().text()) +
        (saved.problems.size() > 1 ? ", and " + std::to_string(saved.problems.size() - 1) + " more" : "") +
        "): the configuration in force is " + given.string();
    return inForce;
}

SaveResult saveCastleConfig(const CastleConfig& castle, std::string_view baseText,
                            const std::filesystem::path& target, const std::filesystem::path& baseDirectory) {
    const WrittenConfig written = writeCastleConfig(castle, baseText, baseDirectory);
    if (!written.ok()) {
        SaveResult result;
        // The reason, in English, is in `why`; the host is told which key.
        result.message =
            engine::Message("castle.config.unwritable", {{"key", engine::say::text(written.refusedKey)}});
        result.why = "not saved: " + written.refusedKey + ": " + written.refusedReason;
        return result;
    }
    // Exactly check-config's checks, on the very text to be written, named as the file it will be.
    ConfigCheck check = checkCastleConfigText(written.text, target.string());
    if (check.status != ConfigCheck::Status::Valid) {
        SaveResult result;
        result.problems = std::move(check.problems);
        const std::string first = result.problems.empty() ? std::string() : result.problems.front().text();
        result.message = engine::Message(
            "castle.config.problems",
            {{"count", engine::say::number(static_cast<std::int64_t>(result.problems.size()))},
             {"first", engine::say::text(first)}});
        result.why =
            "not saved: " + std::to_string(result.problems.size()) + " problem(s), the first: " + first;
        return result;
    }
    const auto directory = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec) return notSaved(target, "cannot make " + directory.string() + ": " + ec.message());
    const std::filesystem::path temporary = target.string() + ".new";
    std::string why;
    if (!writeSynced(temporary, written.text, why)) {
        std::filesystem::remove(temporary, ec);
        return notSaved(target, why);
    }
    if (std::filesystem::exists(target, ec) && !keepBackup(target, target.string() + ".bak", why)) {
        std::filesystem::remove(temporary, ec);
        return notSaved(target, why);
    }
    if (::rename(temporary.c_str(), target.c_str()) != 0) {
        why = osError("cannot rename " + temporary.string() + " to " + target.string());
        std::filesystem::remove(temporary, ec);
        return notSaved(target, why);
    }
    SaveResult result;
    result.saved = true;
    result.message = engine::Message("castle.config.saved", {{"file", engine::say::text(target.string())}});
    result.why = "saved " + target.string();
    // Renamed: it is in force at the next start or apply. A directory that
    // cannot be flushed only risks the rename on a power cut: said, not undone.
    if (!syncDirectory(directory, why)) result.why += " (" + why + ")";
    return result;
}

SaveResult saveCastleConfig(const CastleConfig& castle, const ConfigInForce& inForce) {
    if (inForce.saved.empty())
        return notSaved(inForce.given, "the configuration " + inForce.given.string() +
                                           " cannot be read, so it names no state directory");
    std::error_code ec;
    const auto base = std::filesystem::absolute(inForce.file(), ec).parent_path();
    return saveCastleConfig(castle, readText(inForce.file()), inForce.saved, base);
}

SaveResult putAsideSavedConfig(const ConfigInForce& inForce) {
    std::error_code ec;
    // A castle.ini with problems (not in force) may be put aside too; the given file itself never is.
    if (inForce.saved.empty() || !std::filesystem::exists(inForce.saved, ec) ||
        std::filesystem::equivalent(inForce.saved, inForce.given, ec)) {
        SaveResult result;
        result.message = engine::Message("castle.config.nothing-saved",
                                         {{"given", engine::say::text(inForce.given.string())}});
        result.why = "no castle saved by the set-up: the configuration in force is " + inForce.given.string();
        return result;
    }
    // A rename replaces the old backup in one step: castle.ini is either still in force or put aside.
    const std::filesystem::path backup = inForce.saved.string() + ".bak";
    if (::rename(inForce.saved.c_str(), backup.c_str()) != 0)
        return notSaved(inForce.saved,
                        osError("cannot rename " + inForce.saved.string() + " to " + backup.string()));
    SaveResult result;
    result.saved = true;
    result.message =
        engine::Message("castle.config.put-aside", {{"backup", engine::say::text(backup.string())},
                                                    {"given", engine::say::text(inForce.given.string())}});
    result.why = "put aside " + inForce.saved.string() + " as " + backup.string() +
                 ": the configuration in force is " + inForce.given.string();
    std::string why;
    if (!syncDirectory(inForce.saved.parent_path(), why)) result.why += " (" + why + ")";
    return result;
}

}  // namespace vivaref::config
