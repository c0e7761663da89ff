#include "daemon/config/config_writer.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "daemon/config/ini_reader.hpp"

namespace vivaref::config {
namespace {

// Whether `text` is UTF-8 (the reader refuses a line that is not).
bool writerUtf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t length = c < 0x80           ? 1
                                   : (c >> 5) == 0x6  ? 2
                                   : (c >> 4) == 0xE  ? 3
                                   : (c >> 3) == 0x1E ? 4
                                                      : 0;
        if (length == 0 || i + length > text.size()) return false;
        for (std::size_t k = 1; k < length; ++k)
            if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return false;
        i += length;
    }
    return true;
}

// Why `value` cannot stand after `key = ` and read back the same, or empty.
std::string unwritableWhy(std::string_view value) {
    if (value.find('#') != std::string_view::npos)
        return "holds a '#', which starts a comment in the file: no value can hold one";
    if (!writerUtf8(value)) return "is not UTF-8 text";
    for (char c : value) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7F) return "holds a line break or another control character";
    }
    if (!value.empty() &&
        (value.front() == ' ' || value.front() == '\t' || value.back() == ' ' || value.back() == '\t'))
        return "starts or ends with a space, which reading the file drops";
    return {};
}

bool writerNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// The castle's sections as text, or the first thing that cannot be written.
class CastleWriter {
public:
    explicit CastleWriter(const CastleConfig& c) : c_(c) {}

    bool refused() const { return !refusedKey_.empty(); }
    const std::string& refusedKey() const { return refusedKey_; }
    const std::string& refusedReason() const { return refusedReason_; }

    std::string castleSection() {
        std::ostringstream out;
        out << "[castle]\n"
               "# Which board (classic or 2024), and which readers may have their RF fields on together.\n";
        const std::string section = "castle";
        entry(out, section + ".edition", "edition", castleEditionName(c_.edition));
        entry(out, section + ".fields", "fields", fieldRuleName(c_.fieldRule));
        entry(out, section + ".max_fields_on", "max_fields_on", std::to_string(c_.maxFieldsOn));
        return out.str();
    }

    // [sensing], [buttons], [leds], then the readers and the stations.
    std::string hardwareSections() {
        std::ostringstream out;
        sensing(out);
        buttons(out);
        leds(out);
        readers(out);
        stations(out);
        return out.str();
    }

private:
    void entry(std::ostringstream& out, const std::string& fullKey, std::string_view key,
               std::string_view value) {
        if (refused()) return;
        if (auto why = unwritableWhy(value); !why.empty()) {
            refusedKey_ = fullKey;
            refusedReason_ = "the value '" + std::string(value) + "' " + why;
            return;
        }
        out << key << " = " << value << "\n";
    }
    void refuse(std::string key, std::string reason) {
        if (refused()) return;
        refusedKey_ = std::move(key);
        refusedReason_ = std::move(reason);
    }
    static std::string millis(Timestamp t) { return std::to_string(t.count()); }
    static std::string yesNo(bool b) { return b ? "true" : "false"; }

    void sensing(std::ostringstream& out) {
        const auto& k = c_.sensing;
        const auto& b = c_.backoff;
        out << "\n[sensing]\n"
               "# How a reader's scans become a tag seen or lost, and how a failing reader is retried.\n";
        entry(out, "sensing.majority_scans", "majority_scans", std::to_string(k.majorityScans));
        entry(out, "sensing.sticky_presence", "sticky_presence", yesNo(k.stickyPresence));
        entry(out, "sensing.lost_after_misses", "lost_after_misses", std::to_string(k.lostAfterMisses));
        entry(out, "sensing.stability_window_ms", "stability_window_ms", millis(k.stabilityWindow));
        entry(out, "sensing.in_hand_at_once", "in_hand_at_once", yesNo(k.inHandAtOnce));
        entry(out, "sensing.in_hand_grace_ms", "in_hand_grace_ms", millis(k.inHandGrace));
        entry(out, "sensing.faulty_after_failures", "faulty_after_failures",
              std::to_string(k.faultyAfterFailures));
        entry(out, "sensing.blind_leave_wait_ms", "blind_leave_wait_ms", millis(k.blindLeaveWait));
        entry(out, "sensing.backoff_after_failures", "backoff_after_failures",
              std::to_string(b.failuresBeforeBackoff));
        entry(out, "sensing.first_backoff_ms", "first_backoff_ms", millis(b.firstBackoff));
        entry(out, "sensing.max_backoff_ms", "max_backoff_ms", millis(b.maxBackoff));
        entry(out, "sensing.scan_interval_ms", "scan_interval_ms", millis(c_.scanInterval));
    }

