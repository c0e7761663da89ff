// A web page folder for the tests, in a fresh temporary directory:
//   DIR/secret.txt          (outside the root: must never be served)
//   DIR/root/index.html, app.js, sub/index.html
//   DIR/root/escape -> ../secret.txt   (a symbolic link leading out)
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace vivaref::server::testing {

inline constexpr const char* kSecretText = "TOP-SECRET-OUTSIDE-THE-ROOT";

class TempWebRoot {
public:
    TempWebRoot() {
        std::string pattern = (std::filesystem::temp_directory_path() / "vivaref-web-XXXXXX").string();
        dir_ = ::mkdtemp(pattern.data());
        std::filesystem::create_directories(dir_ / "root" / "sub");
        write(dir_ / "secret.txt", kSecretText);
        write(dir_ / "root" / "index.html", "<!doctype html><title>vivaref</title>");
        write(dir_ / "root" / "app.js", "console.log('vivaref');");
        write(dir_ / "root" / "sub" / "index.html", "<p>sub</p>");
        std::filesystem::create_symlink("../secret.txt", dir_ / "root" / "escape");
    }
    ~TempWebRoot() {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
    std::filesystem::path root() const { return dir_ / "root"; }

private:
    static void write(const std::filesystem::path& file, const std::string& text) {
        std::ofstream(file) << text;
    }
    std::filesystem::path dir_;
};

}  // namespace vivaref::server::testing
