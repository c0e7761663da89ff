// The first way two CastleConfigs differ, said for a test's failure; empty
// when they describe the same castle. Where things were in their files
// (source lines, keyLines, the file's name) does not count.
#pragma once

#include <sstream>
#include <string>

#include "daemon/config/castle_config.hpp"

namespace vivaref::config::testing {

inline std::string pinText(const std::optional<GpioPin>& p) {
    if (!p) return "none";
    return p->gpio.text() + (p->activeLow ? " low" : " high") + " " + std::string(biasName(p->bias));
}

inline std::string castleDifference(const CastleConfig& a, const CastleConfig& b) {
    std::ostringstream d;
    auto differ = [&](const std::string& what, const auto& x, const auto& y) {
        if (d.tellp() == 0 && !(x == y)) d << what << " differs";
    };
    differ("edition", a.edition, b.edition);
    differ("reader count", a.readers.size(), b.readers.size());
    for (std::size_t i = 0; i < a.readers.size() && i < b.readers.size(); ++i) {
        const auto &r = a.readers[i], &s = b.readers[i];
        const std::string what = "reader " + std::to_string(i) + " (" + r.name + ") ";
        differ(what + "name", r.name, s.name);
        differ(what + "place", r.place, s.place);
        differ(what + "type", r.type, s.type);
        differ(what + "bus", r.bus, s.bus);
        differ(what + "chip select", r.chipSelect, s.chipSelect);
        differ(what + "spi_hz", r.spiHz, s.spiHz);
        differ(what + "neighbours", r.neighbours, s.neighbours);
    }
    differ("station count", a.stations.size(), b.stations.size());
    for (std::size_t i = 0; i < a.stations.size() && i < b.stations.size(); ++i) {
        const auto &s = a.stations[i], &t = b.stations[i];
        const std::string what = "station " + std::to_string(i) + " ";
        differ(what + "seat", s.seat, t.seat);
        differ(what + "yes", pinText(s.yes), pinText(t.yes));
        differ(what + "no", pinText(s.no), pinText(t.no));
        differ(what + "stomachache", pinText(s.stomachache), pinText(t.stomachache));
        differ(what + "led", pinText(s.led), pinText(t.led));
    }
    differ("place LED count", a.placeLeds.size(), b.placeLeds.size());
    for (const auto& [place, pin] : a.placeLeds)
        differ("place LED " + place, pinText(pin),
               b.placeLeds.contains(place) ? pinText(b.placeLeds.at(place)) : "none");
    differ("turn LED count", a.turnLeds.size(), b.turnLeds.size());
    for (const auto& [seat, pin] : a.turnLeds)
        differ("turn LED " + std::to_string(seat), pinText(pin),
               b.turnLeds.contains(seat) ? pinText(b.turnLeds.at(seat)) : "none");
    differ("debounce", a.buttonDebounce, b.buttonDebounce);
    const auto &k = a.sensing, &l = b.sensing;
    differ("majority_scans", k.majorityScans, l.majorityScans);
    differ("sticky_presence", k.stickyPresence, l.stickyPresence);
    differ("lost_after_misses", k.lostAfterMisses, l.lostAfterMisses);
    differ("stability_window_ms", k.stabilityWindow, l.stabilityWindow);
    differ("in_hand_at_once", k.inHandAtOnce, l.inHandAtOnce);
    differ("in_hand_grace_ms", k.inHandGrace, l.inHandGrace);
    differ("faulty_after_failures", k.faultyAfterFailures, l.faultyAfterFailures);
    differ("blind_leave_wait_ms", k.blindLeaveWait, l.blindLeaveWait);
    differ("backoff_after_failures", a.backoff.failuresBeforeBackoff, b.backoff.failuresBeforeBackoff);
    differ("first_backoff_ms", a.backoff.firstBackoff, b.backoff.firstBackoff);
    differ("max_backoff_ms", a.backoff.maxBackoff, b.backoff.maxBackoff);
    differ("scan_interval_ms", a.scanInterval, b.scanInterval);
    differ("fields", a.fieldRule, b.fieldRule);
    differ("max_fields_on", a.maxFieldsOn, b.maxFieldsOn);
    differ("raw_scans_kept", a.rawScansKept, b.rawScansKept);
    const auto &m = a.daemon, &n = b.daemon;
    differ("hardware", m.hardware, n.hardware);
    differ("http_address", m.httpAddress, n.httpAddress);
    differ("http_port", m.httpPort, n.httpPort);
    differ("host_token", m.hostToken, n.hostToken);
    differ("http_names", m.httpNames, n.httpNames);
    differ("trusted_proxies", m.trustedProxies, n.trustedProxies);
    differ("language", m.language, n.language);
    differ("teaching", m.teaching, n.teaching);
    differ("phone_away_after", m.phoneAwayAfter, n.phoneAwayAfter);
    differ("state_dir", m.stateDirectory, n.stateDirectory);
    differ("database", m.database, n.database);
    differ("club", a.club.has_value(), b.club.has_value());
    if (a.club && b.club) {
        differ("club server", a.club->serverText(), b.club->serverText());
        differ("club table", a.club->table, b.club->table);
        differ("club user", a.club->user, b.club->user);
        differ("club password", a.club->password, b.club->password);
    }
    differ("voice", a.voice.settings, b.voice.settings);
    differ("voice pcm", a.voice.pcm, b.voice.pcm);
    differ("voice output", a.voice.output, b.voice.output);
    return d.str();
}

}  // namespace vivaref::config::testing
