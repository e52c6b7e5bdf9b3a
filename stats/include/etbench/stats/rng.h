#pragma once
// Small, fast, reproducible random number generation for the bootstrap and
// the simulations (identical on every platform, unlike <random>'s
// distributions).

#include <cstdint>
#include <string_view>

namespace etbench::internal {

/// SplitMix64 step: a good 64-bit mixer, used to expand seeds.
inline uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// FNV-1a 64 of a string: a stable hash (std::hash is not).
inline uint64_t Fnv1a64(std::string_view text, uint64_t hash = 0xCBF29CE484222325ull) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001B3ull;
  }
  return hash;
}

/// xoshiro256** (Blackman & Vigna): fast 64-bit generator.
class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed) {
    uint64_t state = seed;
    for (uint64_t& word : s_) word = SplitMix64(state);
  }
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  /// Uniform in [0, 1).
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [0, bound) (Lemire's multiply-shift; bias < 2^-32
  /// for bounds below 2^32).
  uint32_t Below(uint32_t bound) {
    return static_cast<uint32_t>(((Next() >> 32) * bound) >> 32);
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace etbench::internal
