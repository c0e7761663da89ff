// Which castle configuration is in force, and how a new one is saved.
//
// The guided set-up (the host page) saves a complete configuration as
// `castle.ini` in the state directory of the configuration serve is given
// (`--config F`; F's `[daemon] state_dir`, else the default state
// directory). When that file exists and is valid it is in force instead of
// F, for every command that asks: serve, unit-access (so the generator's
// drop-in follows it), `check-config --in-force`. A castle.ini with
// problems is not in force: F is, and the reason is said. One function
// decides, so that they never disagree (daemon/config/NOTES.md, "The
// configuration in force").
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "daemon/config/castle_config.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/config/config_problem.hpp"
#include "engine/message.hpp"

namespace vivaref::config {

// The saved configuration's name in the state directory, castle.ini
// (written as two literals: the words test takes a quoted castle-dot-word
// for a message code); the previous one is kept beside it as castle.ini.bak.
inline constexpr std::string_view kSavedConfigName =
    "castle"
    ".ini";

struct ConfigInForce {
    std::filesystem::path given;  // F, the file the command was given
    std::filesystem::path saved;  // <state directory>/castle.ini, whether it exists or not
    bool usesSaved = false;       // castle.ini is in force (else F is)
    // The file in force (saved or given), checked as check-config checks it.
    ConfigCheck check;
    // castle.ini's problems when it exists but cannot be used (F is then in force).
    ConfigProblems savedProblems;
    // One English line saying which file is in force and why, for stderr.
    std::string why;

    const std::filesystem::path& file() const { return usesSaved ? saved : given; }
};

// F's state directory's castle.ini when it exists and is valid, else F.
// F that cannot be read is in force (its check says why): without it there
// is no state directory to look in.
ConfigInForce configInForce(const std::filesystem::path& given);

// What saving a new configuration came to.
struct SaveResult {
    bool saved = false;
    // For the host: castle.config.saved {file}; castle.config.problems
    // {count, first} (first: the first problem as check-config prints it);
    // castle.config.unwritable {key}; castle.config.not-saved {file, why}.
    engine::Message message;
    // The problems of the file that would have been written, by its lines
    // (check-config's, with the target's name): none unless refused for them.
    ConfigProblems problems;
    std::string why;  // English, one line, for stderr: what was done or why not
};

// Writes `castle` to `target` with the sections of `baseText` that are not
// the castle's kept (config_writer.hpp), once the text to be written passes
// check-config's checks: a temporary file beside it, fsynced; the previous
// `target` kept as `target`.bak; renamed into place; the directory fsynced.
// On any failure the previous file is untouched, and in force.
// `baseDirectory`: the base file's (config_writer.hpp: a relative file it names stays the same file).
SaveResult saveCastleConfig(const CastleConfig& castle, std::string_view baseText,
                            const std::filesystem::path& target,
                            const std::filesystem::path& baseDirectory = {});

// The set-up's save: over the file in force (its other sections kept), to
// the state directory's castle.ini.
SaveResult saveCastleConfig(const CastleConfig& castle, const ConfigInForce& inForce);

// The set-up's castle put aside, so that the given file is in force again:
// castle.ini renamed castle.ini.bak (the backup it had replaced), the
// directory fsynced. `saved`: renamed; message castle.config.put-aside
// {file, backup, given}, or castle.config.nothing-saved (no castle.ini),
// castle.config.not-saved {file, why} (the rename refused: nothing changed).
SaveResult putAsideSavedConfig(const ConfigInForce& inForce);

}  // namespace vivaref::config
