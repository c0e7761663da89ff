#include "daemon/config/config_file.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "daemon/club/club_link.hpp"
#include "daemon/config/config_values.hpp"
#include "daemon/config/ini_reader.hpp"
#include "daemon/config/section_reader.hpp"
#include "daemon/words/catalog.hpp"

namespace vivaref::config {
namespace {

bool isReaderName(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
               c == '_';
    });
}

class CastleConfigReader {
public:
    CastleConfigReader(const std::string& file, ConfigProblems& problems)
        : file_(file), problems_(problems) {}

    CastleConfig read(std::string_view text) {
        config_.sourceFile = file_;
        config_.daemon.stateDirectory = defaultStateDirectory();
        const IniFile ini = readIni(text, file_, problems_);
        for (const auto& s : ini.sections) config_.keyLines.emplace("[" + s.name + "]", s.line);
        for (const auto& e : ini.entries) config_.keyLines.emplace(e.fullKey(), e.line);
        group(ini);
        // The sections others depend on first, whatever their order in the file.
        for (const char* name :
             {"castle", "daemon", "store", "sensing", "buttons", "leds", "club", "voice"}) {
            if (auto it = sections_.find(name); it != sections_.end()) readPlainSection(it->second);
        }
        for (auto& [name, section] : sections_) {
            if (name.starts_with("reader."))
                readReader(section);
            else if (name.starts_with("station."))
                readStation(section);
        }
        std::stable_sort(config_.stations.begin(), config_.stations.end(),
                         [](const StationConfig& a, const StationConfig& b) { return a.seat < b.seat; });
        std::sort(config_.readers.begin(), config_.readers.end(),
                  [](const ReaderConfig& a, const ReaderConfig& b) { return a.sourceLine < b.sourceLine; });
        if (!hardwareGiven_) {
            const bool anyRealReader =
                std::any_of(config_.readers.begin(), config_.readers.end(),
                            [](const ReaderConfig& r) { return r.type != ReaderType::Sim; });
            config_.daemon.hardware = anyRealReader ? Hardware::Real : Hardware::Sim;
        }
        return std::move(config_);
    }

private:
    // Sections by name, each once; unknown sections are reported here.
    void group(const IniFile& ini) {
        std::map<std::string, int> firstLine;
        for (const auto& s : ini.sections) {
            auto [it, isNew] = firstLine.emplace(s.name, s.line);
            if (!isNew) {
                problems_.push_back({file_, s.line, "[" + s.name + "]",
                                     "the section appears twice (first on line " +
                                         std::to_string(it->second) + "): give each section once"});
            }
        }
        std::map<std::string, std::vector<const IniEntry*>> bySection;
        for (const auto& e : ini.entries) {
            auto& list = bySection[e.section];
            auto same =
                std::find_if(list.begin(), list.end(), [&](const IniEntry* o) { return o->key == e.key; });
            if (same != list.end()) {
                problems_.push_back({file_, e.line, e.fullKey(),
                                     "given twice (first on line " + std::to_string((*same)->line) +
                                         "): give each key once"});
                continue;
            }
            list.push_back(&e);
        }
        for (const auto& [name, line] : firstLine) {
            if (!isKnownSection(name, line)) continue;
            sections_.emplace(name, SectionReader(name, line, bySection[name], file_, problems_));
        }
    }

    bool isKnownSection(const std::string& name, int line) {
        static const std::set<std::string> kPlain = {"castle",  "daemon", "store", "sensing",
                                                     "buttons", "leds",   "club",  "voice"};
        if (kPlain.contains(name)) return true;
        auto refuse = [&](std::string reason) {
            problems_.push_back({file_, line, "[" + name + "]", std::move(reason)});
            return false;
        };
        if (name.starts_with("reader.")) {
            if (isReaderName(name.substr(7))) return true;
            return refuse("a reader's name is letters, digits, '-' and '_': [reader.floor3-a]");
        }
        if (name.starts_with("station.")) {
            std::string why;
            if (parseInteger(name.substr(8), 0, kMaxStations - 1, why)) return true;
            return refuse("a station is numbered as its seat, from 0 to " + std::to_string(kMaxStations - 1) +
                          ": [station.0]");
        }
        return refuse(
            "unknown section; the sections are [castle], [daemon], [store], [sensing], [buttons], [leds], "
            "[club], [voice], [reader.NAME] and [station.SEAT]");
    }

