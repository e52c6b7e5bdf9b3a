// Clustered samples: nested ANOVA on ranks and the design effect.

#include "etbench/harness/design_effect.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "etbench/harness/stats.h"

namespace etbench {
namespace {

// Midranks (1-based) of the pooled samples, baseline first.
std::vector<double> PooledRanks(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = a.size() + b.size();
  std::vector<double> values(a);
  values.insert(values.end(), b.begin(), b.end());
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&values](std::size_t x, std::size_t y) { return values[x] < values[y]; });
  std::vector<double> ranks(n);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && values[order[j + 1]] == values[order[i]]) ++j;
    const double midrank = (static_cast<double>(i) + static_cast<double>(j)) / 2 + 1;
    for (std::size_t k = i; k <= j; ++k) ranks[order[k]] = midrank;
    i = j + 1;
  }
  return ranks;
}

uint64_t Sum(const std::vector<uint64_t>& v) { return std::accumulate(v.begin(), v.end(), uint64_t{0}); }

// One side's cluster structure: sessions of repetitions of samples.
struct Layout {
  bool usable = false;
  std::vector<uint64_t> groups;    // samples per repetition
  std::vector<uint64_t> sessions;  // repetitions per session
};

Layout LayoutOf(const Metric& m) {
  Layout l;
  if (m.group_sizes.empty() || Sum(m.group_sizes) != m.samples.size()) return l;
  l.usable = true;
  l.groups = m.group_sizes;
  if (!m.session_sizes.empty() && Sum(m.session_sizes) == m.group_sizes.size()) {
    l.sessions = m.session_sizes;
  } else {
    l.sessions = {m.group_sizes.size()};
  }
  return l;
}

struct NestedAnova {
  double ss_session = 0, ss_rep = 0, ss_within = 0;
  double df_session = 0, df_rep = 0, df_within = 0;
  double samples = 0, repetitions = 0, sessions = 0;
};

double Mean(const double* x, uint64_t n) {
  double s = 0;
  for (uint64_t i = 0; i < n; ++i) s += x[i];
  return s / static_cast<double>(n);
}

void AddSide(const double* ranks, const Layout& l, NestedAnova* a) {
  const uint64_t n = Sum(l.groups);
  const double side_mean = Mean(ranks, n);
  std::size_t at = 0, group = 0;
  for (uint64_t reps : l.sessions) {
    uint64_t session_n = 0;
    for (uint64_t r = 0; r < reps; ++r) session_n += l.groups[group + r];
    const double session_mean = Mean(ranks + at, session_n);
    a->ss_session += static_cast<double>(session_n) * (session_mean - side_mean) *
                     (session_mean - side_mean);
    for (uint64_t r = 0; r < reps; ++r, ++group) {
      const uint64_t k = l.groups[group];
      const double rep_mean = Mean(ranks + at, k);
      a->ss_rep += static_cast<double>(k) * (rep_mean - session_mean) * (rep_mean - session_mean);
      for (uint64_t i = 0; i < k; ++i) {
        a->ss_within += (ranks[at + i] - rep_mean) * (ranks[at + i] - rep_mean);
      }
      at += k;
    }
  }
  const double s = static_cast<double>(l.sessions.size());
  const double r = static_cast<double>(l.groups.size());
  a->df_session += s - 1;
  a->df_rep += r - s;
  a->df_within += static_cast<double>(n) - r;
  a->samples += static_cast<double>(n);
  a->repetitions += r;
  a->sessions += s;
}

}  // namespace

DesignEffect EstimateDesignEffect(const Metric& baseline, const Metric& candidate) {
  DesignEffect out;
  const Layout lb = LayoutOf(baseline), lc = LayoutOf(candidate);
  if (!lb.usable && !lc.usable) return out;
  const std::vector<double> ranks = PooledRanks(baseline.samples, candidate.samples);
  NestedAnova a;
  if (lb.usable) AddSide(ranks.data(), lb, &a);
  if (lc.usable) AddSide(ranks.data() + baseline.samples.size(), lc, &a);
  out.repetitions = static_cast<std::size_t>(a.repetitions);
  out.sessions = static_cast<std::size_t>(a.sessions);
  if (a.df_within <= 0) return out;

  const double ms_within = a.ss_within / a.df_within;
  const double k = a.samples / a.repetitions;  // samples per repetition
  const double ms_rep = a.df_rep > 0 ? a.ss_rep / a.df_rep : 0;
  const double var_within = ms_within;
  double var_rep = a.df_rep > 0 ? std::max(0.0, (ms_rep - ms_within) / k) : 0.0;
  double var_session = 0;
  if (a.df_session > 0) {
    const double below = a.df_rep > 0 ? ms_rep : ms_within;
    const double per_session = a.samples / a.sessions;
    var_session = std::max(0.0, (a.ss_session / a.df_session - below) / per_session);
  }
  if (a.df_rep <= 0) {
    // One repetition per session everywhere (etbench ab): the two levels
    // cannot be told apart, and with S = R on every side the variance is the
    // same either way. Call it run-to-run variance, the level the user can
    // act on (more runs).
    var_rep = var_session;
    var_session = 0;
  }
  const double total = var_session + var_rep + var_within;
  if (!(total > 0)) return out;
  out.icc = (var_session + var_rep) / total;
  out.session_share = var_session / total;

  // Each side's variance of its mean, in units of the total variance.
  auto side_variance = [&](const Layout& l, std::size_t n) {
    if (!l.usable) return total / static_cast<double>(n);
    return var_session / static_cast<double>(l.sessions.size()) +
           var_rep / static_cast<double>(l.groups.size()) + var_within / static_cast<double>(n);
  };
  const std::size_t nb = baseline.samples.size(), nc = candidate.samples.size();
  const double independent = total * (1 / static_cast<double>(nb) + 1 / static_cast<double>(nc));
  out.factor = std::max(1.0, (side_variance(lb, nb) + side_variance(lc, nc)) / independent);
  return out;
}

double InflateTwoSidedP(double p, double factor) {
  if (!(factor > 1) || !(p < 1) || std::isnan(p)) return p;
  // The lower tail keeps its precision for tiny p; an underflowed p is
  // beyond 38 standard deviations.
  const double z = p > 0 ? -NormalQuantile(p / 2) : 38.0;
  return std::min(1.0, 2 * NormalSf(z / std::sqrt(factor)));
}

}  // namespace etbench
