#include "daemon/config/ini_reader.hpp"

#include <cassert>
#include <sstream>

#include <boost/program_options.hpp>

namespace vivaref::config {
namespace {

constexpr std::string_view kSpaces = " \t\r";
constexpr std::size_t kMaxLineLength = 4096;

std::string_view trimmed(std::string_view s) {
    const auto first = s.find_first_not_of(kSpaces);
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(kSpaces) - first + 1);
}

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
}

bool isName(std::string_view s) {
    if (s.empty() || s.front() == '.' || s.back() == '.') return false;
    for (char c : s)
        if (!isNameChar(c)) return false;
    return true;
}

// The first byte that no text file holds (a control character other than
// tab, CR, LF, FF), or npos.
std::size_t firstBinaryByte(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n' && c != '\f') || c == 0x7F) return i;
    }
    return std::string_view::npos;
}

// Where `line` stops being UTF-8, or npos (overlong forms and surrogates are
// let through: the point is to catch a file saved as Latin-1 or plain garbage).
std::size_t firstNonUtf8(std::string_view line) {
    for (std::size_t i = 0; i < line.size();) {
        const auto c = static_cast<unsigned char>(line[i]);
        const std::size_t length = c < 0x80           ? 1
                                   : (c >> 5) == 0x6  ? 2
                                   : (c >> 4) == 0xE  ? 3
                                   : (c >> 3) == 0x1E ? 4
                                                      : 0;
        if (length == 0 || i + length > line.size()) return i;
        for (std::size_t k = 1; k < length; ++k)
            if ((static_cast<unsigned char>(line[i + k]) >> 6) != 0x2) return i;
        i += length;
    }
    return std::string_view::npos;
}

int lineOfOffset(std::string_view text, std::size_t offset) {
    int line = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i)
        if (text[i] == '\n') ++line;
    return line;
}

// The pre-scan: every line's meaning (the problems of those that have
// none), and the text Boost gets (lines it would reject blanked, so that it
// reads the rest).
struct PreScan {
    std::string forBoost;
    std::vector<IniEntry> expected;  // the entries Boost will give, in order, with their lines
};

PreScan preScan(std::string_view text, const std::string& fileName, ConfigProblems& problems, IniFile& ini) {
    PreScan scan;
    std::string& forBoost = scan.forBoost;
    std::string section;
    int number = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        auto end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view raw = text.substr(start, end - start);
        start = end + 1;
        ++number;
        if (start > text.size() && raw.empty()) break;  // after the last newline

        auto bad = [&](const std::string& key, const std::string& reason) {
            problems.push_back({fileName, number, key, reason});
            forBoost += '\n';
        };
        if (raw.size() > kMaxLineLength) {
            bad("", "the line is " + std::to_string(raw.size()) +
                        " characters long; a configuration line is at most " +
                        std::to_string(kMaxLineLength));
            continue;
        }
        if (const auto at = firstNonUtf8(raw); at != std::string_view::npos) {
            bad("", "not UTF-8 text (column " + std::to_string(at + 1) + "): save the file as UTF-8");
            continue;
        }
        const std::string_view line = trimmed(raw.substr(0, raw.find('#')));
        if (line.empty()) {
            forBoost += '\n';
            continue;
        }
        if (line.front() == '[') {
            const std::string_view name = line.back() == ']' ? trimmed(line.substr(1, line.size() - 2)) : "";
            if (line.back() != ']' || !isName(name) || name != line.substr(1, line.size() - 2)) {
                bad("", "'" + std::string(line) +
                            "' is not a section header: write [name] with letters, digits, '-', '_' and '.'");
                section.clear();
                continue;
            }
            section = name;
            ini.sections.push_back({section, number});
            forBoost.append(raw) += '\n';
            continue;
        }
        const auto equals = line.find('=');
        if (equals == std::string_view::npos) {
            bad("", "'" + std::string(line) + "' is not a section header, a 'key = value' line or a comment");
            continue;
        }
        const std::string_view key = trimmed(line.substr(0, equals));
        if (!isName(key)) {
            bad("", key.empty()
                        ? "a value without a key: write key = value"
                        : "'" + std::string(key) + "' is not a key: use letters, digits, '-', '_' and '.'");
            continue;
        }
        if (section.empty() && ini.sections.empty()) {
            bad(std::string(key), "a key before any [section]: every key belongs to a section");
            continue;
        }
        if (section.empty()) {  // under a header that was refused: that header's problem says it all
            forBoost += '\n';
            continue;
        }
        scan.expected.push_back(
            {section, std::string(key), std::string(trimmed(line.substr(equals + 1))), number});
        forBoost.append(raw) += '\n';
    }

    return scan;
}

}  // namespace

IniFile readIni(std::string_view text, const std::string& fileName, ConfigProblems& problems) {
    IniFile ini;
    if (const auto at = firstBinaryByte(text); at != std::string_view::npos) {
        static constexpr char kHex[] = "0123456789ABCDEF";
        const auto byte = static_cast<unsigned char>(text[at]);
        problems.push_back({fileName, lineOfOffset(text, at), "",
                            std::string("this is not a text file (it holds the byte 0x") + kHex[byte >> 4] +
                                kHex[byte & 0xF] + "): is it the castle configuration?"});
        return ini;
    }
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a byte order mark some editors write
    const PreScan scan = preScan(text, fileName, problems, ini);
    const auto& expected = scan.expected;

    // Boost reads the entries; they come out in file order, so the i-th is
    // the pre-scan's i-th and takes its line.
    std::istringstream in(scan.forBoost);
    boost::program_options::options_description noneRegistered;
    const auto parsed = boost::program_options::parse_config_file(in, noneRegistered, true);
    assert(parsed.options.size() == expected.size());
    for (std::size_t i = 0; i < parsed.options.size() && i < expected.size(); ++i) {
        const auto& option = parsed.options[i];
        IniEntry entry = expected[i];
        assert(option.string_key == entry.fullKey());
        entry.value = option.value.empty() ? std::string() : option.value.front();
        ini.entries.push_back(std::move(entry));
    }
    return ini;
}

}  // namespace vivaref::config
