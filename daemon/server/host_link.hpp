// The addresses a person opens: the castle's pages as the host reaches them,
// and the host's link (the host page with the host's secret after the #, so
// it never reaches a server log or a Referer header). Shared by `vivaref
// serve` (printed at start) and `vivaref host-link`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace vivaref::server {

// http://ADDRESS:PORT/ for `address` as serve listens on it; an unspecified
// address (0.0.0.0, ::: every interface) becomes the first of the
// addresses phones at the table open (table_addresses.hpp: a private IPv4
// address of this machine first).
std::string castleUrl(std::string_view address, std::uint16_t port);

// `castleUrl` + "host.html#" + token.
std::string hostLink(const std::string& castleUrl, std::string_view token);
// `castleUrl` + "sim.html#" + token: the simulated castle, played with the host's secret.
std::string simLink(const std::string& castleUrl, std::string_view token);

}  // namespace vivaref::server