    // The wiring most keys have is the section's default; the others say theirs after their line.
    void buttons(std::ostringstream& out) {
        std::map<std::pair<bool, Bias>, int> counts;
        for (const auto& s : c_.stations)
            for (const auto* pin : {&s.yes, &s.no, &s.stomachache})
                if (*pin) ++counts[{(*pin)->activeLow, (*pin)->bias}];
        buttonDefaults_ = {true, Bias::PullUp};
        int most = 0;
        for (const auto& [wiring, n] : counts)
            if (n > most || (n == most && wiring == std::pair{true, Bias::PullUp})) {
                most = n;
                buttonDefaults_ = wiring;
            }
        out << "\n[buttons]\n"
               "# How long a press must hold, and how most vote keys are wired (active_low: pressed reads\n"
               "# low). A key wired otherwise says so after its line.\n";
        entry(out, "buttons.debounce_ms", "debounce_ms", millis(c_.buttonDebounce));
        entry(out, "buttons.active_low", "active_low", yesNo(buttonDefaults_.first));
        entry(out, "buttons.bias", "bias", biasName(buttonDefaults_.second));
    }

    void leds(std::ostringstream& out) {
        int low = 0, high = 0;
        auto count = [&](const GpioPin& pin) { ++(pin.activeLow ? low : high); };
        for (const auto& [place, pin] : c_.placeLeds) count(pin);
        for (const auto& [seat, pin] : c_.turnLeds) count(pin);
        for (const auto& s : c_.stations)
            if (s.led) count(*s.led);
        ledActiveLow_ = low > high;
        out << "\n[leds]\n"
               "# How most LEDs are wired (active_low: lit when the line is low); one LED per place, named\n"
               "# as in game records (6 is the throne), and one turn LED per seat.\n";
        entry(out, "leds.active_low", "active_low", yesNo(ledActiveLow_));
        // The places in the board's order, not the map's.
        std::vector<std::string> order = castlePlaces(CastleEdition::Vive2024);
        for (const auto& [place, pin] : c_.placeLeds)
            if (std::find(order.begin(), order.end(), place) == order.end()) order.push_back(place);
        for (const auto& place : order) {
            auto it = c_.placeLeds.find(place);
            if (it == c_.placeLeds.end()) continue;
            if (auto why = unwritableWhy(place);
                !why.empty() || place.empty() || !std::all_of(place.begin(), place.end(), writerNameChar))
                refuse("leds.place." + place,
                       "'" + place + "' cannot be written as a key: a place is 0-6, wc3...");
            entry(out, "leds.place." + place, "place." + place, ledText("leds.place." + place, it->second));
        }
        for (const auto& [seat, pin] : c_.turnLeds)
            entry(out, "leds.turn." + std::to_string(seat), "turn." + std::to_string(seat),
                  ledText("leds.turn." + std::to_string(seat), pin));
    }

    std::string lineText(const std::string& key, const GpioLine& line) {
        if (line.chip.empty() || !std::all_of(line.chip.begin(), line.chip.end(), writerNameChar))
            refuse(key, "the GPIO chip '" + line.chip + "' is not a chip's name, e.g. gpiochip0");
        return line.text();
    }

    std::string ledText(const std::string& key, const GpioPin& pin) {
        if (pin.bias != Bias::AsIs) refuse(key, "an LED is an output: it has no bias to write");
        std::string text = lineText(key, pin.gpio);
        if (pin.activeLow != ledActiveLow_) text += pin.activeLow ? " active-low" : " active-high";
        return text;
    }

    std::string keyText(const std::string& key, const GpioPin& pin) {
        std::string text = lineText(key, pin.gpio);
        if (pin.activeLow != buttonDefaults_.first) text += pin.activeLow ? " active-low" : " active-high";
        if (pin.bias != buttonDefaults_.second)
            text += pin.bias == Bias::Disabled ? std::string(" bias-disabled")
                                               : " " + std::string(biasName(pin.bias));
        return text;
    }

