// The real voice's tests: skipped (exit 77) where espeak-ng cannot start
// (espeak-ng-data missing). ALSA needs no sound card: the tests play to its
// file and null PCMs.
#include <iostream>

#include <doctest/doctest.h>

#include "drivers/audio/espeak_speech.hpp"

int main(int argc, char** argv) {
    using namespace vivaref::drivers;
    {
        SteadyLoopClock clock;
        EspeakSpeechConfig config;
        config.pcm = "vivaref_null";
        config.alsaConfig = "pcm.vivaref_null { type null }\n";
        EspeakSpeech::Opened opened = EspeakSpeech::open(config, clock);
        if (!opened.speech && opened.error.rfind("espeak-ng: does not start", 0) == 0) {
            std::cout << "SKIP: " << opened.error << " (Debian's espeak-ng-data)\n";
            return 77;
        }
    }
    doctest::Context context(argc, argv);
    return context.run();
}
