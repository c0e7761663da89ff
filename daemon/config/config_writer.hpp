// A castle configuration written back as the INI file the reader reads
// (config_file.hpp): the castle's own sections ([castle], [sensing],
// [buttons], [leds], [reader.NAME], [station.SEAT]) from a CastleConfig, in
// the order and form of examples/castle-2024.ini, each with a short comment;
// every other section of a base file ([daemon], [store], [voice], [club]...)
// carried through line for line, comments included, but for [daemon]'s
// `hardware` (written as the CastleConfig's) and `sim_bench` (turned into a
// comment on real hardware, which plays no bench). Reading the result gives
// the same CastleConfig (tests/config/test_config_writer.cpp). The guided
// set-up writes the configuration in force with it (config_in_force.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "daemon/config/castle_config.hpp"

namespace vivaref::config {

// The sections the writer writes from a CastleConfig; a base file's others
// are kept as they were.
bool isCastleSection(std::string_view section);

struct WrittenConfig {
    std::string text;  // the whole file, when nothing was refused
    // What cannot be written without breaking the file (a `#` in a value, a
    // line break, spaces around it, a reader's name that is no section
    // name): the key ("reader.floor3-a.bus") and why, in English. Nothing is
    // written then.
    std::string refusedKey;
    std::string refusedReason;
    bool ok() const { return refusedKey.empty() && refusedReason.empty(); }
};

// `castle`'s sections, and `baseText`'s others (empty: none). Lines end
// with '\n'; the text is UTF-8 as the values are. `baseDirectory`: where the
// base file is, when the result goes elsewhere: a kept key whose value is a
// file relative to its configuration's directory ([daemon] sim_bench) is
// then written absolute, so that it still names the same file.
WrittenConfig writeCastleConfig(const CastleConfig& castle, std::string_view baseText,
                                const std::filesystem::path& baseDirectory = {});

// `text` (a configuration) to be shown on a screen: the secrets' values
// ([daemon] host_token, [club] password and league_password) replaced by
// kHiddenValue, every other line as it was. The guided set-up's review
// shows the file to be written this way; the file keeps them.
inline constexpr std::string_view kHiddenValue = "********";
std::string withSecretsHidden(std::string_view text);

}  // namespace vivaref::config
