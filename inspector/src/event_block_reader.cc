#include "etbench/inspector/event_block_reader.h"

#include <optional>
#include <utility>

#include "grouper.h"
#include "verified_run_sink.h"

namespace etbench {

// Groups each run the verifier hands over. The first error ends the
// grouping (the verifier goes on: its errors come first, from Open); it is
// Finish's to report, as BuildEventBlocks would have.
class EventBlockReader::Grouping : public VerifiedRunSink {
 public:
  Grouping(std::string source_name, const InspectorOptions& options, double factor)
      : source_name_(std::move(source_name)), options_(options), factor_(factor) {}

  void Begin(std::size_t buffer_bytes, std::size_t run_count) override {
    error_.reset();
    grouper_.emplace(source_name_, buffer_bytes, run_count, options_, factor_);
  }

  void Add(std::size_t index, const fb::RunData& run) override {
    if (!grouper_ || error_) return;
    if (Status s = grouper_->Add(index, run); !s.ok()) error_ = s.error();
  }

  // The blocks of `file`, the file whose verification fed this grouping.
  Result<std::vector<EventBlock>> Finish(const EtdumpFile& file) {
    Result<std::vector<EventBlock>> blocks = [&]() -> Result<std::vector<EventBlock>> {
      if (error_) return *error_;
      // No run_data vector was reached (a file too short to hold one): the
      // grouping of the verified file, as BuildEventBlocks does it.
      if (!grouper_) return grouping::GroupFile(file, options_, factor_);
      return grouper_->Finish();
    }();
    // As BuildEventBlocks: bytes read from a file truncated meanwhile were
    // zeros, so the truncation is the error whatever came of them.
    if (file.truncated()) return file.TruncationError();
    return blocks;
  }

 private:
  std::string source_name_;
  const InspectorOptions& options_;
  double factor_;
  std::optional<grouping::Grouper> grouper_;
  std::optional<Error> error_;
};

EventBlockReader::EventBlockReader(InspectorOptions options)
    : options_(std::make_unique<InspectorOptions>(std::move(options))) {}

EventBlockReader::~EventBlockReader() = default;

template <typename OpenFn>
Result<EtdumpFile> EventBlockReader::Start(const std::string& source_name, OpenFn open) {
  file_.reset();
  grouping_.reset();
  Result<double> factor = grouping::ResolveTimeScales(options_.get());
  if (factor.ok()) grouping_ = std::make_unique<Grouping>(source_name, *options_, factor.value());
  // Time scales that cannot be converted are BuildEventBlocks' error, after
  // the file's own: the file is then only verified (Finish reports them).
  Result<EtdumpFile> file = open(grouping_.get());
  if (!file.ok()) return file;
  file_ = file.value();
  if (!factor.ok()) time_scale_error_ = factor.error();
  return file;
}

Result<EtdumpFile> EventBlockReader::Open(const std::string& path) {
  return Start(path, [&](VerifiedRunSink* sink) { return EtdumpFile::Open(path, sink); });
}

Result<EtdumpFile> EventBlockReader::FromBytes(std::vector<uint8_t> bytes,
                                               std::string source_name) {
  const std::string name = source_name;
  return Start(name, [&](VerifiedRunSink* sink) {
    return EtdumpFile::FromBytes(std::move(bytes), std::move(source_name), sink);
  });
}

Result<std::vector<EventBlock>> EventBlockReader::Finish() {
  if (!file_) return InputError("EventBlockReader::Finish: no file was opened");
  const EtdumpFile file = std::move(*file_);
  file_.reset();
  std::unique_ptr<Grouping> grouping = std::move(grouping_);
  if (!grouping) return time_scale_error_;
  return grouping->Finish(file);
}

}  // namespace etbench
