#!/bin/sh
# The layers as the README draws them, checked on every include: a file
# that reaches up or sideways fails with its name and line.
#   - engine/ is pure standard C++: it includes only engine/;
#   - drivers/ knows nothing of the rules nor the daemon;
#   - live play never runs through the simulation: nothing of the table,
#     the serve library, the referee, the store, the club, the analysis,
#     the configuration, the hardware or the traces includes
#     daemon/simulation/ or drivers/sim/ (the simulated castle beside the
#     real one in daemon/castle/, and `vivaref enrol`'s demo run beside its
#     real run in daemon/enrol/, may).
# Usage: layers.sh SOURCE_DIR
set -u
cd "${1:?usage: layers.sh SOURCE_DIR}" || exit 2
bad=0
report() {
    # $1: what the rule is; the rest: grep's output lines (file:line:text)
    rule=$1
    shift
    if [ -n "$*" ]; then
        printf '%s\n' "$*" | sed "s|^|layers: $rule: |"
        bad=1
    fi
}
report "engine/ includes only engine/" \
    "$(grep -rn '^#include "' engine --include='*.hpp' --include='*.cpp' | grep -v '#include "engine/')"
report "drivers/ includes neither daemon/ nor engine/" \
    "$(grep -rn '^#include "\(daemon\|engine\)/' drivers --include='*.hpp' --include='*.cpp')"
report "live play does not include the simulation" \
    "$(grep -rn '^#include "\(daemon/simulation\|drivers/sim\)/' \
        daemon/table daemon/server daemon/referee daemon/store daemon/club daemon/analysis \
        daemon/config daemon/hardware daemon/trace \
        --include='*.hpp' --include='*.cpp')"
[ "$bad" = 0 ] && echo "layers: every include goes downward"
exit "$bad"
