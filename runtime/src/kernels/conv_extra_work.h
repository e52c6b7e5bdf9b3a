// The two-builds test's slower convolution (et_runner_base and
// et_runner_slow_conv, built with the tests, never installed).
//
// Both builds link the same convolution object, compiled once with
// ETBENCH_RUNTIME_CONV_EXTRA_WORK: its kernel calls a non-inlined function
// that computes the first quarter of the output channels this many times
// more. Only this constant differs between the builds, defined in a separate
// object per build (conv_extra_work.cc: 0 in et_runner_base, 1 in
// et_runner_slow_conv) and volatile, so no optimiser, at any -O level or
// with LTO, can compile the kernel differently for the two builds. (An
// #ifdef inside the kernel did: at -O2 the slow build's other convolution
// got 11% faster, issue 33.) The difference between the builds is then
// real work at run time, as a code change would add.
#ifndef ETBENCH_RUNTIME_KERNELS_CONV_EXTRA_WORK_H_
#define ETBENCH_RUNTIME_KERNELS_CONV_EXTRA_WORK_H_

namespace etbench::runtime::kernels {

/// Extra passes over the first quarter of the output channels, per call of
/// Conv2d with batch 1, one group and at least 4 output channels.
extern volatile const int kConvExtraQuarterPasses;

}  // namespace etbench::runtime::kernels

#endif  // ETBENCH_RUNTIME_KERNELS_CONV_EXTRA_WORK_H_