    void readPlainSection(SectionReader& s) {
        if (s.name() == "castle") readCastle(s);
        if (s.name() == "daemon") readDaemon(s);
        if (s.name() == "store") s.integer("raw_scans_kept", 0, 1'000'000'000, config_.rawScansKept);
        if (s.name() == "sensing") readSensing(s);
        if (s.name() == "buttons") readButtons(s);
        if (s.name() == "leds") readLeds(s);
        if (s.name() == "club") readClub(s);
        if (s.name() == "voice") readVoice(s);
        s.reportUnknown();
    }

    // [club]: server and table are needed; the password from a file.
    // [voice]: enabled, volume, moments, pcm, output.
    void readVoice(SectionReader& s) {
        auto& v = config_.voice;
        s.boolean("enabled", v.settings.enabled);
        s.integer("volume", 0, 100, v.settings.volume);
        if (const IniEntry* e = s.take("moments")) {
            std::string why;
            if (auto moments = voice::VoiceMoments::parse(e->value, why))
                v.settings.moments = *moments;
            else
                s.problem(*e, why);
        }
        if (const IniEntry* e = s.take("pcm")) {
            if (!e->value.empty() && e->value.find_first_of(" \t") == std::string::npos)
                v.pcm = e->value;
            else
                s.problem(*e, "'" + e->value + "' is not an ALSA PCM name, e.g. default, plughw:1,0 or dmix");
        }
        if (const IniEntry* e = s.take("output")) {
            if (e->value == "auto")
                v.output = VoiceOutput::Auto;
            else if (e->value == "espeak")
                v.output = VoiceOutput::Espeak;
            else if (e->value == "none")
                v.output = VoiceOutput::None;
            else
                s.problem(*e, "'" + e->value +
                                  "' is not a voice output: auto (espeak-ng on a real castle, silent on a "
                                  "simulated one), espeak or none");
        }
    }

    void readClub(SectionReader& s) {
        ClubConfig club;
        club.sourceLine = s.line();
        bool usable = readClubServer(s, club);
        if (const IniEntry* e = s.take("database")) {
            if (!e->value.empty())
                club.database = e->value;
            else
                s.problem(*e, "the club's database name is empty");
        }
        if (const IniEntry* e = s.take("table")) {
            if (club::isClubTableName(e->value))
                club.table = e->value;
            else {
                s.problem(*e, "'" + e->value +
                                  "' is not a table name: 1 to 40 lowercase letters, digits, '-' and '_', "
                                  "starting with a letter or a digit");
                usable = false;
            }
        } else {
            s.missing("table", "this table's name in the club is needed: table = north-hall");
            usable = false;
        }
        if (const IniEntry* e = s.take("user")) {
            if (!e->value.empty())
                club.user = e->value;
            else
                s.problem(*e, "the user is empty; leave the key out for <database>_table_<table>");
        }
        if (club.user.empty() && !club.table.empty()) club.user = defaultClubUser(club.database, club.table);
        readSecret(s, "password", "/etc/vivaref/club-password", club.passwordFile, club.password);
        readClubTls(s, club);
        s.integer("connect_timeout", 2, 300, club.connectTimeout);
        // The league's pages: the read-only role's login (any key enables them).
        if (const IniEntry* e = s.take("league_user")) {
            club.league = true;
            if (!e->value.empty())
                club.leagueUser = e->value;
            else
                s.problem(*e, "the league's user is empty; leave the key out for <database>_league");
        }
        if (club.leagueUser.empty()) club.leagueUser = club.database + "_league";
        if (readSecret(s, "league_password", "/etc/vivaref/league-password", club.leaguePasswordFile,
                       club.leaguePassword))
            club.league = true;
        if (usable) config_.club = std::move(club);
    }

    // server = host[:port], [IPv6]:port or an absolute unix-socket directory
    // [:port]; false when it is missing or cannot be used.
    bool readClubServer(SectionReader& s, ClubConfig& club) {
        const IniEntry* e = s.take("server");
        if (!e) {
            s.missing("server",
                      "the club's server is needed: server = club.example.org[:5432], or its unix-socket "
                      "directory, server = /var/run/postgresql");
            return false;
        }
        std::string host = e->value;
        std::string port;
        // A unix-socket directory (a club whose server runs on this machine):
        // absolute, libpq finds .s.PGSQL.<port> in it; an optional ":port"
        // after it names another socket than 5432.
        const bool socketDir = host.starts_with('/');
        if (socketDir) {
            if (const auto colon = host.rfind(':');
                colon != std::string::npos && colon + 1 < host.size() &&
                host.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
                port = host.substr(colon + 1);
                host = host.substr(0, colon);
            }
        } else if (host.starts_with('.') || host.find('/') != std::string::npos) {
            s.problem(*e, "'" + e->value +
                              "' is a relative directory: a unix-socket directory is given absolute, "
                              "e.g. /var/run/postgresql");
            return false;
        } else if (host.starts_with('[')) {  // [IPv6]:port
            const auto close = host.find(']');
            if (close == std::string::npos) {
                s.problem(*e, "'" + e->value + "' is not host[:port]: an IPv6 address is written [::1]:5432");
                return false;
            }
            if (close + 1 < host.size() && host[close + 1] == ':') port = host.substr(close + 2);
            host = host.substr(1, close - 1);
        } else if (const auto colon = host.find(':'); colon != std::string::npos) {
            port = host.substr(colon + 1);
            host = host.substr(0, colon);
        }
        bool hostOk = socketDir || (!host.empty() && host.size() <= 253);
        if (!socketDir)
            for (char c : host)
                hostOk = hostOk && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                    (c >= '0' && c <= '9') || c == '.' || c == '-' || c == ':' || c == '_');
        club.host = host;
        if (!hostOk) {
            s.problem(
                *e, "'" + e->value + "' is not host[:port], e.g. club.example.org or club.example.org:5432");
            return false;
        }
        if (port.empty()) return true;
        std::string why;
        const auto p = parseInteger(port, 1, 65535, why);
        if (!p) {
            s.problem(*e, "the port: " + why);
            return false;
        }
        club.port = static_cast<std::uint16_t>(*p);
        return true;
    }

