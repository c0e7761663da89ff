// The web page's files: served from one folder, never from outside it.
#include <doctest/doctest.h>

#include "daemon/server/static_files.hpp"
#include "temp_web_root.hpp"

using namespace vivaref::server;
using namespace vivaref::server::testing;
using Status = StaticFiles::Lookup::Status;

TEST_CASE("paths that climb out or hide bytes are refused before touching the disk") {
    for (const char* bad :
         {"/..", "/../secret.txt", "/sub/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt",
          "/sub/%2e%2e/%2e%2e/x", "/a%00b", "/a\\..\\b", "/%5c..%5cx", "/%", "/%2", "/%zz", "relative", ""}) {
        CAPTURE(bad);
        std::string why;
        CHECK_FALSE(StaticFiles::safeRelativePath(bad, &why).has_value());
        CHECK_FALSE(why.empty());
    }
    CHECK(StaticFiles::safeRelativePath("/", nullptr) == std::filesystem::path());
    CHECK(StaticFiles::safeRelativePath("/app.js", nullptr) == std::filesystem::path("app.js"));
    CHECK(StaticFiles::safeRelativePath("//sub/./index.html", nullptr) ==
          std::filesystem::path("sub/index.html"));
    CHECK(StaticFiles::safeRelativePath("/a%20b.html", nullptr) == std::filesystem::path("a b.html"));
    // ".." inside a name is a name, not a climb.
    CHECK(StaticFiles::safeRelativePath("/a..b", nullptr) == std::filesystem::path("a..b"));
}

TEST_CASE("files inside the root are served with their type; a directory means its index.html") {
    TempWebRoot web;
    StaticFiles files(web.root());
    REQUIRE(files.rootExists());
    auto index = files.lookup("/");
    REQUIRE(index.status == Status::Found);
    CHECK(index.file.contentType == "text/html; charset=utf-8");
    CHECK(index.file.body.find("vivaref") != std::string::npos);
    auto js = files.lookup("/app.js");
    REQUIRE(js.status == Status::Found);
    CHECK(js.file.contentType == "text/javascript; charset=utf-8");
    CHECK(files.lookup("/sub").status == Status::Found);
    CHECK(files.lookup("/sub/").file.body == "<p>sub</p>");
    CHECK(files.lookup("/missing.html").status == Status::NotFound);
    CHECK(files.lookup("/sub/missing/").status == Status::NotFound);
}

TEST_CASE("a symbolic link leading out of the root is refused") {
    TempWebRoot web;
    StaticFiles files(web.root());
    auto escape = files.lookup("/escape");
    CHECK(escape.status == Status::Refused);
    CHECK(escape.file.body.empty());
}

TEST_CASE("a missing root serves nothing and says so") {
    StaticFiles files("/nonexistent/vivaref-web-ui");
    CHECK_FALSE(files.rootExists());
    CHECK(files.lookup("/").status == Status::NotFound);
}

TEST_CASE("content types by extension") {
    CHECK(contentTypeFor("a.css") == "text/css; charset=utf-8");
    CHECK(contentTypeFor("a.svg") == "image/svg+xml");
    CHECK(contentTypeFor("a.unknown") == "application/octet-stream");
    CHECK(contentTypeFor("Makefile") == "application/octet-stream");
}
