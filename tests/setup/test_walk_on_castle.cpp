// The castle walk on the simulated castle (daemon/castle/simulated_castle.hpp):
// its faults (a silenced reader, a tag read by two readers) found through
// the castle's own scans, in virtual time.
#include <doctest/doctest.h>