    void readers(std::ostringstream& out) {
        if (c_.readers.empty()) return;
        out << "\n# ---- Readers: one section each, [reader.NAME], the name logs and the castle page use.\n"
               "# place: what it lies under (0-5, 6 the throne, wc3, wc4, dungeon1-3, or enrolment);\n"
               "# chip_select: bus (the SPI device's own line) or the GPIO line that selects it.\n";
        for (const auto& r : c_.readers) {
            const std::string key = "reader." + r.name;
            if (r.name.empty() || !std::all_of(r.name.begin(), r.name.end(), writerNameChar))
                refuse("[" + key + "]",
                       "'" + r.name + "' is not a reader's name: letters, digits, '-' and '_'");
            out << "\n[" << key << "]\n";
            entry(out, key + ".place", "place", r.place);
            entry(out, key + ".type", "type", readerTypeName(r.type));
            if (r.type != ReaderType::Sim) entry(out, key + ".bus", "bus", r.bus);
            if (r.type == ReaderType::Mfrc522) {
                entry(out, key + ".chip_select", "chip_select",
                      r.chipSelect ? lineText(key + ".chip_select", *r.chipSelect) : std::string("bus"));
                if (r.spiHz != ReaderConfig{}.spiHz)
                    entry(out, key + ".spi_hz", "spi_hz", std::to_string(r.spiHz));
            }
            if (r.neighbours.empty()) continue;
            std::string names;
            for (const auto& n : r.neighbours) {
                if (n.empty() || !std::all_of(n.begin(), n.end(), writerNameChar))
                    refuse(key + ".neighbours", "'" + n + "' is not a reader's name");
                names += (names.empty() ? "" : " ") + n;
            }
            entry(out, key + ".neighbours", "neighbours", names);
        }
    }

    void stations(std::ostringstream& out) {
        if (c_.stations.empty()) return;
        out << "\n# ---- Vote stations: one per seat, [station.SEAT], numbered from 0; their keys and LED.\n";
        for (const auto& s : c_.stations) {
            const std::string key = "station." + std::to_string(s.seat);
            out << "\n[" << key << "]\n";
            auto pin = [&](std::string_view name, const std::optional<GpioPin>& p, bool isKey) {
                if (!p) return;
                const std::string full = key + "." + std::string(name);
                entry(out, full, name, isKey ? keyText(full, *p) : ledText(full, *p));
            };
            pin("yes", s.yes, true);
            pin("no", s.no, true);
            pin("stomachache", s.stomachache, true);
            pin("led", s.led, false);
        }
    }

    const CastleConfig& c_;
    std::pair<bool, Bias> buttonDefaults_{true, Bias::PullUp};
    bool ledActiveLow_ = false;
    std::string refusedKey_, refusedReason_;
};

// The base file's sections that are not the castle's, each as its lines
// (header to the line before the next header, blank lines at its end
// dropped), in the file's order.
// Keys of the kept sections whose value is a file relative to the
// configuration's own directory.
bool isRelativeFileKey(const IniEntry& e) { return e.section == "daemon" && e.key == "sim_bench"; }

// The [daemon] keys a CastleConfig may change in a kept section: its
// hardware (the set-up page's "use this castle's readers"), and with it the
// simulated castle's bench, which real readers do not play. `hardware = ...`
// is written where the base has it, else right under the section's header;
// a bench put aside stays as a comment, so that the file still says where it was.
struct DaemonKeys {
    std::string hardware;  // "sim" or "real"
};

