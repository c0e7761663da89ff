#include "daemon/server/player_links_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include "daemon/server/secret_token.hpp"

namespace vivaref::server {

using nlohmann::json;

namespace {

// The file is small: anything larger is not ours.
constexpr std::size_t kLinksFileMaxBytes = 64 * 1024;
constexpr int kLinksFormat = 1;

// Closes the descriptor with its scope (names unique in vivaref_server's
// unity build: host_secret.cpp has its own).
class LinksDescriptor {
public:
    explicit LinksDescriptor(int fd) : fd_(fd) {}
    ~LinksDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    LinksDescriptor(const LinksDescriptor&) = delete;
    LinksDescriptor& operator=(const LinksDescriptor&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

std::string linksErrno(int error) { return std::strerror(error); }

bool isLinkToken(const std::string& text) {
    return text.size() == kTokenBytes * 2 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

bool isGameUid(const std::string& text) {
    return text.size() <= 64 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// Writes all of `text` to `fd`, again after a signal or a short write.
bool writeWhole(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
        if (wrote < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += static_cast<std::size_t>(wrote);
    }
    return true;
}

}  // namespace

std::string playerLinksText(const SavedPlayerLinks& links) {
    json players = json::array();
    for (std::size_t p = 0; p < links.tokens.size(); ++p) {
        json player = {{"token", nullptr}, {"opened_ms", nullptr}};
        if (!links.tokens[p].empty()) player["token"] = links.tokens[p];
        // value(), not a copy of the optional: GCC 12 calls a copy maybe uninitialized.
        if (p < links.opened.size() && links.opened[p].has_value())
            player["opened_ms"] = links.opened[p].value();
        players.push_back(std::move(player));
    }
    const json text = {
        {"format", kLinksFormat}, {"game", links.game}, {"uid", links.uid}, {"players", std::move(players)}};
    return text.dump() + "\n";
}

std::optional<SavedPlayerLinks> parsePlayerLinks(std::string_view text, std::string& why) {
    // Parsed without exceptions: a parser's message quotes what it read.
    const json parsed = json::parse(text, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
        why = "it is not a JSON object";
        return std::nullopt;
    }
    const auto format = parsed.find("format");
    if (format == parsed.end() || !format->is_number_integer() || *format != kLinksFormat) {
        why = "it is not in the links' format 1";
        return std::nullopt;
    }
    SavedPlayerLinks links;
    const auto game = parsed.find("game");
    if (game == parsed.end() || !game->is_number_integer() || game->get<std::int64_t>() <= 0) {
        why = "its \"game\" is not a game number";
        return std::nullopt;
    }
    links.game = game->get<std::int64_t>();
    const auto uid = parsed.find("uid");
    if (uid == parsed.end() || !uid->is_string() || !isGameUid(uid->get<std::string>())) {
        why = "its \"uid\" is not a game's uid";
        return std::nullopt;
    }
    links.uid = uid->get<std::string>();
    const auto players = parsed.find("players");
    if (players == parsed.end() || !players->is_array() || players->empty() || players->size() > 16) {
        why = "its \"players\" is not a list of players";
        return std::nullopt;
    }
    for (const auto& player : *players) {
        const std::string which = "player " + std::to_string(links.tokens.size() + 1);
        if (!player.is_object()) {
            why = which + " is not an object";
            return std::nullopt;
        }
        const auto token = player.find("token");
        if (token == player.end() || !(token->is_null() || token->is_string())) {
            why = which + " has no \"token\"";
            return std::nullopt;
        }
        if (token->is_string() && !isLinkToken(token->get<std::string>())) {
            why = which + "'s token is not 64 hex digits";
            return std::nullopt;
        }
        const auto opened = player.find("opened_ms");
        if (opened != player.end() && !opened->is_null() && !opened->is_number_integer()) {
            why = which + "'s \"opened_ms\" is not a time";
            return std::nullopt;
        }
        links.tokens.push_back(token->is_string() ? token->get<std::string>() : std::string());
        links.opened.push_back(opened != player.end() && opened->is_number_integer()
                                   ? std::optional<std::int64_t>(opened->get<std::int64_t>())
                                   : std::nullopt);
    }
    return links;
}

std::optional<SavedPlayerLinks> PlayerLinksFile::read(std::string& why, std::string& warning) const {
    why.clear();
    // O_NONBLOCK: a FIFO put there never holds the start up.
    LinksDescriptor fd(::open(file_.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
    if (fd.get() < 0) {
        if (errno != ENOENT) why = "it cannot be opened: " + linksErrno(errno);
        return std::nullopt;
    }
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0) {
        why = "it cannot be examined: " + linksErrno(errno);
        return std::nullopt;
    }
    if (!S_ISREG(info.st_mode)) {
        why = "it is not a regular file";
        return std::nullopt;
    }
    if ((info.st_mode & 077) != 0) {
        if (::fchmod(fd.get(), 0600) != 0) {
            why = "other users can read it and it cannot be made private: " + linksErrno(errno);
            return std::nullopt;
        }
        warning = "the players' links " + file_.string() +
                  " could be read by other users: made private (0600) again";
    }
    if (static_cast<std::size_t>(info.st_size) > kLinksFileMaxBytes) {
        why = "it is larger than a links file can be";
        return std::nullopt;
    }
    std::string text;
    char buffer[4096];
    for (;;) {
        const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
        if (got < 0) {
            if (errno == EINTR) continue;
            why = "it cannot be read: " + linksErrno(errno);
            return std::nullopt;
        }
        if (got == 0) break;
        text.append(buffer, static_cast<std::size_t>(got));
        if (text.size() > kLinksFileMaxBytes) {
            why = "it is larger than a links file can be";
            return std::nullopt;
        }
    }
    return parsePlayerLinks(text, why);
}

bool PlayerLinksFile::write(const SavedPlayerLinks& links, std::string& why) const {
    const auto directory = file_.parent_path();
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec) {
        why = "its folder cannot be created: " + ec.message();
        return false;
    }
    std::string temporary = (directory / ".player-links.XXXXXX").string();
    LinksDescriptor fd(::mkostemp(temporary.data(), O_CLOEXEC));  // mode 0600
    if (fd.get() < 0) {
        why = "it cannot be written: " + linksErrno(errno);
        return false;
    }
    if (!writeWhole(fd.get(), playerLinksText(links)) || ::fsync(fd.get()) != 0) {
        why = "it cannot be written: " + linksErrno(errno);
        ::unlink(temporary.c_str());
        return false;
    }
    if (::rename(temporary.c_str(), file_.c_str()) != 0) {
        why = "it cannot be put in place: " + linksErrno(errno);
        ::unlink(temporary.c_str());
        return false;
    }
    // The rename itself reaches the disk with its folder.
    LinksDescriptor folder(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (folder.get() >= 0) (void)::fsync(folder.get());
    return true;
}

bool PlayerLinksFile::remove(std::string& why) const {
    if (::unlink(file_.c_str()) == 0 || errno == ENOENT) return true;
    why = "it cannot be removed: " + linksErrno(errno);
    return false;
}

}  // namespace vivaref::server
