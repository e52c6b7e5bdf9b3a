#include "etbench/inspector/etdump_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>

#include "etbench/base/input_file.h"
#include "event_table_verifier.h"
#include "file_bytes.h"
#include "flatbuffers/flatbuffers.h"
#include "run_page_release.h"
#include "verified_run_sink.h"

namespace etbench {
namespace {

constexpr char kIdentifier[] = "ED00";
constexpr std::size_t kIdentifierSize = 4;

bool HasIdentifierAt(const uint8_t* data, std::size_t size, std::size_t offset) {
  return size >= offset + kIdentifierSize &&
         std::memcmp(data + offset, kIdentifier, kIdentifierSize) == 0;
}
bool HasIdentifierAt(const std::vector<uint8_t>& b, std::size_t offset) {
  return HasIdentifierAt(b.data(), b.size(), offset);
}

// FlatBuffers address at most 2 GiB.
constexpr uint64_t kMaxEtdumpBytes = uint64_t{1} << 31;

uint32_t ReadLe32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

// A size-prefixed dump must fill its file exactly: fewer bytes is a
// truncation, more is trailing data (bytes inserted, garbage appended or two
// dumps concatenated), which the reader would otherwise silently ignore.
std::optional<std::string> CheckSizePrefix(uint32_t declared, uint64_t file_size) {
  const uint64_t follow = file_size - 4;
  if (declared > follow) {
    return "truncated: size prefix says " + std::to_string(declared) + " bytes but only " +
           std::to_string(follow) + " follow";
  }
  if (declared < follow) {
    return "size prefix says " + std::to_string(declared) + " bytes but " +
           std::to_string(follow) + " follow: " + std::to_string(follow - declared) +
           " bytes of trailing data (corrupt, or several dumps concatenated)";
  }
  return std::nullopt;
}

std::string Printable(const uint8_t* p, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    char c = static_cast<char>(p[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", p[i]);
      out += buf;
    }
  }
  return out;
}

// Checks that the verifier cannot express: exactly one Event member, value
// members that match their declared type, allocator ids in range.
std::optional<std::string> CheckValue(const fb::Value* v) {
  if (v == nullptr) return "debug event has no debug_entry value";
  const auto type = static_cast<int>(v->val());
  switch (v->val()) {
    case fb::ValueType::Null:
    case fb::ValueType::String:
      return std::nullopt;
    case fb::ValueType::Int:
      if (!v->int_value()) return "value of type Int has no int_value";
      return std::nullopt;
    case fb::ValueType::Bool:
      if (!v->bool_value()) return "value of type Bool has no bool_value";
      return std::nullopt;
    case fb::ValueType::Float:
      if (!v->float_value()) return "value of type Float has no float_value";
      return std::nullopt;
    case fb::ValueType::Double:
      if (!v->double_value()) return "value of type Double has no double_value";
      return std::nullopt;
    case fb::ValueType::Tensor:
      if (!v->tensor()) return "value of type Tensor has no tensor";
      return std::nullopt;
    case fb::ValueType::TensorList:
      if (!v->tensor_list()) return "value of type TensorList has no tensor_list";
      return std::nullopt;
  }
  return "value has unknown type " + std::to_string(type);
}

// Bytes of names, ids, metadata and tensor shapes that events may reference
// in all, counting a string once per event that references it: at most
// kReferencedBytesPerFileByte per byte of the file, or kReferencedBytesFloor.
// A FlatBuffer may point any number of events at one string, so a small file
// could otherwise make the reader copy (event names, delegate metadata) and
// hash (signatures) one huge string millions of times: memory and time far
// beyond the file's size. A dump written by ExecuTorch (one string per
// event) or by etbench (names shared, but each event's tables are larger
// than its name) references less than its own size.
constexpr uint64_t kReferencedBytesPerFileByte = 4;
constexpr uint64_t kReferencedBytesFloor = uint64_t{64} << 20;

uint64_t StringBytes(const flatbuffers::String* s) { return s ? s->size() : 0; }

// Bytes a tensor's shape and strides expand to when decoded.
// (Each pointer here is read once: a file truncated while mapped reads as
// zeros from then on, so a member checked non-null may read null again;
// truncation_guard.h.)
uint64_t ShapeBytes(const fb::Tensor* t) {
  if (t == nullptr) return 0;
  const auto* sizes = t->sizes();
  const auto* strides = t->strides();
  return 8 * (uint64_t{sizes ? sizes->size() : 0} + uint64_t{strides ? strides->size() : 0});
}

uint64_t ValueBytes(const fb::Value* v) {
  if (v == nullptr) return 0;
  uint64_t bytes = ShapeBytes(v->tensor());
  if (const auto* list = v->tensor_list()) {
    if (const auto* tensors = list->tensors()) {
      bytes += 8 * uint64_t{tensors->size()};
      for (const fb::Tensor* t : *tensors) bytes += ShapeBytes(t);
    }
  }
  return bytes;
}

// The format's checks of one verified run that the verifier cannot express.
// Errors go to the returned string; an Event with several members is read as
// the reference reads it (profile, else debug: its find_populated_event) and
// reported once, in the warning (the first such event, and how many).
class ConsistencyCheck {
 public:
  explicit ConsistencyCheck(std::size_t file_size)
      : file_size_(file_size),
        referenced_limit_(std::max(kReferencedBytesFloor,
                                   kReferencedBytesPerFileByte * uint64_t{file_size})) {}
  std::optional<std::string> CheckRun(flatbuffers::uoffset_t r, const fb::RunData& run);
  // The same, for a run whose events the verifier `saw` (what it saw spares
  // reading them again).
  std::optional<std::string> CheckRun(flatbuffers::uoffset_t r, const fb::RunData& run,
                                      const EventTableVerifier::RunSummary& saw);
  std::string Warning() const {
    if (multi_member_events_ <= 1) return warning_;
    return warning_ + " (" + std::to_string(multi_member_events_) + " such events in the file)";
  }

