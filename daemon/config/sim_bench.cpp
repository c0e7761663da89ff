#include "daemon/config/sim_bench.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>

#include "daemon/config/config_values.hpp"

namespace vivaref::config {
namespace {

constexpr std::size_t kMaxBenchLine = 1024;

bool isBenchNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

bool isBenchPlainName(std::string_view text) {
    return !text.empty() && text.size() <= 64 && std::all_of(text.begin(), text.end(), isBenchNameChar);
}

// A chip's wire in its one spelling ("gpiochip0:17"), or none and why.
std::optional<std::string> benchWire(std::string_view text, std::string& why) {
    if (text.starts_with("gpiochip")) {
        if (auto line = parseGpioLine(text, why)) return line->text();
        return std::nullopt;
    }
    if (text.starts_with("/dev/")) {
        if (isSpidevPath(text, why)) return std::string(text);
        return std::nullopt;
    }
    if (text.starts_with("pn532_")) {
        if (isPn532Connection(text, why)) return std::string(text);
        return std::nullopt;
    }
    if (isBenchPlainName(text)) return std::string(text);
    why = "'" + std::string(text) +
          "' is not a chip: name its chip-select line (gpiochip0:17), its bus (/dev/spidev0.0) or a sim "
          "reader's name";
    return std::nullopt;
}

// A GPIO line in its one spelling, else the name as given.
std::string benchLineOrName(std::string_view text) {
    std::string ignored;
    if (auto line = parseGpioLine(text, ignored)) return line->text();
    return std::string(text);
}

bool isBenchSeat(std::string_view text) { return text.size() == 1 && text[0] >= '0' && text[0] <= '7'; }

class BenchParser {
public:
    BenchParser(const std::filesystem::path& file, ConfigProblems& problems)
        : file_(file.string()), problems_(problems) {
        bench_.file = file;
    }

    SimBench run(std::string_view text) {
        if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
        int number = 0;
        while (!text.empty()) {
            ++number;
            const auto end = text.find('\n');
            std::string_view line = text.substr(0, end);
            text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
            if (line.ends_with('\r')) line.remove_suffix(1);
            statement(number, line);
        }
        return std::move(bench_);
    }

private:
    void problem(int line, std::string_view key, std::string reason) {
        problems_.push_back({file_, line, std::string(key), std::move(reason)});
    }

    void statement(int number, std::string_view line) {
        if (line.size() > kMaxBenchLine) {
            problem(number, "", "longer than " + std::to_string(kMaxBenchLine) + " characters");
            return;
        }
        if (std::any_of(line.begin(), line.end(), [](char c) {
                const auto u = static_cast<unsigned char>(c);
                return (u < 0x20 && c != '\t') || u == 0x7F || u >= 0x80;
            })) {
            problem(number, "", "not a bench statement: a control byte or a character beyond ASCII");
            return;
        }
        if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
        const auto words = spaceSeparated(line);
        if (words.empty()) return;
        const std::string_view verb = words.front();
        const std::vector<std::string_view> args(words.begin() + 1, words.end());
        if (verb == "chip")
            chip(number, args);
        else if (verb == "no-chip")
            noChip(number, args);
        else if (verb == "couple")
            couple(number, args);
        else if (verb == "version")
            version(number, args);
        else if (verb == "stuck")
            stuck(number, args);
        else if (verb == "crossed")
            crossed(number, args);
        else if (verb == "dead-led")
            deadLed(number, args);
        else
            problem(
                number, verb,
                "'" + std::string(verb) +
                    "' is not a bench statement: chip, no-chip, couple, version, stuck, crossed or dead-led");
    }

    bool arity(int number, std::string_view verb, const std::vector<std::string_view>& args,
               std::size_t count, std::string_view form) {
        if (args.size() == count) return true;
        problem(number, verb, "write " + std::string(form));
        return false;
    }

    std::optional<std::string> wire(int number, std::string_view verb, std::string_view text) {
        std::string why;
        auto out = benchWire(text, why);
        if (!out) problem(number, verb, why);
        return out;
    }

