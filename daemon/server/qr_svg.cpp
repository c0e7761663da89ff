#include "daemon/server/qr_svg.hpp"

#include <qrencode.h>

#include <cerrno>
#include <memory>
#include <stdexcept>

namespace vivaref::server {

QrMatrix encodeQr(std::string_view text) {
    if (text.empty()) throw std::invalid_argument("a QR code needs some text");
    // libqrencode takes 8-bit data with its length, so any byte is kept.
    std::unique_ptr<QRcode, decltype(&QRcode_free)> code(
        QRcode_encodeData(static_cast<int>(text.size()), reinterpret_cast<const unsigned char*>(text.data()),
                          0, QR_ECLEVEL_M),
        &QRcode_free);
    if (!code) {
        if (errno == ERANGE || errno == EINVAL)
            throw std::invalid_argument("the text (" + std::to_string(text.size()) +
                                        " bytes) is too long for a QR code");
        throw std::runtime_error("libqrencode could not make the QR code");
    }
    QrMatrix matrix;
    matrix.width = code->width;
    matrix.dark.resize(static_cast<std::size_t>(code->width) * static_cast<std::size_t>(code->width));
    // Bit 0 of each byte is the module's colour (qrencode.h); the other bits
    // say what the module is part of.
    for (std::size_t i = 0; i < matrix.dark.size(); ++i) matrix.dark[i] = (code->data[i] & 1) != 0;
    return matrix;
}

std::string qrSvg(const QrMatrix& matrix, int quietZone) {
    const int size = matrix.width + 2 * quietZone;
    const std::string side = std::to_string(size);
    std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + side + " " + side +
                      "\" shape-rendering=\"crispEdges\">";
    svg += "<rect width=\"" + side + "\" height=\"" + side + "\" fill=\"#fff\"/><path fill=\"#000\" d=\"";
    for (int y = 0; y < matrix.width; ++y) {
        for (int x = 0; x < matrix.width;) {
            if (!matrix.at(x, y)) {
                ++x;
                continue;
            }
            int run = 1;
            while (x + run < matrix.width && matrix.at(x + run, y)) ++run;
            svg += "M" + std::to_string(x + quietZone) + " " + std::to_string(y + quietZone) + "h" +
                   std::to_string(run) + "v1h-" + std::to_string(run) + "z";
            x += run;
        }
    }
    svg += "\"/></svg>\n";
    return svg;
}

std::string qrTerminal(const QrMatrix& matrix, int quietZone) {
    const int size = matrix.width + 2 * quietZone;
    auto dark = [&](int x, int y) {
        x -= quietZone;
        y -= quietZone;
        return x >= 0 && y >= 0 && x < matrix.width && y < matrix.width && matrix.at(x, y);
    };
    std::string text;
    for (int y = 0; y < size; y += 2) {
        text += "\x1b[30;47m";
        for (int x = 0; x < size; ++x) {
            const bool top = dark(x, y);
            const bool bottom = y + 1 < size && dark(x, y + 1);
            text += top && bottom ? "\u2588" : top ? "\u2580" : bottom ? "\u2584" : " ";
        }
        text += "\x1b[0m\n";
    }
    return text;
}

}  // namespace vivaref::server