    // NAME_file (an absolute file holding it) or NAME itself, not both;
    // true when either is given. The secret is never repeated in a problem.
    bool readSecret(SectionReader& s, const std::string& name, const std::string& exampleFile,
                    std::filesystem::path& file, std::string& secret) {
        const IniEntry* fileEntry = s.take(name + "_file");
        const IniEntry* inlineEntry = s.take(name);
        if (fileEntry && inlineEntry)
            s.problem(*inlineEntry, "give " + name + "_file or " + name + ", not both");
        if (fileEntry) {
            if (auto path = existingFile(s, *fileEntry, exampleFile, "")) file = *path;
        } else if (inlineEntry) {
            secret = inlineEntry->value;
        }
        return fileEntry || inlineEntry;
    }

    // An absolute name of an existing file, or a problem said (`what` says
    // what the file is, after "is not a file").
    std::optional<std::filesystem::path> existingFile(SectionReader& s, const IniEntry& e,
                                                      const std::string& exampleFile,
                                                      const std::string& what) {
        std::error_code ec;
        if (!e.value.starts_with('/'))
            s.problem(e, "'" + e.value + "' is not an absolute file name, e.g. " + exampleFile);
        else if (!std::filesystem::is_regular_file(e.value, ec))
            s.problem(e, "'" + e.value + "' is not a file" + what);
        else
            return std::filesystem::path(e.value);
        return std::nullopt;
    }

    void readClubTls(SectionReader& s, ClubConfig& club) {
        const IniEntry* sslmode = s.take("sslmode");
        if (sslmode) {
            static const std::set<std::string> kModes = {"disable", "allow",     "prefer",
                                                         "require", "verify-ca", "verify-full"};
            if (kModes.contains(sslmode->value))
                club.sslmode = sslmode->value;
            else
                s.problem(
                    *sslmode,
                    "'" + sslmode->value +
                        "' is not an sslmode: disable, allow, prefer, require, verify-ca or verify-full");
        }
        const IniEntry* rootCert = s.take("sslrootcert");
        if (rootCert)
            if (auto path =
                    existingFile(s, *rootCert, "/etc/vivaref/club-ca.crt", " (the club's CA certificate)"))
                club.sslRootCert = *path;
        // Verifying needs the club's CA: without sslrootcert libpq would look
        // in ~/.postgresql/root.crt of the referee's user, where nobody puts it.
        if (sslmode && !rootCert && club.sslmode.starts_with("verify-"))
            s.problem(*sslmode,
                      "sslmode = " + club.sslmode +
                          " needs the club's CA certificate: sslrootcert = /etc/vivaref/club-ca.crt");
    }

