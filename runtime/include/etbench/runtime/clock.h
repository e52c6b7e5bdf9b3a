#pragma once
// Tick sources of the reference runtime: the monotonic clock in nanoseconds,
// or the CPU's cycle/tick counter (TSC on x86-64, the virtual counter
// CNTVCT_EL0 on AArch64). The ETDump stores raw ticks and no unit, so the
// tick rate is measured here and recorded in the run's metadata.

#include <cstdint>
#include <ctime>
#include <string_view>

#include "etbench/base/result.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace etbench::runtime {

enum class TimeSource { kNs, kCycles };

/// "ns" or "cycles".
std::string_view TimeSourceName(TimeSource source);

/// Parses "ns" or "cycles"; the error names the accepted values.
Result<TimeSource> ParseTimeSource(std::string_view name);

/// True when this CPU has a cycle counter etbench can read.
bool CycleCounterAvailable();

/// Nanoseconds of CLOCK_MONOTONIC.
inline uint64_t ReadMonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull +
         static_cast<uint64_t>(ts.tv_nsec);
}

/// The raw cycle/tick counter; 0 on CPUs without one (see
/// CycleCounterAvailable). Not serializing: like the runtime's own tick
/// reads, it may be reordered by a few instructions.
inline uint64_t ReadCycleCounter() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#elif defined(__aarch64__)
  uint64_t value;
  asm volatile("mrs %0, cntvct_el0" : "=r"(value));
  return value;
#else
  return 0;
#endif
}

/// Reads the given source.
inline uint64_t ReadTicks(TimeSource source) {
  return source == TimeSource::kCycles ? ReadCycleCounter() : ReadMonotonicNs();
}

struct TickRate {
  double hz = 1e9;
  /// True when `hz` was measured against the monotonic clock rather than
  /// known exactly (ns) or read from the hardware (CNTFRQ_EL0).
  bool measured = false;
};

/// Measures the tick rate of a source over an interval: construct it
/// before a run, call Finish() after. Finish() spins until at least
/// `min_window_ms` have passed since construction, so short runs still get
/// a precise rate and long runs pay nothing.
///   ns: exactly 1e9 (not measured).
///   cycles on AArch64: CNTFRQ_EL0, read from the hardware.
///   cycles elsewhere: Δticks / Δ(CLOCK_MONOTONIC) over the interval.
class TickRateMeter {
 public:
  explicit TickRateMeter(TimeSource source);
  TickRate Finish(double min_window_ms = 20.0) const;

 private:
  TimeSource source_;
  uint64_t ns0_;
  uint64_t ticks0_;
};

/// TickRateMeter(source).Finish(window_ms).
TickRate MeasureTickRate(TimeSource source, double window_ms = 20.0);

}  // namespace etbench::runtime
