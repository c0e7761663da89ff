#include "daemon/config/config_summary.hpp"

#include <map>
#include <set>

namespace vivaref::config {
namespace {

struct Counts {
    std::size_t readers = 0;
    std::map<std::string, std::size_t> readersByType;
    std::set<std::string> places;
    std::size_t enrolmentReaders = 0;
    std::set<GpioLine> lines;
    std::set<std::string> chips;
};

Counts countsOf(const CastleConfig& c) {
    Counts n;
    const auto layout = c.layout();
    n.readers = layout.readerCount();
    if (c.readers.empty()) n.readersByType["sim"] = n.readers;
    for (std::size_t p = 0; p < layout.placeCount(); ++p) {
        if (layout.place(p).name != kEnrolmentPlace) n.places.insert(layout.place(p).name);
    }
    auto line = [&](const GpioLine& l) {
        n.lines.insert(l);
        n.chips.insert(l.chip);
    };
    for (const auto& r : c.readers) {
        ++n.readersByType[std::string(readerTypeName(r.type))];
        if (r.place == kEnrolmentPlace) ++n.enrolmentReaders;
        if (r.chipSelect) line(*r.chipSelect);
    }
    for (const auto& s : c.stations)
        for (const auto* pin : {&s.yes, &s.no, &s.stomachache, &s.led})
            if (*pin) line((*pin)->gpio);
    for (const auto& [place, pin] : c.placeLeds) line(pin.gpio);
    for (const auto& [seat, pin] : c.turnLeds) line(pin.gpio);
    return n;
}

std::string plural(std::size_t n, const std::string& word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

std::string summaryText(const CastleConfig& c) {
    const Counts n = countsOf(c);
    std::string types;
    for (const auto& [type, count] : n.readersByType)
        types += (types.empty() ? "" : ", ") + std::to_string(count) + " " + type;
    std::string text = "A " + std::string(castleEditionName(c.edition)) + " castle on " +
                       (c.daemon.hardware == Hardware::Real ? "real" : "simulated") +
                       " hardware: " + plural(n.readers, "reader") + " (" + types + ") over " +
                       plural(n.places.size(), "place") +
                       (c.readers.empty() ? " (the simulated standard castle)" : "");
    if (n.enrolmentReaders > 0) text += ", " + std::to_string(n.enrolmentReaders) + " of them for enrolment";
    text += "; " + plural(c.stations.size(), "vote station") + "; " +
            plural(c.placeLeds.size(), "place LED") + " and " + plural(c.turnLeds.size(), "turn LED") + "; " +
            plural(n.lines.size(), "GPIO line") + " on " + plural(n.chips.size(), "chip") +
            ". Sensing: a tag counts when seen in most of " + std::to_string(c.sensing.majorityScans) +
            " scans and read across " + std::to_string(c.sensing.stabilityWindow.count()) +
            " ms, in hand for up to " + std::to_string(c.sensing.inHandGrace.count()) + " ms; " +
            (c.daemon.hardware == Hardware::Real
                 ? "readers scanned back to back, fields " + std::string(fieldRuleName(c.fieldRule))
                 : "the simulated readers scanned back to back as real ones, fields adjacent-levels") +
            "; buttons debounced for " + std::to_string(c.buttonDebounce.count()) +
            " ms. The status page is on " + c.daemon.httpAddress + ":" + std::to_string(c.daemon.httpPort) +
            (c.daemon.hostToken.empty() ? " with the host secret" : " with a host password") +
            "; the game log is " + c.databasePath().string() + " and the tag registry " +
            c.tagRegistryPath().string() + ".";
    if (c.club)
        text += " Finished games go to the club at " + c.club->serverText() + " (database " +
                c.club->database + ") as table " + c.club->table + ", user " + c.club->user + ", sslmode " +
                c.club->sslmode +
                (c.club->passwordFile.empty()
                     ? (c.club->password.empty() ? ", no password"
                                                 : ", the password written in this configuration")
                     : ", password from " + c.club->passwordFile.string()) +
                "." + (c.club->league ? " The league's pages read it as " + c.club->leagueUser + "." : "");
    return text;
}

nlohmann::ordered_json summaryJson(const CastleConfig& c) {
    const Counts n = countsOf(c);
    return {
        {"edition", castleEditionName(c.edition)},
        {"hardware", hardwareName(c.daemon.hardware)},
        {"readers", n.readers},
        {"readers_by_type", n.readersByType},
        {"places", n.places},
        {"enrolment_readers", n.enrolmentReaders},
        {"stations", c.stations.size()},
        {"place_leds", c.placeLeds.size()},
        {"turn_leds", c.turnLeds.size()},
        {"gpio_lines", n.lines.size()},
        {"http", c.daemon.httpAddress + ":" + std::to_string(c.daemon.httpPort)},
        {"host_password", !c.daemon.hostToken.empty()},
        {"database", c.databasePath().string()},
        {"tag_registry", c.tagRegistryPath().string()},
        {"club",
         c.club ? nlohmann::ordered_json{{"server", c.club->serverText()},
                                         {"database", c.club->database},
                                         {"table", c.club->table},
                                         {"user", c.club->user},
                                         {"password", !c.club->passwordFile.empty() ? "file"
                                                      : c.club->password.empty()    ? "none"
                                                                                    : "in the configuration"},
                                         {"sslmode", c.club->sslmode},
                                         {"league_user", c.club->league
                                                             ? nlohmann::ordered_json(c.club->leagueUser)
                                                             : nlohmann::ordered_json(nullptr)}}
                : nlohmann::ordered_json(nullptr)},
    };
}

}  // namespace vivaref::config