    void readCastle(SectionReader& s) {
        if (const IniEntry* e = s.take("edition")) {
            if (e->value == "classic")
                config_.edition = CastleEdition::Classic;
            else if (e->value == "2024")
                config_.edition = CastleEdition::Vive2024;
            else
                s.problem(*e, "'" + e->value + "' is not an edition: classic or 2024");
        }
        if (const IniEntry* e = s.take("fields")) {
            bool known = false;
            for (FieldRule rule :
                 {FieldRule::OneAtATime, FieldRule::AdjacentLevels, FieldRule::SameOrAdjacentLevels}) {
                if (e->value != fieldRuleName(rule)) continue;
                config_.fieldRule = rule;
                known = true;
            }
            if (!known)
                s.problem(*e, "'" + e->value +
                                  "' is not a field rule: one-at-a-time, adjacent-levels or "
                                  "same-or-adjacent-levels");
        }
        s.integer("max_fields_on", 0, 64, config_.maxFieldsOn);
    }

    void readDaemon(SectionReader& s) {
        auto& d = config_.daemon;
        if (const IniEntry* e = s.take("hardware")) {
            hardwareGiven_ = true;
            if (e->value == "sim")
                d.hardware = Hardware::Sim;
            else if (e->value == "real")
                d.hardware = Hardware::Real;
            else
                s.problem(*e, "'" + e->value + "' is not a hardware: sim or real");
        }
        if (const IniEntry* e = s.take("http_address")) {
            std::string why;
            if (isListenAddress(e->value, why))
                d.httpAddress = e->value;
            else
                s.problem(*e, why);
        }
        s.integer("http_port", 1, 65535, d.httpPort);
        if (const IniEntry* e = s.take("host_token")) {
            std::string why;
            if (e->value.empty() || isStrongHostToken(e->value, why))
                d.hostToken = e->value;
            else
                s.problem(*e, why);
        }
        if (const IniEntry* e = s.take("http_names")) {
            std::string why;
            if (auto names = parseHttpNames(e->value, why))
                d.httpNames = std::move(*names);
            else
                s.problem(*e, why);
        }
        if (const IniEntry* e = s.take("trusted_proxies")) {
            std::string why;
            if (auto proxies = parseTrustedProxies(e->value, why))
                d.trustedProxies = std::move(*proxies);
            else
                s.problem(*e, why);
        }
        if (const IniEntry* e = s.take("language")) {
            if (words::findCatalog(e->value)) {
                d.language = e->value;
            } else {
                std::string shipped;
                for (const auto& l : words::shippedLanguages()) shipped += (shipped.empty() ? "" : ", ") + l;
                s.problem(*e, "'" + e->value + "' is not a language vivaref speaks: " + shipped);
            }
        }
        s.boolean("teaching", d.teaching);
        s.integer("phone_away_after", 3, 600, d.phoneAwayAfter);
        if (const IniEntry* e = s.take("state_dir")) {
            if (e->value.starts_with('/'))
                d.stateDirectory = e->value;
            else
                s.problem(*e, "'" + e->value + "' is not an absolute directory, e.g. /var/lib/vivaref");
        }
        if (const IniEntry* e = s.take("sim_bench")) {
            if (e->value.empty() || e->value.ends_with('/')) {
                s.problem(*e, "'" + e->value + "' is not a file name, e.g. bench.txt (beside this file)");
            } else {
                std::error_code ec;
                const std::filesystem::path given = std::filesystem::path(file_).parent_path() / e->value;
                const std::filesystem::path absolute = std::filesystem::absolute(given, ec);
                d.simBench = (ec ? given : absolute).lexically_normal();
            }
        }
        if (const IniEntry* e = s.take("database")) {
            if (!e->value.empty() && !e->value.ends_with('/'))
                d.database = e->value;
            else
                s.problem(*e, "'" + e->value + "' is not a file name, e.g. games.sqlite");
        }
    }

