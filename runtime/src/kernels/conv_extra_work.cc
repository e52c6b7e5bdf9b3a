// The amount of the two-builds test's extra convolution work, one object per
// build (conv_extra_work.h): ETBENCH_RUNTIME_CONV_EXTRA_PASSES is 0 for
// et_runner_base and 1 for et_runner_slow_conv.
#include "conv_extra_work.h"

namespace etbench::runtime::kernels {

volatile const int kConvExtraQuarterPasses = ETBENCH_RUNTIME_CONV_EXTRA_PASSES;

}  // namespace etbench::runtime::kernels
