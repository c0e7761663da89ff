// A host request in its trace line form (what the trace records and the
// table takes) as the referee's request. The trace reader and the table
// core have checked the line's form already.
#pragma once

#include "daemon/referee/referee.hpp"
#include "daemon/trace/trace_line.hpp"

namespace vivaref::table {

referee::HostRequest hostRequest(const trace::HostLine& host);

}  // namespace vivaref::table
