// One ALSA playback PCM, opened by name, taking 16-bit mono samples. Move-
// only; closed by its destructor. Failures are values naming the PCM.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

using snd_pcm_t = struct _snd_pcm;
using snd_config_t = struct _snd_config;

namespace vivaref::drivers {

struct SndPcmClose {
    void operator()(snd_pcm_t* pcm) const;
};
struct SndConfigDelete {
    void operator()(snd_config_t* config) const;
};

class AlsaPcm {
public:
    struct Opened;

    // Opens `name` for playback at `rate` samples a second. With
    // `configText`, the PCM is looked up in that ALSA configuration instead
    // of the system's (a test's file or null PCM), e.g.
    //   pcm.out { type file; slave.pcm { type null }; file "/tmp/out.raw"; format "raw" }
    static Opened open(const std::string& name, const std::string& configText, unsigned rate);

    const std::string& name() const { return name_; }

    // Before a line: brings the PCM back to a state that takes samples.
    std::optional<std::string> prepare();
    // Hands `count` samples to ALSA, waiting while its buffer is full; an
    // underrun is recovered from and the rest written.
    std::optional<std::string> write(const std::int16_t* samples, std::size_t count);
    // After a line: waits until what was handed over has been played.
    void drain();
    // A line stopped: throws away what is still buffered.
    void drop();

private:
    AlsaPcm(std::string name, std::unique_ptr<snd_config_t, SndConfigDelete> config,
            std::unique_ptr<snd_pcm_t, SndPcmClose> pcm);
    std::string failure(const char* doing, int error) const;

    std::string name_;
    std::unique_ptr<snd_config_t, SndConfigDelete> config_;  // a test's configuration, while the PCM uses it
    std::unique_ptr<snd_pcm_t, SndPcmClose> pcm_;
};

struct AlsaPcm::Opened {
    std::optional<AlsaPcm> pcm;
    std::string error;  // when no pcm: what failed, naming the PCM
};

}  // namespace vivaref::drivers
