#include "daemon/config/config_problem.hpp"

namespace vivaref::config {

std::string ConfigProblem::text() const {
    std::string out = file;
    if (line > 0) out += ":" + std::to_string(line);
    out += ": ";
    if (!key.empty()) out += key + ": ";
    return out + reason;
}

}  // namespace vivaref::config