std::string keptSections(std::string_view baseText, const std::filesystem::path& baseDirectory,
                         const DaemonKeys& daemon) {
    if (baseText.starts_with("\xEF\xBB\xBF")) baseText.remove_prefix(3);
    ConfigProblems
        ignored;  // the file in force was checked when it was read; a new one is checked before it is saved
    const IniFile ini = readIni(baseText, "base", ignored);
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start < baseText.size();) {
        auto end = baseText.find('\n', start);
        if (end == std::string_view::npos) end = baseText.size();
        std::string_view line = baseText.substr(start, end - start);
        if (line.ends_with('\r')) line.remove_suffix(1);
        lines.push_back(line);
        start = end + 1;
    }
    const auto entryOn = [&ini](int number, std::string_view section, std::string_view key) {
        return std::any_of(ini.entries.begin(), ini.entries.end(), [&](const IniEntry& e) {
            return e.line == number && e.section == section && e.key == key;
        });
    };
    const bool statesHardware = std::any_of(ini.entries.begin(), ini.entries.end(), [](const IniEntry& e) {
        return e.section == "daemon" && e.key == "hardware";
    });
    const bool hasDaemon = std::any_of(ini.sections.begin(), ini.sections.end(),
                                       [](const IniSection& section) { return section.name == "daemon"; });
    std::string out;
    if (!hasDaemon && daemon.hardware == "real") out += "\n[daemon]\nhardware = real\n";
    for (std::size_t i = 0; i < ini.sections.size(); ++i) {
        if (isCastleSection(ini.sections[i].name)) continue;
        const auto first = static_cast<std::size_t>(ini.sections[i].line - 1);
        auto last = i + 1 < ini.sections.size() ? static_cast<std::size_t>(ini.sections[i + 1].line - 1)
                                                : lines.size();
        while (last > first + 1 && lines[last - 1].find_first_not_of(" \t") == std::string_view::npos) --last;
        out += "\n";
        for (std::size_t k = first; k < last && k < lines.size(); ++k) {
            const int number = static_cast<int>(k + 1);
            if (ini.sections[i].name == "daemon") {
                if (k == first && !statesHardware) {
                    out.append(lines[k]) += "\nhardware = " + daemon.hardware + "\n";
                    continue;
                }
                const auto hardware =
                    std::find_if(ini.entries.begin(), ini.entries.end(), [&](const IniEntry& e) {
                        return e.line == number && e.section == "daemon" && e.key == "hardware";
                    });
                if (hardware != ini.entries.end() && hardware->value != daemon.hardware) {
                    out += "hardware = " + daemon.hardware + "\n";
                    continue;
                }
                if (entryOn(number, "daemon", "sim_bench") && daemon.hardware == "real") {
                    out += "# (the simulated castle's bench, not used by this configuration) ";
                    out.append(lines[k]) += '\n';
                    continue;
                }
            }
            const auto moved = std::find_if(ini.entries.begin(), ini.entries.end(), [&](const IniEntry& e) {
                return e.line == number && isRelativeFileKey(e) && !e.value.empty() &&
                       !e.value.starts_with('/');
            });
            if (moved != ini.entries.end() && !baseDirectory.empty())
                out += moved->key + " = " + (baseDirectory / moved->value).lexically_normal().string() + "\n";
            else
                out.append(lines[k]) += '\n';
        }
    }
    return out;
}

}  // namespace

bool isCastleSection(std::string_view section) {
    return section == "castle" || section == "sensing" || section == "buttons" || section == "leds" ||
           section.starts_with("reader.") || section.starts_with("station.");
}

WrittenConfig writeCastleConfig(const CastleConfig& castle, std::string_view baseText,
                                const std::filesystem::path& baseDirectory) {
    CastleWriter writer(castle);
    std::string text =
        "# The castle's configuration, written by vivaref (the host page's set-up). It is an\n"
        "# ordinary configuration: `vivaref check-config FILE` checks it and it may be edited by\n"
        "# hand; daemon/config/examples/castle-2024.ini explains every key. The sections other\n"
        "# than the castle's are kept as the configuration it replaced had them.\n\n";
    text += writer.castleSection();
    text +=
        keptSections(baseText, baseDirectory, DaemonKeys{std::string(hardwareName(castle.daemon.hardware))});
    text += writer.hardwareSections();
    WrittenConfig written;
    if (writer.refused()) {
        written.refusedKey = writer.refusedKey();
        written.refusedReason = writer.refusedReason();
        return written;
    }
    written.text = std::move(text);
    return written;
}

std::string withSecretsHidden(std::string_view text) {
    // A line-level pass over the INI's own syntax (ini_reader.hpp): a
    // section header, or `key = value` whose key names a secret there.
    auto trimmed = [](std::string_view t) {
        while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
        while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r')) t.remove_suffix(1);
        return t;
    };
    std::string out, section;
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        const bool lastHadBreak = end != std::string_view::npos;
        const auto content = trimmed(line.substr(0, line.find('#')));
        if (content.starts_with('[') && content.ends_with(']'))
            section = trimmed(content.substr(1, content.size() - 2));
        const auto equals = content.find('=');
        const auto key =
            equals == std::string_view::npos ? std::string_view{} : trimmed(content.substr(0, equals));
        const bool secret = (section == "daemon" && key == "host_token") ||
                            (section == "club" && (key == "password" || key == "league_password"));
        if (secret)
            out.append(line.substr(0, line.find('=') + 1)).append(" ").append(kHiddenValue);
        else
            out.append(line);
        if (lastHadBreak) out.push_back('\n');
    }
    return out;
}

}  // namespace vivaref::config
