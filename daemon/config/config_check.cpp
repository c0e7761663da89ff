#include "daemon/config/config_check.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "daemon/config/config_file.hpp"
#include "daemon/config/sim_bench.hpp"

namespace vivaref::config {
namespace {

class CastleChecker {
public:
    CastleChecker(const CastleConfig& config, ConfigProblems& problems)
        : c_(config), file_(config.sourceFile.string()), problems_(problems) {}

    void run() {
        checkHardware();
        checkPlaces();
        checkBuses();
        checkPins();
        checkStations();
        checkKnobs();
        checkNeighbours();
    }

private:
    void problem(const std::string& key, std::string reason) {
        problems_.push_back({file_, c_.lineOf(key), key, std::move(reason)});
    }

    void checkHardware() {
        if (c_.daemon.hardware == Hardware::Real && !c_.daemon.simBench.empty())
            problem("daemon.sim_bench",
                    "a bench is the simulated castle's faults: with daemon.hardware = real, leave it out");
        if (c_.daemon.hardware != Hardware::Real) return;
        if (c_.readers.empty())
            problem("daemon.hardware",
                    "real hardware needs readers: add a [reader.NAME] for each reader, or set sim");
        for (const auto& r : c_.readers) {
            if (r.type == ReaderType::Sim)
                problem("reader." + r.name + ".type", "a sim reader in a castle with daemon.hardware = real");
        }
    }

    // Without readers the castle is the simulated standard one; with readers,
    // each place of the edition needs at least one.
    void checkPlaces() {
        if (c_.readers.empty()) return;
        std::set<std::string> served;
        for (const auto& r : c_.readers) served.insert(r.place);
        for (const auto& place : castlePlaces(c_.edition)) {
            if (served.contains(place)) continue;
            problems_.push_back({file_, 0, "",
                                 "place " + place + (place == "6" ? " (the throne)" : "") +
                                     " has no reader: add a [reader.NAME] with place = " + place});
        }
    }

    // The device a reader's bus names: a spidev path, or the device of a
    // libnfc connection ("pn532_uart:/dev/ttyS0:115200" -> /dev/ttyS0).
    static std::string deviceOf(const ReaderConfig& r) {
        if (r.type != ReaderType::Pn532) return r.bus;
        const auto start = r.bus.find(':') + 1;
        return r.bus.substr(start, r.bus.find(':', start) - start);
    }

    // Two readers on one spidev device with its own chip select (or on one
    // PN532 device) would answer together. Readers selected by GPIO lines
    // share a bus (checkPins() catches a line used twice), but not with a
    // reader on the device's own chip select: the SPI mode, SPI_NO_CS
    // included, belongs to the device, not to the open file.
    void checkBuses() {
        std::map<std::string, const ReaderConfig*> ownSelect;
        std::map<std::string, std::vector<const ReaderConfig*>> gpioSelected;
        for (const auto& r : c_.readers) {
            if (r.bus.empty()) continue;
            if (r.chipSelect) {
                gpioSelected[r.bus].push_back(&r);
                continue;
            }
            auto [it, isNew] = ownSelect.emplace(deviceOf(r), &r);
            if (isNew) continue;
            problem(
                "reader." + r.name + ".bus",
                "reader " + it->second->name + " (line " + std::to_string(it->second->sourceLine) +
                    ") already uses " + deviceOf(r) +
                    (r.type == ReaderType::Mfrc522 ? " with the device's own chip select: give one of them "
                                                     "chip_select = gpiochipN:LINE"
                                                   : ""));
        }
        for (const auto& [bus, readers] : gpioSelected) {
            auto own = ownSelect.find(bus);
            if (own == ownSelect.end()) continue;
            const ReaderConfig& first = *readers.front();
            const std::string others = readers.size() > 1 ? " (and " + std::to_string(readers.size() - 1) +
                                                                " other GPIO-selected readers)"
                                                          : "";
            problem("reader." + first.name + ".bus",
                    "reader " + own->second->name + " (line " + std::to_string(own->second->sourceLine) +
                        ") uses " + bus +
                        " with its own chip select, which a GPIO chip select on the same device turns off" +
                        others + ": put the GPIO-selected readers on another spidev device");
        }
    }

