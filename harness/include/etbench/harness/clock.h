#pragma once
// Time for the harness itself (ETA, wall times, the results' date), behind
// an interface so tests control it. Model timings come from the ETDump.
// (Dates are formatted by etbench/base/utc_date.h.)

#include <cstdint>
#include <memory>
#include <string>

namespace etbench::harness {

class Clock {
 public:
  virtual ~Clock() = default;
  /// Monotonic seconds from an arbitrary origin.
  virtual double MonotonicSeconds() = 0;
  /// Seconds since the Unix epoch (UTC), for dates.
  virtual int64_t UnixSeconds() = 0;
};

/// CLOCK_MONOTONIC and the system's wall clock.
std::unique_ptr<Clock> MakeSystemClock();

}  // namespace etbench::harness