    void chip(int number, const std::vector<std::string_view>& args) {
        if (!arity(number, "chip", args, 3, "chip WIRE under PLACE (e.g. chip gpiochip0:17 under 3)")) return;
        if (args[1] != "under") {
            problem(number, "chip", "write chip WIRE under PLACE (e.g. chip gpiochip0:17 under 3)");
            return;
        }
        auto w = wire(number, "chip", args[0]);
        if (!w) return;
        if (!isBenchPlainName(args[2])) {
            problem(number, "chip",
                    "'" + std::string(args[2]) + "' is not a place or a reader's name (e.g. 3, floor3-a)");
            return;
        }
        if (auto it = noChipLine_.find(*w); it != noChipLine_.end()) {
            problem(number, "chip",
                    *w + " has no chip (line " + std::to_string(it->second) + "): give it one or the other");
            return;
        }
        for (const auto& c : bench_.chips) {
            if (c.wire == *w && c.under == args[2]) {
                problem(number, "chip", "given twice (first on line " + std::to_string(c.line) + ")");
                return;
            }
        }
        chipLine_.emplace(*w, number);
        bench_.chips.push_back({*w, std::string(args[2]), number});
    }

    void noChip(int number, const std::vector<std::string_view>& args) {
        if (!arity(number, "no-chip", args, 1, "no-chip WIRE (e.g. no-chip gpiochip0:22)")) return;
        auto w = wire(number, "no-chip", args[0]);
        if (!w) return;
        if (auto it = chipLine_.find(*w); it != chipLine_.end()) {
            problem(number, "no-chip",
                    *w + " has a chip (line " + std::to_string(it->second) + "): give it one or the other");
            return;
        }
        if (auto [it, isNew] = noChipLine_.emplace(*w, number); !isNew) {
            problem(number, "no-chip", "given twice (first on line " + std::to_string(it->second) + ")");
            return;
        }
        bench_.noChips.push_back({*w, number});
    }

    void couple(int number, const std::vector<std::string_view>& args) {
        if (!arity(number, "couple", args, 2, "couple WIRE WIRE (e.g. couple gpiochip0:17 gpiochip0:18)"))
            return;
        auto a = wire(number, "couple", args[0]);
        auto b = wire(number, "couple", args[1]);
        if (!a || !b) return;
        if (*a == *b) {
            problem(number, "couple", "a chip couples with another chip, not with itself");
            return;
        }
        bench_.couples.push_back({*a, *b, number});
    }

    void version(int number, const std::vector<std::string_view>& args) {
        if (!arity(number, "version", args, 2, "version WIRE 0xHH (e.g. version gpiochip0:6 0x12)")) return;
        auto w = wire(number, "version", args[0]);
        if (!w) return;
        const std::string_view hex = args[1];
        const bool isHex =
            (hex.starts_with("0x") || hex.starts_with("0X")) && hex.size() >= 3 && hex.size() <= 4 &&
            std::all_of(hex.begin() + 2, hex.end(), [](char c) {
                return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            });
        if (!isHex) {
            problem(number, "version",
                    "'" + std::string(hex) +
                        "' is not a VersionReg byte: write 0x and two hex digits, e.g. 0x12");
            return;
        }
        if (auto [it, isNew] = versionLine_.emplace(*w, number); !isNew) {
            problem(number, "version",
                    *w + " has its version on line " + std::to_string(it->second) + ": give it once");
            return;
        }
        bench_.versions.push_back(
            {*w, static_cast<std::uint8_t>(std::stoul(std::string(hex.substr(2)), nullptr, 16)), number});
    }

    void stuck(int number, const std::vector<std::string_view>& args) {
        if (!arity(number, "stuck", args, 1, "stuck KEY (e.g. stuck station.2.yes)")) return;
        if (!isBenchKeyName(args[0])) {
            problem(number, "stuck",
                    "'" + std::string(args[0]) +
                        "' is not a vote key: station.SEAT.yes, .no or .stomachache (seat 0-7), or its GPIO "
                        "line");
            return;
        }
        bench_.stuckKeys.push_back({benchLineOrName(args[0]), number});
    }

