#pragma once
// The reports library's entry points: render one format, or write several
// (`--report FORMAT[=FILE]` on run, compare and gate).

#include <ostream>
#include <string>
#include <vector>

#include "etbench/base/disk.h"
#include "etbench/base/result.h"
#include "etbench/reports/report_format.h"
#include "etbench/reports/report_input.h"

namespace etbench::reports {

/// Renders `input` in `format`. Errors: no comparison or results in
/// `input`.
Result<std::string> RenderReport(ReportFormat format, const ReportInput& input,
                                 const ReportOptions& options = {});

/// Renders each request and writes it atomically to its file (creating
/// parent directories), or to `out` when its path is "" or "-". Colour is
/// used only for the terminal format written to `out` with
/// `options.color`. Stops at the first error (naming the file). Files are
/// written through `disk`.
Status WriteReports(const std::vector<ReportRequest>& requests, const ReportInput& input,
                    const ReportOptions& options, std::ostream& out,
                    Disk& disk = DefaultDisk());

}  // namespace etbench::reports
