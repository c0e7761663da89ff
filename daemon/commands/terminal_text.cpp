#include "daemon/commands/terminal_text.hpp"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace vivaref::daemon {

namespace {

// The length of the UTF-8 sequence at `at`, 0 when it is not one; its code
// point in `c`. A sequence cut off by the end of `text` is not one.
std::size_t utf8Sequence(std::string_view text, std::size_t at, std::uint32_t& c) {
    const auto lead = static_cast<unsigned char>(text[at]);
    std::size_t length = 0;
    std::uint32_t least = 0;
    if (lead < 0x80) {
        c = lead;
        return 1;
    }
    if (lead >= 0xc2 && lead <= 0xdf)
        length = 2, c = lead & 0x1fu, least = 0x80;
    else if (lead >= 0xe0 && lead <= 0xef)
        length = 3, c = lead & 0x0fu, least = 0x800;
    else if (lead >= 0xf0 && lead <= 0xf4)
        length = 4, c = lead & 0x07u, least = 0x10000;
    else
        return 0;
    if (at + length > text.size()) return 0;
    for (std::size_t k = 1; k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[at + k]);
        if ((next & 0xc0u) != 0x80u) return 0;
        c = (c << 6) | (next & 0x3fu);
    }
    if (c < least || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return 0;
    return length;
}

// How much of `pending` can go out now: up to the last newline (a UTF-8
// sequence never holds one), or all of it when flushing, or when it is long
// and has no newline, all but a sequence that may be cut short at its end.
std::size_t readyPart(const std::string& pending, bool flushing) {
    if (flushing) return pending.size();
    if (auto newline = pending.rfind('\n'); newline != std::string::npos) return newline + 1;
    if (pending.size() < 4096) return 0;
    std::size_t end = pending.size();
    for (int back = 0; back < 3 && end > 0 && (static_cast<unsigned char>(pending[end - 1]) & 0xc0u) == 0x80u;
         ++back)
        --end;
    if (end > 0 && static_cast<unsigned char>(pending[end - 1]) >= 0xc0) --end;
    return end;
}

constexpr std::uint32_t kFirstStrongIsolate = 0x2068, kPopDirectionalIsolate = 0x2069;

// Unicode's Bidi_Control characters: marks, embeddings, overrides, isolates.
bool isDirectionControl(std::uint32_t c) {
    return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
           (c >= 0x2066 && c <= 0x2069);
}

// Characters that show nothing and have no part in writing a word: a name
// could hide behind them, or a line or paragraph end inside a line. The
// joiners (U+200C, U+200D), variation selectors and tags are kept: Persian
// and Indic names and emoji need them.
bool isInvisible(std::uint32_t c) {
    return c == 0x00ad || c == 0x034f || c == 0x115f || c == 0x1160 || c == 0x180e || c == 0x200b ||
           c == 0x2028 || c == 0x2029 || (c >= 0x2060 && c <= 0x2064) || (c >= 0x206a && c <= 0x206f) ||
           c == 0x3164 || c == 0xfeff || c == 0xffa0 || (c >= 0xfff9 && c <= 0xfffb);
}

bool isTerminalControl(std::uint32_t c) {
    return (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f);
}

struct Decoded {
    std::size_t at = 0, length = 0;  // length 0: a byte outside UTF-8
    std::uint32_t c = 0;
    bool kept = true;
};

// Which first strong isolates and pops pair up within one line: those are
// kept (an isolate reorders nothing outside itself; the words put each
// player's name in one). Any other direction control, or an isolate left
// open or a pop with none open, would turn what follows it around.
void markDirectionControls(std::vector<Decoded>& line) {
    std::vector<std::size_t> open;
    for (std::size_t k = 0; k < line.size(); ++k) {
        auto& d = line[k];
        if (d.length == 0 || !isDirectionControl(d.c)) continue;
        d.kept = false;
        if (d.c == kFirstStrongIsolate) {
            open.push_back(k);
        } else if (d.c == kPopDirectionalIsolate && !open.empty()) {
            line[open.back()].kept = true;
            d.kept = true;
            open.pop_back();
        }
    }
}

}  // namespace

std::string escapeControls(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::vector<Decoded> line;
    auto flushLine = [&] {
        markDirectionControls(line);
        for (const auto& d : line) {
            char code[16];  // "\\u" and up to eight hex digits: the compiler cannot see c < 0xa0
            if (d.length == 0) {
                std::snprintf(code, sizeof code, "\\x%02x",
                              static_cast<unsigned>(static_cast<unsigned char>(text[d.at])));
                out += code;
            } else if (isTerminalControl(d.c) || isInvisible(d.c) || !d.kept) {
                std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned>(d.c));
                out += code;
            } else {
                out.append(text.substr(d.at, d.length));
            }
        }
        line.clear();
    };
    for (std::size_t i = 0; i < text.size();) {
        Decoded d;
        d.at = i;
        d.length = utf8Sequence(text, i, d.c);
        line.push_back(d);
        i += d.length == 0 ? 1 : d.length;
        if (d.length == 1 && d.c == '\n') flushLine();
    }
    flushLine();
    return out;
}

std::string terminalName(std::string_view name) {
    std::string out = "\u2068";
    for (std::size_t i = 0; i < name.size();) {
        std::uint32_t c = 0;
        const std::size_t length = utf8Sequence(name, i, c);
        if (length != 0 && isDirectionControl(c)) {
            char code[16];
            std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned>(c));
            out += code;
        } else {
            // Anything else is the filter's to escape.
            out.append(name.substr(i, length == 0 ? 1 : length));
        }
        i += length == 0 ? 1 : length;
    }
    return out + "\u2069";
}

std::size_t characterCount(std::string_view text) {
    std::size_t count = 0;
    for (const char byte : text) count += (static_cast<unsigned char>(byte) & 0xc0u) != 0x80u;
    return count;
}

std::string paddedName(std::string_view name, std::size_t width) {
    const std::size_t length = characterCount(name);
    return terminalName(name) + std::string(length < width ? width - length : 0, ' ');
}

// Keeps what was written until a line is whole (or a flush), then writes it
// escaped to the stream's own buffer.
class EscapedOutput::Filter : public std::streambuf {
public:
    explicit Filter(std::streambuf* target) : target_(target) {}
    ~Filter() override { pass(true); }

protected:
    int_type overflow(int_type ch) override {
        if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
        pending_ += traits_type::to_char_type(ch);
        if (ch == '\n' || pending_.size() >= 4096) pass(false);
        return ch;
    }
    std::streamsize xsputn(const char* text, std::streamsize count) override {
        pending_.append(text, static_cast<std::size_t>(count));
        pass(false);
        return count;
    }
    int sync() override {
        pass(true);
        return target_->pubsync();
    }

private:
    void pass(bool flushing) {
        const std::size_t ready = readyPart(pending_, flushing);
        if (ready == 0) return;
        const std::string out = escapeControls(std::string_view(pending_).substr(0, ready));
        target_->sputn(out.data(), static_cast<std::streamsize>(out.size()));
        pending_.erase(0, ready);
    }

    std::streambuf* target_;
    std::string pending_;
};

EscapedOutput::EscapedOutput(std::ostream& stream)
    : stream_(stream), original_(stream.rdbuf()), filter_(std::make_unique<Filter>(original_)) {
    stream_.rdbuf(filter_.get());
}

EscapedOutput::~EscapedOutput() {
    stream_.flush();
    stream_.rdbuf(original_);
}

}  // namespace vivaref::daemon
