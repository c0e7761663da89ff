#include "daemon/server/static_files.hpp"

#include <array>
#include <fstream>
#include <iterator>
#include <system_error>
#include <utility>

#include "daemon/server/http_message.hpp"

namespace vivaref::server {

namespace fs = std::filesystem;

namespace {

bool isWithin(const fs::path& file, const fs::path& root) {
    auto f = file.begin();
    for (auto r = root.begin(); r != root.end(); ++r, ++f)
        if (f == file.end() || *f != *r) return false;
    return true;
}

}  // namespace

fs::path defaultWebRoot() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = self.parent_path().parent_path() / "share" / "vivaref" / "web-ui";
        if (fs::is_directory(installed, ec)) return installed;
    }
    return VIVAREF_SOURCE_WEB_UI;
}

StaticFiles::StaticFiles(fs::path root) : root_(std::move(root)) {
    std::error_code ec;
    if (auto canonical = fs::canonical(root_, ec); !ec) root_ = canonical;
}

bool StaticFiles::rootExists() const {
    std::error_code ec;
    return fs::is_directory(root_, ec);
}

std::optional<fs::path> StaticFiles::safeRelativePath(std::string_view path, std::string* why) {
    auto refuse = [&](const char* reason) -> std::optional<fs::path> {
        if (why) *why = reason;
        return std::nullopt;
    };
    if (path.empty() || path.front() != '/') return refuse("the path does not start with /");
    const auto decoded = percentDecoded(path);
    if (!decoded) return refuse("the path has a malformed %-escape");
    fs::path relative;
    std::size_t start = 1;
    while (start <= decoded->size()) {
        std::size_t end = decoded->find('/', start);
        if (end == std::string::npos) end = decoded->size();
        const std::string_view segment(decoded->data() + start, end - start);
        if (segment == "..") return refuse("the path climbs out of the web page's folder (..)");
        if (segment.find('\0') != std::string_view::npos) return refuse("the path holds a NUL byte");
        if (segment.find('\\') != std::string_view::npos) return refuse("the path holds a backslash");
        if (!segment.empty() && segment != ".") relative /= std::string(segment);
        start = end + 1;
    }
    return relative;
}

StaticFiles::Lookup StaticFiles::lookup(std::string_view path) const {
    Lookup out;
    std::string why;
    auto relative = safeRelativePath(path, &why);
    if (!relative) {
        out.status = Lookup::Status::Refused;
        out.reason = why;
        return out;
    }
    std::error_code ec;
    fs::path file = root_ / *relative;
    if (fs::is_directory(file, ec)) file /= "index.html";
    // Symbolic links are followed, but the file they reach must be inside the root.
    const fs::path real = fs::canonical(file, ec);
    if (ec) return out;  // NotFound
    if (!isWithin(real, root_)) {
        out.status = Lookup::Status::Refused;
        out.reason = "the path leads out of the web page's folder";
        return out;
    }
    if (!fs::is_regular_file(real, ec) || fs::file_size(real, ec) > kMaxFileBytes || ec) return out;
    std::ifstream in(real, std::ios::binary);
    if (!in) return out;
    out.file.body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) return out;
    out.file.contentType = contentTypeFor(real);
    out.status = Lookup::Status::Found;
    return out;
}

std::string_view contentTypeFor(const fs::path& file) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 13> kTypes = {{
        {".html", "text/html; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".json", "application/json; charset=utf-8"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".jpg", "image/jpeg"},
        {".ico", "image/x-icon"},
        {".webmanifest", "application/manifest+json"},
        {".txt", "text/plain; charset=utf-8"},
        {".md", "text/plain; charset=utf-8"},
        {".woff2", "font/woff2"},
    }};
    const std::string extension = file.extension().string();
    for (const auto& [ext, type] : kTypes)
        if (ext == extension) return type;
    return "application/octet-stream";
}

}  // namespace vivaref::server