    void crossed(int number, const std::vector<std::string_view>& args) {
        if (!arity(number, "crossed", args, 2, "crossed KEY KEY (e.g. crossed station.0.yes station.0.no)"))
            return;
        for (const auto key : args)
            if (!isBenchKeyName(key)) {
                problem(
                    number, "crossed",
                    "'" + std::string(key) +
                        "' is not a vote key: station.SEAT.yes, .no or .stomachache (seat 0-7), or its GPIO "
                        "line");
                return;
            }
        const std::string a = benchLineOrName(args[0]), b = benchLineOrName(args[1]);
        if (a == b) {
            problem(number, "crossed", "a key is crossed with another key, not with itself");
            return;
        }
        for (const std::string& key : {a, b})
            if (auto [it, isNew] = crossedLine_.emplace(key, number); !isNew) {
                problem(number, "crossed",
                        key + " is crossed on line " + std::to_string(it->second) +
                            ": a wire goes to one other key");
                return;
            }
        bench_.crossedKeys.push_back({a, b, number});
    }

    void deadLed(int number, const std::vector<std::string_view>& args) {
        if (!arity(number, "dead-led", args, 1, "dead-led LED (e.g. dead-led place.3)")) return;
        if (!isBenchLedName(args[0])) {
            problem(number, "dead-led",
                    "'" + std::string(args[0]) +
                        "' is not an LED: place.PLACE, turn.SEAT, station.SEAT (seat 0-7), or its GPIO line");
            return;
        }
        bench_.deadLeds.push_back({benchLineOrName(args[0]), number});
    }

    std::string file_;
    ConfigProblems& problems_;
    SimBench bench_;
    std::map<std::string, int> chipLine_;
    std::map<std::string, int> noChipLine_;
    std::map<std::string, int> versionLine_;
    std::map<std::string, int> crossedLine_;
};

}  // namespace

bool isBenchKeyName(std::string_view name) {
    std::string ignored;
    if (name.starts_with("gpiochip")) return parseGpioLine(name, ignored).has_value();
    if (!name.starts_with("station.")) return false;
    name.remove_prefix(8);
    const auto dot = name.find('.');
    if (dot == std::string_view::npos || !isBenchSeat(name.substr(0, dot))) return false;
    const std::string_view key = name.substr(dot + 1);
    return key == "yes" || key == "no" || key == "stomachache";
}

bool isBenchLedName(std::string_view name) {
    std::string ignored;
    if (name.starts_with("gpiochip")) return parseGpioLine(name, ignored).has_value();
    if (name.starts_with("place.")) {
        const std::string_view place = name.substr(6);
        const auto places = castlePlaces(CastleEdition::Vive2024);
        return std::find(places.begin(), places.end(), place) != places.end();
    }
    if (name.starts_with("turn.")) return isBenchSeat(name.substr(5));
    if (name.starts_with("station.")) return isBenchSeat(name.substr(8));
    return false;
}

SimBench parseSimBench(std::string_view text, const std::filesystem::path& fileName,
                       ConfigProblems& problems) {
    if (text.size() > kMaxSimBenchBytes) {
        problems.push_back(
            {fileName.string(), 0, "",
             "larger than " + std::to_string(kMaxSimBenchBytes >> 10) + " KiB: this is not a bench"});
        SimBench bench;
        bench.file = fileName;
        return bench;
    }
    return BenchParser(fileName, problems).run(text);
}

SimBench readSimBench(const std::filesystem::path& file, ConfigProblems& problems) {
    SimBench bench;
    bench.file = file;
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) {
        problems.push_back({file.string(), 0, "", "this is a directory, not a bench file"});
        return bench;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        problems.push_back(
            {file.string(), 0, "", std::string("cannot open the bench file: ") + std::strerror(errno)});
        return bench;
    }
    std::string text;
    char buffer[8192];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxSimBenchBytes) break;
    }
    return parseSimBench(text, file, problems);
}

}  // namespace vivaref::config