    void checkPins() {
        std::map<GpioLine, std::string> users;  // line -> the key that took it first
        auto use = [&](const GpioLine& gpio, const std::string& key) {
            auto [it, isNew] = users.emplace(gpio, key);
            if (!isNew) {
                problem(key, gpio.text() + " is already used by " + it->second + " (line " +
                                 std::to_string(c_.lineOf(it->second)) + ")");
            }
        };
        // In file order, so that the second use is the one reported.
        std::vector<std::pair<GpioLine, std::string>> all;
        for (const auto& r : c_.readers)
            if (r.chipSelect) all.emplace_back(*r.chipSelect, "reader." + r.name + ".chip_select");
        for (const auto& s : c_.stations) {
            const std::string key = "station." + std::to_string(s.seat) + ".";
            if (s.yes) all.emplace_back(s.yes->gpio, key + "yes");
            if (s.no) all.emplace_back(s.no->gpio, key + "no");
            if (s.stomachache) all.emplace_back(s.stomachache->gpio, key + "stomachache");
            if (s.led) all.emplace_back(s.led->gpio, key + "led");
        }
        for (const auto& [place, pin] : c_.placeLeds) all.emplace_back(pin.gpio, "leds.place." + place);
        for (const auto& [seat, pin] : c_.turnLeds)
            all.emplace_back(pin.gpio, "leds.turn." + std::to_string(seat));
        std::stable_sort(all.begin(), all.end(), [&](const auto& a, const auto& b) {
            return c_.lineOf(a.second) < c_.lineOf(b.second);
        });
        for (const auto& [gpio, key] : all) use(gpio, key);
    }

    void checkStations() {
        std::set<int> seats;
        int expected = 0;
        for (const auto& s : c_.stations) {
            const std::string header = "[station." + std::to_string(s.seat) + "]";
            if (!seats.insert(s.seat).second) {
                problems_.push_back({file_, s.sourceLine, header,
                                     "station " + std::to_string(s.seat) + " is configured twice"});
                continue;
            }
            if (s.seat != expected) {
                problems_.push_back({file_, s.sourceLine, header,
                                     "there is no station " + std::to_string(expected) +
                                         ": stations are numbered as the seats, from 0 without gaps"});
            }
            expected = s.seat + 1;
        }
        for (const auto& [seat, pin] : c_.turnLeds) {
            if (!seats.contains(seat))
                problem("leds.turn." + std::to_string(seat),
                        "there is no station " + std::to_string(seat) + " for this turn LED");
        }
    }

    void checkKnobs() {
        const auto& k = c_.sensing;
        // The grace counts from the vanishing, so it must outlast the window
        // that turns a vanishing into "in hand" in the first place.
        if (k.inHandGrace <= k.stabilityWindow) {
            problem("sensing.in_hand_grace_ms", std::to_string(k.inHandGrace.count()) +
                                                    " ms must be longer than sensing.stability_window_ms (" +
                                                    std::to_string(k.stabilityWindow.count()) + " ms)");
        }
        if (c_.backoff.maxBackoff < c_.backoff.firstBackoff) {
            problem("sensing.max_backoff_ms", std::to_string(c_.backoff.maxBackoff.count()) +
                                                  " ms is shorter than sensing.first_backoff_ms (" +
                                                  std::to_string(c_.backoff.firstBackoff.count()) + " ms)");
        }
    }

