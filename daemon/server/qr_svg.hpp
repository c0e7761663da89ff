// The players' links as QR codes for the host's page: Debian's libqrencode
// makes the code (8-bit mode, error correction level M, the smallest version
// that holds the text), and we write its modules as one SVG path of dark
// squares on a white ground with the standard quiet zone of 4 modules. An
// SVG scales without blur on any screen and a phone's camera reads it from
// the host's laptop or phone.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace vivaref::server {

// The modules of one QR code, row by row: width x width, true for dark.
struct QrMatrix {
    int width = 0;
    std::vector<bool> dark;
    bool at(int x, int y) const { return dark[static_cast<std::size_t>(y * width + x)]; }
};

inline constexpr int kQrQuietZone = 4;

// The code of `text` (throws std::invalid_argument when the text is empty
// or too long for any QR code, std::runtime_error when libqrencode fails).
QrMatrix encodeQr(std::string_view text);

// The SVG of `matrix`: a viewBox of width + 2 x quiet zone modules, a white
// rectangle, and one path of dark modules (each row's runs as rectangles).
std::string qrSvg(const QrMatrix& matrix, int quietZone = kQrQuietZone);

// The code for a terminal: two modules a character (the upper half block,
// the lower one, the full one or a space), black on white whatever the
// terminal's own colours (ANSI colours 30 and 47 on each line, reset at its
// end), with the quiet zone; a phone's camera reads it off the screen.
// (width + 2 x quiet zone) columns, half as many lines, each ending in '\n'.
std::string qrTerminal(const QrMatrix& matrix, int quietZone = kQrQuietZone);

}  // namespace vivaref::server
