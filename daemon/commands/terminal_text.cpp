#include "daemon/commands/terminal_text.hpp"

#include <cstdint>
#include <cstdio>

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

}  // namespace

std::string escapeControls(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        std::uint32_t c = 0;
        const std::size_t length = utf8Sequence(text, i, c);
        char code[16];  // "\\u" and up to eight hex digits: the compiler cannot see c < 0xa0
        if (length == 0) {
            std::snprintf(code, sizeof code, "\\x%02x",
                          static_cast<unsigned>(static_cast<unsigned char>(text[i])));
            out += code;
            ++i;
            continue;
        }
        if ((c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f)) {
            std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned>(c));
            out += code;
        } else {
            out.append(text.substr(i, length));
        }
        i += length;
    }
    return out;
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