 private:
  // What an event references (see kReferencedBytesPerFileByte).
  uint64_t ReferencedBytes(const fb::RunData& run, const fb::Event& event) const;

  std::size_t multi_member_events_ = 0;
  std::string warning_;
  std::size_t file_size_;
  uint64_t referenced_limit_;
  uint64_t referenced_ = 0;
};

uint64_t ConsistencyCheck::ReferencedBytes(const fb::RunData& run, const fb::Event& event) const {
  uint64_t bytes = 0;
  if (const auto* p = event.profile_event()) {
    bytes += StringBytes(p->name()) + StringBytes(p->delegate_debug_id_str());
    if (const auto* metadata = p->delegate_debug_metadata()) bytes += metadata->size();
  }
  if (const auto* d = event.debug_event()) {
    bytes += StringBytes(d->name()) + StringBytes(d->delegate_debug_id_str()) +
             ValueBytes(d->debug_entry());
  }
  if (const auto* a = event.allocation_event()) {
    // Out-of-range ids are an error of their own (CheckRun).
    const auto* allocators = run.allocators();
    const int32_t id = a->allocator_id();
    if (id >= 1 && allocators && static_cast<flatbuffers::uoffset_t>(id) <= allocators->size()) {
      bytes += StringBytes(allocators->Get(static_cast<flatbuffers::uoffset_t>(id - 1))->name());
    }
  }
  return bytes;
}

std::optional<std::string> ConsistencyCheck::CheckRun(flatbuffers::uoffset_t r,
                                                      const fb::RunData& run) {
  const auto* events = run.events();
  if (events == nullptr) return std::nullopt;
  const flatbuffers::uoffset_t allocator_count = run.allocators() ? run.allocators()->size() : 0;
  for (flatbuffers::uoffset_t e = 0; e < events->size(); ++e) {
    const fb::Event* event = events->Get(e);
    auto where = [&] {
      return "run_data[" + std::to_string(r) + "] (" + (run.name() ? run.name()->str() : "") +
             "), event " + std::to_string(e) + ": ";
    };
    const int members = (event->profile_event() != nullptr) +
                        (event->allocation_event() != nullptr) +
                        (event->debug_event() != nullptr);
    if (members == 0) {
      return where() + "Event has no member set (expected one of profile_event, "
                       "allocation_event, debug_event)";
    }
    if (members > 1 && multi_member_events_++ == 0) {
      std::string set;
      for (const auto& [present, member] :
           {std::pair{event->profile_event() != nullptr, "profile_event"},
            std::pair{event->allocation_event() != nullptr, "allocation_event"},
            std::pair{event->debug_event() != nullptr, "debug_event"}}) {
        if (present) set += (set.empty() ? "" : " and ") + std::string(member);
      }
      warning_ = where() + "Event sets " + set + "; using its " +
                 (event->profile_event() ? "profile_event" : "debug_event") +
                 " as the reference Inspector does";
    }
    const auto* alloc = event->allocation_event();
    if (members == 1 && alloc != nullptr) {
      // 1-based: ETDumpGen::track_allocator returns the vector's length
      // after the push.
      if (alloc->allocator_id() < 1 ||
          static_cast<flatbuffers::uoffset_t>(alloc->allocator_id()) > allocator_count) {
        return where() + "allocation event names allocator " +
               std::to_string(alloc->allocator_id()) + " but the run declares " +
               std::to_string(allocator_count) +
               " allocator(s) (ids are 1-based: 1 names the first)";
      }
    }
    // Checked even beside a profile event: the reference collects program
    // outputs from every debug member.
    if (const auto* debug = event->debug_event()) {
      if (auto problem = CheckValue(debug->debug_entry())) return where() + *problem;
    }
    referenced_ += ReferencedBytes(run, *event);
    if (referenced_ > referenced_limit_) {
      return where() + "events reference more than " + std::to_string(referenced_limit_) +
             " bytes of names, ids, metadata and tensor shapes in all (the limit for a " +
             std::to_string(file_size_) + "-byte file: " +
             std::to_string(kReferencedBytesPerFileByte) +
             " per byte of the file, at least 64 MiB): strings shared by very many events, "
             "a crafted or corrupt ETDump";
    }
  }
  return std::nullopt;
}

std::optional<std::string> ConsistencyCheck::CheckRun(
    flatbuffers::uoffset_t r, const fb::RunData& run, const EventTableVerifier::RunSummary& saw) {
  // Profile events alone have nothing to check but what they reference,
  // a sum that only grows: no event of the run passes the limit unless the
  // run's total does, and then the event-by-event walk names the event.
  if (saw.profile_only && referenced_ + saw.referenced_bytes <= referenced_limit_) {
    referenced_ += saw.referenced_bytes;
    return std::nullopt;
  }
  return CheckRun(r, run);
}

// Bytes every event of an ETDump takes at least when nothing is shared: its
// slot in the run's events vector (4), its Event table (a vtable offset and
// the member's offset, 8) and the member table (4). FlatBuffers lets runs
// share one events vector, and vector slots point at one Event, so a small
// file could describe millions of events per kilobyte, each grouped (and
// each a Python object) like a real one; more events than the file has room
// for is refused instead. The verifier's table limit bounds the time spent
// until then.
constexpr uint64_t kMinBytesPerEvent = 16;

// RunData::Verify (etdump_generated.h) with its events' tables verified by
// `events_verifier` (the same verdict, faster for events sharing vtables).
bool VerifyRun(flatbuffers::Verifier& v, EventTableVerifier& events_verifier,
               const fb::RunData& run) {
  // fb::RunData derives privately from Table; its Verify calls these on itself.
  const auto* table = reinterpret_cast<const flatbuffers::Table*>(&run);
  return table->VerifyTableStart(v) && table->VerifyOffset(v, fb::RunData::VT_NAME) &&
         v.VerifyString(run.name()) &&
         table->VerifyField<int32_t>(v, fb::RunData::VT_BUNDLED_INPUT_INDEX, 4) &&
         table->VerifyOffset(v, fb::RunData::VT_ALLOCATORS) && v.VerifyVector(run.allocators()) &&
         v.VerifyVectorOfTables(run.allocators()) &&
         table->VerifyOffset(v, fb::RunData::VT_EVENTS) && v.VerifyVector(run.events()) &&
         events_verifier.VerifyEvents(v, run.events()) && v.EndTable();
}

// What verifying one buffer found: whether it is a valid ETDump, and if so
// the first consistency problem (nullopt: none) and the warning.
struct Verification {
  bool verified = false;
  std::optional<std::string> problem;
  std::string warning;
};

// Verifier::VerifyBufferFromStart<fb::ETDump> with ETDump::Verify unrolled
// (the generated code, etdump_generated.h: table start, `version`, the
// `run_data` vector, each RunData (VerifyRun), table end), so that the
// file is verified one RunData at a time: each verified run is checked for
// consistency at once, and a mapped file's pages are released as the verifier moves on.
// The verdict is the stock verifier's: tests/inspector/etdump_file_test.cc
// compares the two on mutated dumps. A consistency problem is reported only
// when the whole buffer verifies (as if checked after it). `sink` (may be
// null) gets each run that passed both, right after it was checked.
Verification VerifyRunByRun(const FileBytes& bytes, const uint8_t* buf, std::size_t size,
                            bool with_prefix, VerifiedRunSink* sink) {
  Verification out;
  const std::size_t max_tables = std::max<std::size_t>(1000000, size / 4);
  // Alignment is checked, so that no read of the buffer is misaligned
  // (undefined behaviour).
  flatbuffers::Verifier v(buf, size, /*max_depth=*/64,
                          static_cast<flatbuffers::uoffset_t>(max_tables),
                          /*check_alignment=*/true);
  using flatbuffers::soffset_t;  // FLATBUFFERS_MIN_BUFFER_SIZE names them unqualified
  using flatbuffers::uoffset_t;
  const std::size_t start = with_prefix ? sizeof(uoffset_t) : 0;
  if (with_prefix && !(v.Verify<flatbuffers::uoffset_t>(0U) &&
                       v.Check(flatbuffers::ReadScalar<flatbuffers::uoffset_t>(buf) ==
                               size - sizeof(flatbuffers::uoffset_t)))) {
    return out;
  }
  if (!v.Check(size >= FLATBUFFERS_MIN_BUFFER_SIZE) ||
      !v.Check(size >= 2 * sizeof(flatbuffers::uoffset_t) &&
               flatbuffers::BufferHasIdentifier(buf + start, fb::ETDumpIdentifier()))) {
    return out;
  }
  const auto root_offset = v.VerifyOffset(start);
  if (!v.Check(root_offset != 0)) return out;
  const auto* root = reinterpret_cast<const fb::ETDump*>(buf + start + root_offset);
  // fb::ETDump derives privately from Table; its Verify calls these on itself.
  const auto* table = reinterpret_cast<const flatbuffers::Table*>(root);
  if (!(table->VerifyTableStart(v) &&
        table->VerifyField<uint32_t>(v, fb::ETDump::VT_VERSION, 4) &&
        table->VerifyOffset(v, fb::ETDump::VT_RUN_DATA) && v.VerifyVector(root->run_data()))) {
    return out;
  }
  ConsistencyCheck check(size);
  EventTableVerifier events_verifier(buf, size);
  const auto* runs = root->run_data();
  if (sink != nullptr) sink->Begin(bytes.size(), runs != nullptr ? runs->size() : 0);
  if (runs != nullptr) {
    RunPageRelease release(bytes);
    uint64_t events = 0;
    for (flatbuffers::uoffset_t r = 0; r < runs->size(); ++r) {
      const fb::RunData* run = runs->Get(r);
      if (!VerifyRun(v, events_verifier, *run)) return out;
      const auto* run_event_vector = run->events();
      const uint64_t run_events = run_event_vector ? run_event_vector->size() : 0;
      events += run_events;
      if (!out.problem && events > size / kMinBytesPerEvent) {
        out.problem = "run_data[" + std::to_string(r) + "]: the runs so far hold " +
                      std::to_string(events) + " events, more than a file of " +
                      std::to_string(size) + " bytes has room for (" +
                      std::to_string(kMinBytesPerEvent) +
                      " bytes each at least): events vectors or events shared between runs; "
                      "a crafted or corrupt ETDump";
      }
      if (!out.problem) out.problem = check.CheckRun(r, *run, events_verifier.run_summary());
      // Grouped now, while the verifier's walk has left the run in the cache.
      if (!out.problem && sink != nullptr) sink->Add(r, *run);
      release.AfterRun(run, run_event_vector, run_events);
    }
    // The last stretch, and whatever lay outside the runs' spans: the blocks
    // are built after this pass, and would otherwise share the peak with it.
    if (events > 0) bytes.ReleaseResidentPages();
  }
  if (!v.EndTable()) return out;
  out.verified = true;
  out.warning = check.Warning();
  return out;
}

Error TruncatedWhileReading(const std::string& name, std::size_t size) {
  return InputError(name + ": the file was truncated while being read (it had " +
                    std::to_string(size) +
                    " bytes when opened); read an ETDump once its writer has finished");
}

}  // namespace

Result<std::vector<uint8_t>> ReadFileBytes(const std::string& path) {
  auto file = InputFile::Open(path);
  if (!file.ok()) return file.error();
  return file->ReadAll(kMaxEtdumpBytes);
}

Result<EtdumpFile> EtdumpFile::Open(const std::string& path) { return Open(path, nullptr); }

Result<EtdumpFile> EtdumpFile::Open(const std::string& path, VerifiedRunSink* sink) {
  auto file = InputFile::Open(path);
  if (!file.ok()) return file.error();
  // The header decides before the body is read: a multi-gigabyte file that
  // is not an ETDump is rejected after reading 12 bytes, not all of it.
  auto header = file->ReadAt(0, 12);
  if (!header.ok()) return header.error();
  if (file->size() > header->size()) {
    if (!HasIdentifierAt(*header, 4) && !HasIdentifierAt(*header, 8)) {
      return FromBytes(std::move(header).value(), path, sink);  // reports the identifier
    }
    if (HasIdentifierAt(*header, 8) && !HasIdentifierAt(*header, 4)) {
      if (auto problem = CheckSizePrefix(ReadLe32(header->data()), file->size())) {
        return InputError(path + ": " + *problem);
      }
    }
  }
  if (file->size() > kMaxEtdumpBytes) {
    return InputError(path + ": " + std::to_string(file->size()) +
                      " bytes is larger than a FlatBuffer can be (2 GiB); not an ETDump");
  }
  if (file->size() <= header->size()) return FromBytes(std::move(header).value(), path, sink);
  // Mapped, not read: no copy, no zero-filled pages, and the verifier and
  // the grouping release the pages they have read (FileBytes).
  auto mapped = FileBytes::Map(path, file->size());
  if (!mapped.ok()) return mapped.error();
  return FromStorage(std::move(mapped).value(), path, sink);
}

Result<EtdumpFile> EtdumpFile::FromBytes(std::vector<uint8_t> bytes,
                                         std::string source_name) {
  return FromBytes(std::move(bytes), std::move(source_name), nullptr);
}

Result<EtdumpFile> EtdumpFile::FromBytes(std::vector<uint8_t> bytes, std::string source_name,
                                         VerifiedRunSink* sink) {
  return FromStorage(std::make_shared<const FileBytes>(std::move(bytes)),
                     std::move(source_name), sink);
}

Result<EtdumpFile> EtdumpFile::FromStorage(std::shared_ptr<const FileBytes> storage,
                                           std::string source_name, VerifiedRunSink* sink) {
  const std::string& name = source_name;
  const uint8_t* data = storage->data();
  const std::size_t size = storage->size();
  if (size == 0) return InputError(name + ": empty file (0 bytes), not an ETDump");

  bool prefixed = false;
  std::size_t buffer_size = size;
  if (HasIdentifierAt(data, size, 4)) {
    prefixed = false;
  } else if (HasIdentifierAt(data, size, 8)) {
    prefixed = true;
    const uint32_t declared = ReadLe32(data);
    if (auto problem = CheckSizePrefix(declared, size)) {
      return InputError(name + ": " + *problem);
    }
    buffer_size = std::size_t{declared} + 4;
  } else if (size < 8) {
    return InputError(name + ": truncated: " + std::to_string(size) +
                      " bytes is too short for an ETDump");
  } else {
    return InputError(name + ": wrong file identifier: expected 'ED00' at offset 4 "
                      "(or 8 when size-prefixed), found '" +
                      Printable(data + 4, 4) + "' / '" +
                      Printable(data + 8, std::min<std::size_t>(4, size - 8)) +
                      "'; not an ETDump");
  }

  // A plain buffer that fails verification only because of alignment may be
  // a size-prefixed dump whose prefix another tool stripped (every field
  // then sits 4 bytes off its alignment): it is verified again with a size
  // prefix put back, which restores the writer's alignment.
  Verification verification = VerifyRunByRun(*storage, data, buffer_size, prefixed, sink);
  bool reprefixed = false;
  if (!verification.verified && !prefixed && size <= UINT32_MAX) {
    std::vector<uint8_t> with_prefix(4 + size);
    const auto n = static_cast<uint32_t>(size);
    for (int i = 0; i < 4; ++i) with_prefix[i] = static_cast<uint8_t>(n >> (8 * i));
    std::copy(data, data + size, with_prefix.begin() + 4);
    auto copy = std::make_shared<const FileBytes>(std::move(with_prefix));
    Verification again = VerifyRunByRun(*copy, copy->data(), copy->size(), true, sink);
    if (again.verified) {
      storage = std::move(copy);
      verification = std::move(again);
      reprefixed = true;
    }
  }
  if (storage->truncated()) return TruncatedWhileReading(name, size);
  if (!verification.verified) {
    return InputError(name + ": failed FlatBuffers verification (" +
                      std::to_string(size) +
                      " bytes, " + (prefixed ? "size-prefixed" : "not size-prefixed") +
                      "): the file is truncated or corrupt");
  }
  if (verification.problem) return InputError(name + ": " + *verification.problem);

  EtdumpFile file;
  file.size_prefixed_ = prefixed;
  file.source_name_ = std::move(source_name);
  file.root_ = prefixed || reprefixed ? fb::GetSizePrefixedETDump(storage->data())
                                      : fb::GetETDump(storage->data());
  file.bytes_ = std::move(storage);
  if (!verification.warning.empty()) {
    file.warnings_.push_back(file.source_name_ + ": " + verification.warning);
  }
  return file;
}

std::size_t EtdumpFile::size_bytes() const { return bytes_->size(); }

void EtdumpFile::ReleaseResidentPages() const { bytes_->ReleaseResidentPages(); }

bool EtdumpFile::truncated() const { return bytes_->truncated(); }

Error EtdumpFile::TruncationError() const {
  return TruncatedWhileReading(source_name_, bytes_->size());
}

}  // namespace etbench
