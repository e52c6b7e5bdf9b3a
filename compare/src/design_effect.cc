// Clustered samples: nested ANOVA, the design effect and the cluster test.

#include "etbench/compare/design_effect.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "etbench/stats/stats.h"

namespace etbench {
namespace {

uint64_t Sum(const std::vector<uint64_t>& v) {
  return std::accumulate(v.begin(), v.end(), uint64_t{0});
}

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

// Timings scale multiplicatively: logs, unless a value is not positive.
std::vector<double> Transform(const std::vector<double>& x, bool log) {
  std::vector<double> out(x);
  if (log) {
    for (double& v : out) v = std::log(v);
  }
  return out;
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

void AddSide(const std::vector<double>& values, const Layout& l, NestedAnova* a) {
  const double* x = values.data();
  const uint64_t n = values.size();
  const double side_mean = Mean(x, n);
  std::size_t at = 0, group = 0;
  for (uint64_t reps : l.sessions) {
    uint64_t session_n = 0;
    for (uint64_t r = 0; r < reps; ++r) session_n += l.groups[group + r];
    const double session_mean = Mean(x + at, session_n);
    a->ss_session += static_cast<double>(session_n) * (session_mean - side_mean) *
                     (session_mean - side_mean);
    for (uint64_t r = 0; r < reps; ++r, ++group) {
      const uint64_t k = l.groups[group];
      const double rep_mean = Mean(x + at, k);
      a->ss_rep += static_cast<double>(k) * (rep_mean - session_mean) * (rep_mean - session_mean);
      for (uint64_t i = 0; i < k; ++i) a->ss_within += (x[at + i] - rep_mean) * (x[at + i] - rep_mean);
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

bool AllSingletons(const Layout& l) {
  return std::all_of(l.groups.begin(), l.groups.end(), [](uint64_t g) { return g == 1; });
}

// One sample per repetition (Program::load_method, Method::init): there is
// no within-repetition level, so the levels shift down — each session is a
// group of single-sample repetitions.
void CollapseSingletonRepetitions(Layout* l) {
  if (!l->usable) return;
  l->groups = l->sessions;
  l->sessions = {l->groups.size()};
}

// Fills the results of `out` from out->model.
void Evaluate(DesignEffect* out) {
  const DesignEffect::Model& m = out->model;
  const double total = m.var_session + m.var_rep + m.var_within;
  if (!(total > 0)) return;
  out->icc = (m.var_session + m.var_rep) / total;
  // After collapsing, the "repetition" level is the sessions.
  out->session_share = (m.collapsed ? m.var_rep + m.var_session : m.var_session) / total;
  const double variance =
      m.a_session * m.var_session + m.a_rep * m.var_rep + m.a_within * m.var_within;
  out->factor = std::max(1.0, variance / (total * m.inverse_n));

  // The cluster-level test: difference of the side means over its standard
  // error, Satterthwaite degrees of freedom over the components.
  auto term = [](double coefficient, double var, double df) {
    return df > 0 ? (coefficient * var) * (coefficient * var) / df : 0.0;
  };
  const double denominator = term(m.a_session, m.var_session, m.df_session) +
                             term(m.a_rep, m.var_rep, m.df_rep) +
                             term(m.a_within, m.var_within, m.df_within);
  if (variance > 0 && denominator > 0) {
    out->usable = true;
    out->t = m.difference / std::sqrt(variance);
    out->df = variance * variance / denominator;
    out->p_value = StudentTwoSidedP(out->t, out->df);
  }
}

}  // namespace

DesignEffect EstimateDesignEffect(const Metric& baseline, const Metric& candidate) {
  DesignEffect out;
  Layout lb = LayoutOf(baseline), lc = LayoutOf(candidate);
  if (!lb.usable && !lc.usable) return out;
  if (baseline.samples.empty() || candidate.samples.empty()) return out;
  DesignEffect::Model& m = out.model;
  // Both sides must agree on what a level means.
  m.collapsed = (!lb.usable || AllSingletons(lb)) && (!lc.usable || AllSingletons(lc));
  if (m.collapsed) {
    CollapseSingletonRepetitions(&lb);
    CollapseSingletonRepetitions(&lc);
  }
  const bool log = std::all_of(baseline.samples.begin(), baseline.samples.end(),
                               [](double v) { return v > 0; }) &&
                   std::all_of(candidate.samples.begin(), candidate.samples.end(),
                               [](double v) { return v > 0; });
  const std::vector<double> xb = Transform(baseline.samples, log);
  const std::vector<double> xc = Transform(candidate.samples, log);
  NestedAnova a;
  if (lb.usable) AddSide(xb, lb, &a);
  if (lc.usable) AddSide(xc, lc, &a);
  out.repetitions = static_cast<std::size_t>(a.repetitions);
  out.sessions = static_cast<std::size_t>(a.sessions);
  if (a.df_within <= 0) return out;

  const double ms_within = a.ss_within / a.df_within;
  const double k = a.samples / a.repetitions;  // samples per repetition
  const double ms_rep = a.df_rep > 0 ? a.ss_rep / a.df_rep : 0;
  m.var_within = ms_within;
  m.var_rep = a.df_rep > 0 ? std::max(0.0, (ms_rep - ms_within) / k) : 0.0;
  if (a.df_session > 0) {
    const double below = a.df_rep > 0 ? ms_rep : ms_within;
    const double per_session = a.samples / a.sessions;
    m.var_session = std::max(0.0, (a.ss_session / a.df_session - below) / per_session);
  }
  m.df_within = a.df_within;
  m.df_rep = a.df_rep;
  m.df_session = a.df_session;
  if (a.df_rep <= 0) {
    // One repetition per session everywhere (etbench ab): the two levels
    // cannot be told apart, and with S = R on every side the variance is the
    // same either way. Call it run-to-run variance, the level the user can
    // act on (more runs).
    m.var_rep = m.var_session;
    m.var_session = 0;
    m.df_rep = m.df_session;
    m.df_session = 0;
  }

  // Each side's variance of its mean: coefficients of the components.
  auto add_side = [&m](const Layout& l, std::size_t n) {
    const double nn = static_cast<double>(n);
    m.a_session += l.usable ? 1 / static_cast<double>(l.sessions.size()) : 1 / nn;
    m.a_rep += l.usable ? 1 / static_cast<double>(l.groups.size()) : 1 / nn;
    m.a_within += 1 / nn;
    m.inverse_n += 1 / nn;
  };
  add_side(lb, baseline.samples.size());
  add_side(lc, candidate.samples.size());
  m.difference = Mean(xc.data(), xc.size()) - Mean(xb.data(), xb.size());
  out.fitted = true;
  Evaluate(&out);
  return out;
}

DesignEffect WithIccFloor(const DesignEffect& estimate, double min_icc) {
  const DesignEffect::Model& m = estimate.model;
  if (!estimate.fitted || !(min_icc > 0 && min_icc < 1) || !(m.var_within > 0) ||
      m.var_session + m.var_rep >= min_icc / (1 - min_icc) * m.var_within) {
    return estimate;
  }
  DesignEffect out = estimate;
  // The pooled floor is estimated from many metrics: its degrees of freedom
  // are those of the within level.
  out.model.var_rep = min_icc / (1 - min_icc) * m.var_within - m.var_session;
  out.model.df_rep = std::max(m.df_rep, m.df_within);
  Evaluate(&out);
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
