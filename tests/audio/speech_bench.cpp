// Not a test: how soon the referee's voice starts. For each language, 50
// short lines like the table's are queued one at a time on an idle voice,
// and the time from say() to the first sample handed to ALSA is measured
// (the synthesis of espeak's first chunk, plus the hand-over). Prints p50,
// p99 and the worst, and how many seconds of speech espeak-ng makes in a
// second (the headroom a slower machine has). By default the samples go to
// ALSA's file PCM (into a scratch file, its slave the null PCM, which does
// not wait for a speaker); give a PCM name (e.g. `speech_bench default`) to
// play them on this machine's sound device instead.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "drivers/audio/espeak_speech.hpp"
#include "tests/audio/file_pcm.hpp"

namespace {

using vivaref::drivers::SpeechLine;

struct BenchLanguage {
    const char* tag;
    std::vector<const char*> lines;
};

const std::vector<BenchLanguage> kBenchLanguages = {
    {"en",
     {"Put the King back on floor 4.", "The election is open.", "Anna is crowned King.",
      "End of round 2: Bruno leads.", "Reader 3 stopped answering."}},
    {"fr",
     {"Remettez le Roi à l’étage 4.", "L’élection est ouverte.", "Anna est couronnée.",
      "Fin de la manche 2 : Bruno mène.", "Le lecteur 3 ne répond plus."}},
    {"de",
     {"Stell den König zurück auf Etage 4.", "Die Wahl ist eröffnet.", "Anna wird gekrönt.",
      "Ende der Runde 2: Bruno führt.", "Leser 3 antwortet nicht mehr."}},
    {"it",
     {"Rimetti il Re al piano 4.", "L’elezione è aperta.", "Anna è incoronata.",
      "Fine del turno 2: Bruno è in testa.", "Il lettore 3 non risponde più."}},
};

double percentile(std::vector<double> values, double p) {
    std::sort(values.begin(), values.end());
    auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(index, values.size() - 1)];
}

}  // namespace

int main(int argc, char** argv) {
    using namespace vivaref::drivers;
    constexpr int kLinesPerLanguage = 50;
    EspeakSpeechConfig config;
    std::filesystem::path scratch;
    if (argc > 1) {
        config.pcm = argv[1];
    } else {
        std::string pattern = (std::filesystem::temp_directory_path() / "speech-bench-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            std::perror("speech_bench: mkdtemp");
            return 1;
        }
        scratch = pattern;
        config.pcm = testing::kFilePcmName;
        config.alsaConfig = testing::filePcmConfig(scratch / "out.raw");
    }
    SteadyLoopClock clock;
    EspeakSpeech::Opened opened = EspeakSpeech::open(config, clock);
    if (!opened.speech) {
        std::fprintf(stderr, "speech_bench: %s\n", opened.error.c_str());
        return 1;
    }
    EspeakSpeech& speech = *opened.speech;
    auto started = clock.nowMicros();
    std::printf("PCM %s, espeak-ng at %d Hz, %d lines per language, each queued on an idle voice\n",
                config.pcm.c_str(), speech.sampleRate(), kLinesPerLanguage);
    std::printf("queue -> first sample handed to ALSA (ms)\n%-4s %8s %8s %8s\n", "lang", "p50", "p99", "max");
    std::vector<double> all;
    for (const BenchLanguage& language : kBenchLanguages) {
        std::vector<double> millis;
        for (int i = 0; i < kLinesPerLanguage; ++i) {
            const char* text = language.lines[static_cast<std::size_t>(i) % language.lines.size()];
            speech.say(SpeechLine{{}, text, {language.tag}});
            speech.waitUntilIdle();
            for (const SpeechReport& report : speech.takeReports()) {
                if (report.fate != SpeechFate::Spoken || !report.firstSampleAt) {
                    std::fprintf(stderr, "speech_bench: a line was %s: %s\n", speechFateName(report.fate),
                                 report.error.c_str());
                    return 1;
                }
                std::chrono::duration<double, std::milli> wait = *report.firstSampleAt - report.queuedAt;
                millis.push_back(wait.count());
            }
        }
        all.insert(all.end(), millis.begin(), millis.end());
        std::printf("%-4s %8.1f %8.1f %8.1f\n", language.tag, percentile(millis, 0.5),
                    percentile(millis, 0.99), *std::max_element(millis.begin(), millis.end()));
    }
    std::printf("%-4s %8.1f %8.1f %8.1f\n", "all", percentile(all, 0.5), percentile(all, 0.99),
                *std::max_element(all.begin(), all.end()));
    std::chrono::duration<double> busy = clock.nowMicros() - started;
    int rate = speech.sampleRate();
    opened.speech.reset();  // the file PCM has written everything
    if (!scratch.empty()) {
        double spoken = static_cast<double>(std::filesystem::file_size(scratch / "out.raw")) / 2.0 / rate;
        std::printf("%.1f s of speech made in %.2f s: %.0f times faster than it is spoken\n", spoken,
                    busy.count(), spoken / busy.count());
        std::filesystem::remove_all(scratch);
    }
    return 0;
}
