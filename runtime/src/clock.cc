#include "etbench/runtime/clock.h"

#include <string>

namespace etbench::runtime {

std::string_view TimeSourceName(TimeSource source) {
  return source == TimeSource::kCycles ? "cycles" : "ns";
}

Result<TimeSource> ParseTimeSource(std::string_view name) {
  if (name == "ns") return TimeSource::kNs;
  if (name == "cycles") return TimeSource::kCycles;
  return UsageError("unknown time source '" + std::string(name) +
                    "' (expected ns or cycles)");
}

bool CycleCounterAvailable() {
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
  return true;
#else
  return false;
#endif
}

namespace {

#if defined(__aarch64__)
uint64_t ReadCounterFrequency() {
  uint64_t value;
  asm volatile("mrs %0, cntfrq_el0" : "=r"(value));
  return value;
}
#endif

}  // namespace

TickRateMeter::TickRateMeter(TimeSource source)
    : source_(source), ns0_(ReadMonotonicNs()), ticks0_(ReadTicks(source)) {}

TickRate TickRateMeter::Finish(double min_window_ms) const {
  if (source_ == TimeSource::kNs) return TickRate{1e9, false};
#if defined(__aarch64__)
  const uint64_t frequency = ReadCounterFrequency();
  if (frequency != 0) return TickRate{static_cast<double>(frequency), false};
#endif
  // Spin rather than sleep: the window only has to be long enough for the
  // two clocks' read jitter (tens of ns) to vanish in the ratio.
  const auto window_ns = static_cast<uint64_t>(min_window_ms * 1e6);
  uint64_t ns1 = ReadMonotonicNs();
  while (ns1 - ns0_ < window_ns) ns1 = ReadMonotonicNs();
  const uint64_t ticks1 = ReadCycleCounter();
  if (ns1 == ns0_ || ticks1 <= ticks0_) return TickRate{1e9, true};
  return TickRate{static_cast<double>(ticks1 - ticks0_) * 1e9 /
                      static_cast<double>(ns1 - ns0_),
                  true};
}

TickRate MeasureTickRate(TimeSource source, double window_ms) {
  return TickRateMeter(source).Finish(window_ms);
}

}  // namespace etbench::runtime
