#pragma once
// A model of the reference runtime: a graph of ops over float32 tensors,
// loaded from a YAML file (see runtime/README.md for the format).
// Once loaded, a Model is valid: every name resolves, nodes are in
// topological order, every shape is known, and delegate partitions are
// contiguous.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace etbench::runtime {

/// Where something was written in a model file (1-based line and column).
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

/// "file:line:column" (or just the file when the position is unknown).
std::string FormatLocation(const SourceLocation& location);

enum class OpType {
  kConv2d,
  kLinear,
  kMatmul,
  kRelu,
  kRelu6,
  kGelu,
  kMaxPool2d,
  kAvgPool2d,
  kAdd,
  kMul,
  kSoftmax,
  kLayerNorm,
  kPermute,
  kReshape,
  kFlatten,
};

/// The model-file spelling of an op ("conv2d", "linear", ...).
const char* OpTypeName(OpType op);

/// Attributes of a node; which ones apply depends on the op (the loader
/// rejects attributes an op does not take).
struct OpAttributes {
  // conv2d
  int64_t in_channels = -1;  // optional check
  int64_t out_channels = -1;
  // conv2d, max_pool2d, avg_pool2d: [h, w]
  int64_t kernel_h = 1;
  int64_t kernel_w = 1;
  int64_t stride_h = 1;
  int64_t stride_w = 1;
  int64_t pad_h = 0;
  int64_t pad_w = 0;
  int64_t groups = 1;
  // conv2d, linear
  bool bias = true;
  // linear
  int64_t in_features = -1;  // optional check
  int64_t out_features = -1;
  // gelu: "none" (erf) or "tanh"
  std::string approximate = "none";
  // add, mul: a constant second operand instead of a second input
  std::optional<double> scalar;
  // softmax
  int64_t dim = -1;
  // layer_norm
  double eps = 1e-5;
  // permute
  std::vector<int64_t> dims;
  // reshape (one entry may be -1)
  std::vector<int64_t> sizes;
  // flatten
  int64_t start_dim = 1;
  int64_t end_dim = -1;
};

struct Node {
  std::string name;
  OpType op = OpType::kRelu;
  std::vector<std::string> inputs;
  OpAttributes attrs;
  /// Name of the delegate partition this node belongs to; empty when the
  /// node runs on the portable kernels.
  std::string delegate;
  /// Inferred output shape (checked against the file's `shape:` if given).
  std::vector<int64_t> output_shape;
  /// Dotted path of the nn.Module the node belongs to (`module:`, e.g.
  /// "blocks.0.attn.q_proj"); defaults to the node's name. "" is the root
  /// module: the node has no module frames.
  std::string module;
  /// Type of that module (`module_type:`, e.g.
  /// "torch.nn.modules.conv.Conv2d"); "" when not given (then
  /// ModuleTypeOf in model_etrecord.h derives one). A module has one type:
  /// the loader rejects two nodes declaring different ones.
  std::string module_type;
  SourceLocation location;
  /// The YAML line the node starts on, without surrounding blanks (the
  /// "source code" line of the node's ETRecord stack trace).
  std::string source_line;
};

struct TensorSpec {
  std::string name;
  std::vector<int64_t> shape;
  SourceLocation location;
};

enum class DelegateDebugIdKind { kInt, kString };
/// Unit of the delegate's internal event timestamps.
enum class DelegateClock { kRuntime, kCycles };
/// How the delegate produces start times: measured per op, or synthesized
/// by laying ops back to back from the delegate call's start (what
/// backends do that only report durations).
enum class DelegateTimestamps { kMeasured, kBackToBack };

struct DelegateSpec {
  std::string name;
  std::string backend = "reference";
  DelegateDebugIdKind debug_ids = DelegateDebugIdKind::kInt;
  bool metadata = false;
  DelegateClock clock = DelegateClock::kRuntime;
  DelegateTimestamps timestamps = DelegateTimestamps::kMeasured;
  SourceLocation location;
};

/// Makes every instruction derived from matching nodes `factor` times
/// slower. `target` matches a node name, an op type ("conv2d") or a kernel
/// name ("convolution", "convolution.out", "addmm", ...).
struct Slowdown {
  std::string target;
  double factor = 1.0;
};

struct Model {
  std::string name;
  std::string description;
  /// The file it came from ("<memory>" when parsed from a string).
  std::string source_path;
  /// Seed of the deterministic weights and inputs.
  uint64_t seed = 0;
  std::vector<TensorSpec> inputs;
  std::vector<Node> nodes;
  /// Values returned by the method, in order (node or input names).
  std::vector<std::string> outputs;
  std::vector<DelegateSpec> delegates;
  std::vector<Slowdown> slowdowns;
  /// `module_types:` — types of modules by dotted path, for the containers
  /// no node belongs to directly ("features" ->
  /// "torch.nn.modules.container.Sequential").
  std::map<std::string, std::string> module_types;
};

/// Index of the node named `name`, or -1.
int FindNode(const Model& model, const std::string& name);

}  // namespace etbench::runtime