    void readSensing(SectionReader& s) {
        auto& k = config_.sensing;
        s.integer("majority_scans", 1, 15, k.majorityScans);
        s.boolean("sticky_presence", k.stickyPresence);
        s.integer("lost_after_misses", 1, 15, k.lostAfterMisses);
        s.boolean("in_hand_at_once", k.inHandAtOnce);
        s.millis("stability_window_ms", 0, 5'000, k.stabilityWindow);
        s.millis("in_hand_grace_ms", 1, 600'000, k.inHandGrace);
        s.integer("faulty_after_failures", 1, 1'000, k.faultyAfterFailures);
        s.millis("blind_leave_wait_ms", 0, 60'000, k.blindLeaveWait);
        auto& b = config_.backoff;
        s.integer("backoff_after_failures", 0, 1'000, b.failuresBeforeBackoff);
        s.millis("first_backoff_ms", 1, 600'000, b.firstBackoff);
        s.millis("max_backoff_ms", 1, 3'600'000, b.maxBackoff);
        s.millis("scan_interval_ms", 1, 1'000, config_.scanInterval);
    }

    void readButtons(SectionReader& s) {
        s.millis("debounce_ms", 0, 1'000, config_.buttonDebounce);
        s.boolean("active_low", buttonDefaults_.activeLow);
        if (const IniEntry* e = s.take("bias")) {
            std::string why;
            if (auto b = parseBias(e->value, why))
                buttonDefaults_.bias = *b;
            else
                s.problem(*e, why);
        }
    }

    void readLeds(SectionReader& s) {
        s.boolean("active_low", ledDefaults_.activeLow);
        const auto places = castlePlaces(config_.edition);
        for (const IniEntry* e : s.takePrefixed("place.")) {
            const std::string place = e->key.substr(6);
            if (std::find(places.begin(), places.end(), place) == places.end()) {
                s.problem(*e, placeReason(place, false));
                continue;
            }
            if (auto pin = readPin(s, *e, false, ledDefaults_)) config_.placeLeds.emplace(place, *pin);
        }
        for (const IniEntry* e : s.takePrefixed("turn.")) {
            std::string why;
            const auto seat = parseInteger(e->key.substr(5), 0, kMaxStations - 1, why);
            if (!seat) {
                s.problem(*e, "a turn LED is named by its seat, from 0 to " +
                                  std::to_string(kMaxStations - 1) + ": turn.0");
                continue;
            }
            if (auto pin = readPin(s, *e, false, ledDefaults_))
                config_.turnLeds.emplace(static_cast<int>(*seat), *pin);
        }
    }

    std::optional<GpioPin> readPin(SectionReader& s, const IniEntry& e, bool isInput,
                                   const GpioPin& defaults) {
        std::string why;
        auto pin = parseGpioPin(e.value, isInput, defaults, why);
        if (!pin) {
            s.problem(e, why);
            return std::nullopt;
        }
        pin->sourceLine = e.line;
        return pin;
    }

    std::string placeReason(const std::string& place, bool readers) const {
        const auto all = castlePlaces(CastleEdition::Vive2024);
        if (std::find(all.begin(), all.end(), place) != all.end())
            return "'" + place + "' is a place of the 2024 castle only: set edition = 2024 in [castle]";
        if (place == "throne") return "the throne is place 6 (places are named as in game records)";
        return "'" + place + "' is not a place: 0 to 5, 6 (the throne)" +
               (config_.edition == CastleEdition::Vive2024 ? ", wc3, wc4, dungeon1 to dungeon3" : "") +
               (readers ? " or enrolment" : "");
    }

    void readReader(SectionReader& s) {
        ReaderConfig r;
        r.name = s.name().substr(7);
        r.sourceLine = s.line();
        if (const IniEntry* e = s.take("place")) {
            const auto places = castlePlaces(config_.edition);
            if (e->value == kEnrolmentPlace ||
                std::find(places.begin(), places.end(), e->value) != places.end())
                r.place = e->value;
            else
                s.problem(*e, placeReason(e->value, true));
        } else {
            s.missing("place", "a reader needs the place it serves: place = 3");
        }
        if (const IniEntry* e = s.take("type")) {
            if (e->value == "mfrc522")
                r.type = ReaderType::Mfrc522;
            else if (e->value == "pn532")
                r.type = ReaderType::Pn532;
            else if (e->value == "sim")
                r.type = ReaderType::Sim;
            else
                s.problem(*e, "'" + e->value + "' is not a reader type: mfrc522, pn532 or sim");
        }
        const IniEntry* bus = s.take("bus");
        const IniEntry* chipSelect = s.take("chip_select");
        const IniEntry* spiHz = s.take("spi_hz");
        std::string why;
        if (r.type == ReaderType::Sim) {
            if (bus) s.problem(*bus, "a sim reader has no bus");
        } else if (!bus) {
            s.missing("bus", r.type == ReaderType::Mfrc522
                                 ? "an MFRC522 needs its SPI device: bus = /dev/spidev0.0"
                                 : "a PN532 needs its libnfc connection: bus = pn532_uart:/dev/ttyS0");
        } else if (r.type == ReaderType::Mfrc522 ? isSpidevPath(bus->value, why)
                                                 : isPn532Connection(bus->value, why)) {
            r.bus = bus->value;
        } else {
            s.problem(*bus, why);
        }
        if (chipSelect && r.type != ReaderType::Mfrc522) {
            s.problem(*chipSelect, "only an MFRC522 reader has a chip_select");
        } else if (chipSelect && chipSelect->value != "bus") {
            if (auto line = parseGpioLine(chipSelect->value, why))
                r.chipSelect = *line;
            else
                s.problem(*chipSelect, why + " (or bus for the SPI device's own chip select)");
        }
        if (spiHz && r.type != ReaderType::Mfrc522) {
            s.problem(*spiHz,
                      "only an MFRC522 reader has spi_hz (a PN532 on SPI takes it in its bus string)");
        } else if (spiHz) {
            // The MFRC522 takes up to 10 Mbit/s (data sheet §8.1.2).
            s.integer("spi_hz", 100'000, 10'000'000, r.spiHz);
        }
        if (const IniEntry* e = s.take("neighbours")) {
            std::string name;
            auto flush = [&] {
                if (name.empty()) return;
                if (isReaderName(name))
                    r.neighbours.push_back(name);
                else
                    s.problem(*e, "'" + name + "' is not a reader's name: neighbours = floor2-a floor2-b");
                name.clear();
            };
            for (char c : e->value) {
                if (c == ' ' || c == '\t' || c == ',')
                    flush();
                else
                    name += c;
            }
            flush();
            if (r.neighbours.empty() && e->value.find_first_not_of(" \t,") == std::string::npos)
                s.problem(*e, "no reader named: neighbours = floor2-a floor2-b (or leave the key out)");
        }
        s.reportUnknown();
        config_.readers.push_back(std::move(r));
    }

    void readStation(SectionReader& s) {
        StationConfig st;
        st.seat = std::stoi(s.name().substr(8));
        st.sourceLine = s.line();
        auto button = [&](std::string_view key, std::optional<GpioPin>& target, bool required) {
            if (const IniEntry* e = s.take(key)) {
                target = readPin(s, *e, true, buttonDefaults_);
            } else if (required) {
                s.missing(key, "station " + std::to_string(st.seat) + " has no '" + std::string(key) +
                                   "' button" +
                                   (key == "stomachache" ? " (the 2024 edition votes with it)" : ""));
            }
        };
        button("yes", st.yes, true);
        button("no", st.no, true);
        button("stomachache", st.stomachache, config_.edition == CastleEdition::Vive2024);
        if (const IniEntry* e = s.take("led")) st.led = readPin(s, *e, false, ledDefaults_);
        s.reportUnknown();
        config_.stations.push_back(std::move(st));
    }

    const std::string& file_;
    ConfigProblems& problems_;
    CastleConfig config_;
    std::map<std::string, SectionReader> sections_;
    bool hardwareGiven_ = false;
    // A button is wired between its line and ground, with the line's pull-up.
    GpioPin buttonDefaults_{.gpio = {}, .activeLow = true, .bias = Bias::PullUp};
    GpioPin ledDefaults_{.gpio = {}, .activeLow = false, .bias = Bias::AsIs};
};

}  // namespace

CastleConfig readCastleConfig(std::string_view text, const std::string& fileName, ConfigProblems& problems) {
    return CastleConfigReader(fileName, problems).read(text);
}

}  // namespace vivaref::config
