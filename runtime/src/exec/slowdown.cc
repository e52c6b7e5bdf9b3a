#include "exec/slowdown.h"

namespace etbench::runtime {
namespace {

// Keeps the work observable.
volatile float g_sink = 0.0f;

}  // namespace

void ExtendOpDuration(const Tracer& tracer, uint64_t start, double factor,
                      const float* data, int64_t n) {
  if (!(factor > 1.0)) return;
  const uint64_t now = tracer.Now();
  if (now <= start) return;
  const auto extra =
      static_cast<uint64_t>(static_cast<double>(now - start) * (factor - 1.0));
  const uint64_t target = now + extra;
  static const float kFallback[1] = {1.0f};
  if (data == nullptr || n <= 0) {
    data = kFallback;
    n = 1;
  }
  float acc = g_sink;
  int64_t i = 0;
  // Chunks of 64 dependent steps (~100 ns) between clock reads: fine enough
  // to hit the target within a fraction of a microsecond.
  while (tracer.Now() < target) {
    for (int step = 0; step < 64; ++step) {
      acc = acc * 0.999f + data[i];
      if (++i == n) i = 0;
    }
  }
  g_sink = acc;
}

}  // namespace etbench::runtime
