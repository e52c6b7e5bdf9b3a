#pragma once
// `gate --base … [--head …]` is `etbench ab` (--a = --base, --b = --head):
// its help lists those flags and ab's schedule and sizing options as a
// group of gate's own table, taken from ab's table (not declared twice).

#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "etbench/base/result.h"

namespace etbench {

/// Adds to `gate` a group with --base, --head and every option of ab's table
/// that `gate` does not declare (except --a, --b and CONFIG). Returns the
/// names added. Call after gate's own options are declared.
std::vector<std::string> AddPullRequestOptions(boost::program_options::options_description* gate);

/// A usage error naming the first of `names` given in `vm` (without --base
/// they do not apply: gate did not run ab).
Status RejectPullRequestOptions(const boost::program_options::variables_map& vm,
                                const std::vector<std::string>& names);

}  // namespace etbench
