// One thing wrong with a castle configuration file, said so that the owner
// can find and fix it: the file, the line (0 when it concerns the file as a
// whole), the key ("reader.floor3-a.bus", or a section "[reader.floor3-a]")
// and the reason.
#pragma once

#include <string>
#include <vector>

namespace vivaref::config {

struct ConfigProblem {
    std::string file;
    int line = 0;
    std::string key;
    std::string reason;

    // "castle.ini:12: reader.floor3-a.bus: ..." ("castle.ini: ..." without line or key).
    std::string text() const;
    friend bool operator==(const ConfigProblem&, const ConfigProblem&) = default;
};

using ConfigProblems = std::vector<ConfigProblem>;

}  // namespace vivaref::config
