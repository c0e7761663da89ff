// What the systemd service may reach, worked out from the castle
// configuration: the device nodes its readers, keys and LEDs use, the groups
// that own them, and the TCP port it listens on. `vivaref unit-access`
// writes this as a drop-in for vivaref.service (systemd/vivaref-generator
// runs it at boot and at every `systemctl daemon-reload`), so the service
// reaches exactly the buses its configuration names and nothing else.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "daemon/config/castle_config.hpp"

namespace vivaref::config {

struct UnitAccess {
    // DeviceAllow= values: the nodes ("/dev/spidev0.0", "/dev/gpiochip2"),
    // sorted, each once; "char-alsa" for the voice's sound card.
    std::vector<std::string> devices;
    std::vector<std::string> groups;  // SupplementaryGroups=, sorted
    std::uint16_t port = 8080;        // SocketBindAllow=tcp:PORT
};

// The simulated castle needs no device and no group, unless its voice
// speaks through espeak-ng (`[voice] output = espeak`); a real castle's voice
// does unless `output = none`: ALSA's nodes ("char-alsa") and the audio group.
UnitAccess unitAccess(const CastleConfig& config);

// The drop-in's text: a [Service] section that replaces the packaged unit's
// DeviceAllow=, SupplementaryGroups= and SocketBindAllow= lists, plus
// PrivateUsers=yes when no device group is needed. `source` names the
// configuration in its comment.
std::string unitDropIn(const UnitAccess& access, const std::string& source);

}  // namespace vivaref::config
