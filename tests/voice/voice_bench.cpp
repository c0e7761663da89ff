// Not a test: how soon the table hears a decision. The real referee (the
// referee's hand-built test table) refuses a piece put on floor 5 or 0; its
// public notice goes to the table's voice (daemon/voice), which renders the
// refusal and what to put back in the table's language and queues it on
// espeak-ng; the time from the referee's notice to the first sample handed
// to ALSA is measured, with its two parts: the notice to the line queued
// (the words, on the table's loop in serve: posted after the step) and the
// line queued to its first sample (espeak-ng's first chunk, on the voice's
// thread). 50 refusals a language, each on an idle voice, the piece taken
// back between them. Samples go to ALSA's file PCM (its slave the null PCM)
// unless a PCM is named (`voice_bench default`: this machine's sound card).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/voice/table_voice.hpp"
#include "daemon/words/catalog.hpp"
#include "drivers/audio/espeak_speech.hpp"
#include "tests/audio/file_pcm.hpp"
#include "tests/referee/referee_table.hpp"

namespace {

double percentileOf(std::vector<double> values, double p) {
    std::sort(values.begin(), values.end());
    auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(index, values.size() - 1)];
}

struct Figures {
    std::vector<double> total, words, synthesis;  // milliseconds
};

void print(const char* what, const Figures& f) {
    std::printf("%-4s %4zu | %7.2f %7.2f %7.2f | %7.3f %7.3f | %7.2f %7.2f\n", what, f.total.size(),
                percentileOf(f.total, 0.5), percentileOf(f.total, 0.99),
                *std::max_element(f.total.begin(), f.total.end()), percentileOf(f.words, 0.5),
                percentileOf(f.words, 0.99), percentileOf(f.synthesis, 0.5), percentileOf(f.synthesis, 0.99));
}

}  // namespace

int main(int argc, char** argv) {
    using namespace vivaref;
    // The referee's test table checks itself with doctest: outside a test
    // run, a failed check ends the benchmark with what failed.
    doctest::Context context;
    context.setAsDefaultForAssertsOutOfTestCases();
    context.setAssertHandler([](const doctest::AssertData& data) {
        std::fprintf(stderr, "voice_bench: %s:%d: %s failed\n", data.m_file, data.m_line, data.m_expr);
        std::exit(1);
    });
    constexpr int kPerLanguage = 50;
    drivers::EspeakSpeechConfig config;
    std::filesystem::path scratch;
    if (argc > 1) {
        config.pcm = argv[1];
    } else {
        std::string pattern = (std::filesystem::temp_directory_path() / "voice-bench-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            std::perror("voice_bench: mkdtemp");
            return 1;
        }
        scratch = pattern;
        config.pcm = drivers::testing::kFilePcmName;
        config.alsaConfig = drivers::testing::filePcmConfig(scratch / "out.raw");
    }
    drivers::SteadyLoopClock clock;
    const auto openStarted = clock.nowMicros();
    auto opened = drivers::EspeakSpeech::open(config, clock);
    const auto openedIn = clock.nowMicros() - openStarted;
    if (!opened.speech) {
        std::fprintf(stderr, "voice_bench: %s\n", opened.error.c_str());
        return 1;
    }
    auto& speech = *opened.speech;

    referee::testing::HandTable t;
    voice::TableVoice tableVoice(t.referee, clock, &speech);
    voice::VoiceSettings on;
    on.enabled = true;
    on.volume = 100;
    tableVoice.setSettings(on);
    t.start(referee::testing::kClassic4);
    std::size_t heard = t.notices.size();

    std::printf(
        "PCM %s (espeak-ng and the PCM opened in %.1f ms); a refusal noticed -> its first sample handed to "
        "ALSA, %d a language, on an idle voice\n",
        config.pcm.c_str(), static_cast<double>(openedIn.count()) / 1000.0, kPerLanguage);
    std::printf("lang    n | total ms: p50     p99     max | words ms: p50  p99 | synthesis ms: p50  p99\n");
    Figures all;
    std::size_t chars = 0;
    for (const auto& language : words::shippedLanguages()) {
        tableVoice.setLanguage(language);
        Figures f;
        for (int i = 0; i < kPerLanguage; ++i) {
            t.put("dario", i % 2 ? "5" : "0");
            // The referee's notices, as the table tells its observers.
            for (; heard < t.notices.size(); ++heard) tableVoice.notice(t.notices[heard]);
            tableVoice.flush();  // serve: posted on the loop, run after the step
            speech.waitUntilIdle();
            const auto reports = speech.takeReports();
            const auto& line = tableVoice.lines().back();
            if (reports.size() != 1 || reports[0].fate != drivers::SpeechFate::Spoken ||
                !reports[0].firstSampleAt) {
                std::fprintf(stderr, "voice_bench: the line was not spoken: %s\n",
                             reports.empty() ? "no report" : reports[0].error.c_str());
                return 1;
            }
            chars += line.text.size();
            const auto ms = [](std::chrono::microseconds d) {
                return static_cast<double>(d.count()) / 1000.0;
            };
            f.total.push_back(ms(*reports[0].firstSampleAt - line.noticedAt));
            f.words.push_back(ms(reports[0].queuedAt - line.noticedAt));
            f.synthesis.push_back(ms(*reports[0].firstSampleAt - reports[0].queuedAt));
            t.remove("dario");
            for (; heard < t.notices.size(); ++heard) tableVoice.notice(t.notices[heard]);
            tableVoice.flush();
            (void)speech.takeReports();
        }
        print(language.c_str(), f);
        all.total.insert(all.total.end(), f.total.begin(), f.total.end());
        all.words.insert(all.words.end(), f.words.begin(), f.words.end());
        all.synthesis.insert(all.synthesis.end(), f.synthesis.begin(), f.synthesis.end());
    }
    print("all", all);
    std::printf("lines of %.0f bytes on average (the refusal and what to put back)\n",
                static_cast<double>(chars) / static_cast<double>(all.total.size()));
    if (!scratch.empty()) std::filesystem::remove_all(scratch);
    return 0;
}
