// An ALSA configuration for the voice's tests: a file PCM writing raw
// samples to `path`, its slave the null PCM, so espeak-ng and ALSA run their
// real path without a sound card.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace vivaref::drivers::testing {

inline const char* kFilePcmName = "vivaref_test";

inline std::string filePcmConfig(const std::filesystem::path& path) {
    return std::string("pcm.") + kFilePcmName + " { type file slave.pcm { type null } file \"" +
           path.string() + "\" format \"raw\" }\n";
}

// The 16-bit samples the file PCM wrote.
inline std::vector<std::int16_t> samplesIn(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::int16_t> samples(bytes.size() / 2);
    for (std::size_t i = 0; i < samples.size(); ++i) {
        auto low = static_cast<unsigned char>(bytes[2 * i]);
        auto high = static_cast<unsigned char>(bytes[2 * i + 1]);
        samples[i] = static_cast<std::int16_t>(low | (high << 8));
    }
    return samples;
}

}  // namespace vivaref::drivers::testing
