// The web page's files (web-ui/), served read-only from one directory.
// Only regular files inside that directory are ever read: a path with "..",
// a NUL, a backslash or a bad %-escape is refused, and so is any file whose
// real path (symbolic links followed) lies outside the directory. "/" and a
// directory mean its index.html.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace vivaref::server {

// Where the web page is when no option names it: web-ui/ installed beside
// the binary (BINDIR/../share/vivaref/web-ui, so /usr/share/vivaref/web-ui
// for /usr/bin/vivaref) when it exists, else the source tree's web-ui/ this
// binary was built from.
std::filesystem::path defaultWebRoot();

class StaticFiles {
public:
    // A file larger than this is not part of the web page.
    static constexpr std::uintmax_t kMaxFileBytes = 8 << 20;

    explicit StaticFiles(std::filesystem::path root);

    const std::filesystem::path& root() const { return root_; }
    bool rootExists() const;

    struct File {
        std::string body;
        std::string_view contentType;
    };
    struct Lookup {
        enum class Status { Found, NotFound, Refused } status = Status::NotFound;
        File file;           // when Found
        std::string reason;  // when Refused: a sentence
    };
    // `path`: the request target's path, still %-encoded ("/", "/app.js").
    Lookup lookup(std::string_view path) const;

    // The relative path `path` names after decoding, or nullopt (with why)
    // when it tries to leave the directory or is malformed. For tests.
    static std::optional<std::filesystem::path> safeRelativePath(std::string_view path, std::string* why);

private:
    std::filesystem::path root_;
};

// "text/html; charset=utf-8" for ".html", ...; "application/octet-stream" when unknown.
std::string_view contentTypeFor(const std::filesystem::path& file);

}  // namespace vivaref::server
