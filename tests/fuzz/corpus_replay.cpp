// The corpus of a fuzz target replayed as an ordinary test (g++ has no
// libFuzzer): linked with one target's LLVMFuzzerTestOneInput, it feeds it
// every file of the folders (and files) it is given, in name order. The
// target aborts on a broken invariant after printing it; the sanitizers of
// the ASan build report the rest. The file being run is printed first, so a
// failure names it.
//
// Usage: NAME_replay PATH...   (a folder: its regular files, not recursing)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    std::vector<std::filesystem::path> files;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path path = argv[i];
        std::error_code error;
        if (std::filesystem::is_directory(path, error)) {
            for (const auto& entry : std::filesystem::directory_iterator(path, error))
                if (entry.is_regular_file()) files.push_back(entry.path());
        } else if (std::filesystem::is_regular_file(path, error)) {
            files.push_back(path);
        }
        if (error) {
            std::fprintf(stderr, "cannot read %s: %s\n", path.c_str(), error.message().c_str());
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    // An empty corpus would make a test that cannot fail.
    if (files.empty()) {
        std::fprintf(stderr, "no input file in the paths given\n");
        return 2;
    }
    for (const auto& file : files) {
        std::fprintf(stderr, "input %s\n", file.c_str());
        const std::string data = readFile(file);
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
    }
    std::printf("%zu inputs replayed, every invariant held\n", files.size());
    return 0;
}
