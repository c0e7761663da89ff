#include "drivers/audio/alsa_pcm.hpp"

#include <cerrno>
#include <utility>

#include <alsa/asoundlib.h>

namespace vivaref::drivers {

namespace {

// ALSA's own buffering ahead of the speaker: long enough that a busy Pi does
// not run dry between two of espeak's chunks, short enough that a cancelled
// line stops soon.
constexpr unsigned kAlsaLatencyMicros = 100'000;

}  // namespace

void SndPcmClose::operator()(snd_pcm_t* pcm) const { snd_pcm_close(pcm); }
void SndConfigDelete::operator()(snd_config_t* config) const { snd_config_delete(config); }

AlsaPcm::AlsaPcm(std::string name, std::unique_ptr<snd_config_t, SndConfigDelete> config,
                 std::unique_ptr<snd_pcm_t, SndPcmClose> pcm)
    : name_(std::move(name)), config_(std::move(config)), pcm_(std::move(pcm)) {}

std::string AlsaPcm::failure(const char* doing, int error) const {
    return "ALSA PCM \"" + name_ + "\": " + doing + ": " + snd_strerror(error);
}

AlsaPcm::Opened AlsaPcm::open(const std::string& name, const std::string& configText, unsigned rate) {
    auto fail = [&](const std::string& doing, int error) {
        return Opened{std::nullopt, "ALSA PCM \"" + name + "\": " + doing + ": " + snd_strerror(error)};
    };
    std::unique_ptr<snd_config_t, SndConfigDelete> config;
    snd_pcm_t* raw = nullptr;
    int error = 0;
    if (configText.empty()) {
        error = snd_pcm_open(&raw, name.c_str(), SND_PCM_STREAM_PLAYBACK, 0);
    } else {
        snd_config_t* top = nullptr;
        if ((error = snd_config_top(&top)) < 0) {
            return fail("no configuration", error);
        }
        config.reset(top);
        snd_input_t* input = nullptr;
        if ((error = snd_input_buffer_open(&input, configText.data(),
                                           static_cast<ssize_t>(configText.size()))) < 0) {
            return fail("reading the given configuration", error);
        }
        error = snd_config_load(top, input);
        snd_input_close(input);
        if (error < 0) {
            return fail("the given configuration does not parse", error);
        }
        error = snd_pcm_open_lconf(&raw, name.c_str(), SND_PCM_STREAM_PLAYBACK, 0, top);
    }
    if (error < 0) {
        return fail("does not open", error);
    }
    std::unique_ptr<snd_pcm_t, SndPcmClose> pcm(raw);
    error = snd_pcm_set_params(pcm.get(), SND_PCM_FORMAT_S16, SND_PCM_ACCESS_RW_INTERLEAVED, 1, rate,
                               1 /* let ALSA resample */, kAlsaLatencyMicros);
    if (error < 0) {
        return fail("takes no 16-bit mono at " + std::to_string(rate) + " Hz", error);
    }
    return Opened{AlsaPcm(name, std::move(config), std::move(pcm)), {}};
}

std::optional<std::string> AlsaPcm::prepare() {
    snd_pcm_state_t state = snd_pcm_state(pcm_.get());
    if (state == SND_PCM_STATE_PREPARED || state == SND_PCM_STATE_RUNNING) {
        return std::nullopt;
    }
    if (int error = snd_pcm_prepare(pcm_.get()); error < 0) {
        return failure("prepare", error);
    }
    return std::nullopt;
}

std::optional<std::string> AlsaPcm::write(const std::int16_t* samples, std::size_t count) {
    while (count > 0) {
        snd_pcm_sframes_t written = snd_pcm_writei(pcm_.get(), samples, count);
        if (written == -EAGAIN) {
            continue;
        }
        if (written < 0) {
            // An underrun (EPIPE) or a suspended device (ESTRPIPE): recover, then write the rest.
            if (int error = snd_pcm_recover(pcm_.get(), static_cast<int>(written), 1); error < 0) {
                return failure("write", error);
            }
            continue;
        }
        samples += written;
        count -= static_cast<std::size_t>(written);
    }
    return std::nullopt;
}

void AlsaPcm::drain() { snd_pcm_drain(pcm_.get()); }

void AlsaPcm::drop() { snd_pcm_drop(pcm_.get()); }

}  // namespace vivaref::drivers
