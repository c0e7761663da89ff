// [voice]: the referee's voice as the configuration sets it (issue 33): off
// by default with every moment, and each key checked with the file, line
// and key named.
#include <doctest/doctest.h>

#include "tests/config/config_test_helpers.hpp"

namespace vivaref::config {
namespace {

using testing::check;
using testing::problemTexts;
using Strings = std::vector<std::string>;

TEST_CASE("voice: off, at 80, every moment, the default PCM and the speaker the hardware has") {
    const auto c = check("[castle]\nedition = classic\n");
    REQUIRE(c.problems.empty());
    const auto& v = c.config.voice;
    CHECK_FALSE(v.settings.enabled);
    CHECK(v.settings.volume == 80);
    CHECK(v.settings.moments == voice::VoiceMoments::all());
    CHECK(v.pcm == "default");
    CHECK(v.output == VoiceOutput::Auto);
}

TEST_CASE("voice: every key read") {
    const auto c = check(
        "[voice]\nenabled = true\nvolume = 35\nmoments = refusal, winner bot\npcm = plughw:1,0\noutput = "
        "espeak\n");
    REQUIRE(c.problems.empty());
    const auto& v = c.config.voice;
    CHECK(v.settings.enabled);
    CHECK(v.settings.volume == 35);
    CHECK(v.settings.moments.names() == Strings{"refusal", "winner", "bot"});
    CHECK(v.pcm == "plughw:1,0");
    CHECK(v.output == VoiceOutput::Espeak);
    CHECK(check("[voice]\nmoments = none\noutput = none\n").config.voice.settings.moments ==
          voice::VoiceMoments::none());
    CHECK(check("[voice]\nmoments = all\n").config.voice.settings.moments == voice::VoiceMoments::all());
}

TEST_CASE("voice: malformed values name the file, line and key") {
    CHECK(
        problemTexts("[voice]\nenabled = loud\nvolume = 101\nmoments = refusal, votes\npcm = my card\n"
                     "output = speaker\nlanguage = fr\n") ==
        Strings{
            "castle.ini:2: voice.enabled: 'loud' is not true or false",
            "castle.ini:3: voice.volume: 101 is out of range: from 0 to 100",
            "castle.ini:4: voice.moments: 'votes' is not a moment the referee speaks at: refusal, "
            "election, round, winner, bot, reader, teach (or all, or none)",
            "castle.ini:5: voice.pcm: 'my card' is not an ALSA PCM name, e.g. default, plughw:1,0 or dmix",
            "castle.ini:6: voice.output: 'speaker' is not a voice output: auto (espeak-ng on a real castle, "
            "silent on a simulated one), espeak or none",
            "castle.ini:7: voice.language: unknown key in [voice]; its keys are enabled, volume, moments, "
            "pcm, "
            "output"});
    CHECK(problemTexts("[voice]\nmoments = ,\n") ==
          Strings{
              "castle.ini:2: voice.moments: no moment named: name some of refusal, election, round, winner, "
              "bot, reader, teach, or all, or none"});
}

}  // namespace
}  // namespace vivaref::config
