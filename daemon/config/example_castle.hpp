// The example castle (examples/castle-2024.ini: 28 readers, 8 stations, the
// 2024 edition's places), compiled into the binary so that an installed
// daemon has it: the guided set-up can start from its wiring.
#pragma once

#include <string_view>

namespace vivaref::config {

// The file's text, as shipped (its name for problems: "castle-2024.ini").
std::string_view exampleCastleText();
inline constexpr std::string_view kExampleCastleName = "castle-2024.ini";

}  // namespace vivaref::config