    // Every reader a `neighbours` list names is a reader of this file, not the reader itself.
    void checkNeighbours() {
        std::set<std::string> names;
        for (const auto& r : c_.readers) names.insert(r.name);
        for (const auto& r : c_.readers) {
            const std::string key = "reader." + r.name + ".neighbours";
            for (const auto& n : r.neighbours) {
                if (n == r.name)
                    problem(key, "a reader is not its own neighbour: name the readers near " + r.name);
                else if (!names.contains(n))
                    problem(key, "there is no [reader." + n + "] in this file");
            }
        }
    }

    const CastleConfig& c_;
    std::string file_;
    ConfigProblems& problems_;
};

void sortByLine(ConfigProblems& problems) {
    std::stable_sort(problems.begin(), problems.end(), [](const ConfigProblem& a, const ConfigProblem& b) {
        return (a.line == 0 ? INT_MAX : a.line) < (b.line == 0 ? INT_MAX : b.line);
    });
}

ConfigCheck unreadable(const std::filesystem::path& file, std::string reason) {
    ConfigCheck check;
    check.status = ConfigCheck::Status::Unreadable;
    check.config.sourceFile = file;
    check.problems.push_back({file.string(), 0, "", std::move(reason)});
    return check;
}

}  // namespace

void checkCastle(const CastleConfig& config, ConfigProblems& problems) {
    CastleChecker(config, problems).run();
}

ConfigCheck checkCastleConfigText(std::string_view text, const std::string& fileName) {
    ConfigCheck check;
    check.config = readCastleConfig(text, fileName, check.problems);
    // A file that is not text at all has nothing more worth saying.
    if (check.problems.empty() || check.config.keyLines.size() > 0) checkCastle(check.config, check.problems);
    sortByLine(check.problems);
    check.status = check.problems.empty() ? ConfigCheck::Status::Valid : ConfigCheck::Status::Problems;
    return check;
}

ConfigCheck checkCastleConfigFile(const std::filesystem::path& file) {
    std::error_code ec;
    const auto status = std::filesystem::status(file, ec);
    if (!std::filesystem::exists(status)) return unreadable(file, "no such file");
    if (std::filesystem::is_directory(status))
        return unreadable(file, "this is a directory, not a configuration file");
    std::ifstream in(file, std::ios::binary);
    if (!in) return unreadable(file, std::string("cannot open it: ") + std::strerror(errno));
    std::string text;
    char buffer[8192];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxConfigBytes) {
            ConfigCheck check;
            check.status = ConfigCheck::Status::Problems;
            check.config.sourceFile = file;
            check.problems.push_back({file.string(), 0, "",
                                      "larger than " + std::to_string(kMaxConfigBytes >> 10) +
                                          " KiB: this is not a castle configuration"});
            return check;
        }
    }
    if (in.bad()) return unreadable(file, std::string("cannot read it: ") + std::strerror(errno));
    ConfigCheck check = checkCastleConfigText(text, file.string());
    // The bench beside the file (sim_bench.hpp): its own problems after the file's, in its line order.
    if (const auto& bench = check.config.daemon.simBench; !bench.empty()) {
        std::error_code benchError;
        if (!std::filesystem::is_regular_file(bench, benchError)) {
            check.problems.push_back({file.string(), check.config.lineOf("daemon.sim_bench"),
                                      "daemon.sim_bench", "the bench " + bench.string() + " is not a file"});
            sortByLine(check.problems);
        } else {
            (void)readSimBench(bench, check.problems);
        }
        if (!check.problems.empty()) check.status = ConfigCheck::Status::Problems;
    }
    return check;
}

ConfigError::ConfigError(const ConfigCheck& check)
    : std::runtime_error([&] {
          std::string text = "the castle configuration cannot be used:";
          for (const auto& p : check.problems) text += "\n  " + p.text();
          return text;
      }()),
      problems_(check.problems) {}

CastleConfig loadCastleConfig(const std::filesystem::path& file) {
    ConfigCheck check = checkCastleConfigFile(file);
    if (check.status != ConfigCheck::Status::Valid) throw ConfigError(check);
    return std::move(check.config);
}

}  // namespace vivaref::config
