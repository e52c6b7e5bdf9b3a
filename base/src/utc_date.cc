#include "etbench/base/utc_date.h"

#include <time.h>

#include <ctime>

namespace etbench {

std::string FormatUtcDate(int64_t unix_seconds) {
  const time_t t = static_cast<time_t>(unix_seconds);
  tm utc;
  gmtime_r(&t, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

}  // namespace etbench
