#pragma once
// Output written in pieces and handed to a stream in chunks, so that a
// renderer of a large output (`inspect` of a 10^6-event dump prints tens of
// megabytes) never holds all of it.

#include <algorithm>
#include <ostream>
#include <string>
#include <string_view>

namespace etbench {

class TextSink {
 public:
  explicit TextSink(std::ostream& out) : out_(out) { buffer_.reserve(kChunk + kChunk / 4); }
  ~TextSink() { Flush(); }
  TextSink(const TextSink&) = delete;
  TextSink& operator=(const TextSink&) = delete;

  void Append(std::string_view text) {
    if (text.size() >= kChunk) {  // large pieces go straight through
      Flush();
      out_.write(text.data(), static_cast<std::streamsize>(text.size()));
      return;
    }
    buffer_.append(text);
    if (buffer_.size() >= kChunk) Flush();
  }
  void Append(char c) {
    buffer_.push_back(c);
    if (buffer_.size() >= kChunk) Flush();
  }
  /// Appends `n` copies of `c` (a chunk at a time: n may be large).
  void Append(std::size_t n, char c) {
    while (n > 0) {
      const std::size_t take = std::min(n, kChunk);
      buffer_.append(take, c);
      n -= take;
      if (buffer_.size() >= kChunk) Flush();
    }
  }
  /// Appends `n` copies of `unit` (a chunk at a time). Each chunk's copies
  /// are made by doubling what is already in the buffer: a table's rule of
  /// thousands of box characters is a few copies, not one append per unit.
  void AppendRepeated(std::string_view unit, std::size_t n) {
    if (unit.empty()) return;
    while (n > 0) {
      if (buffer_.size() >= kChunk) Flush();
      // Copies that fit before the chunk is full (one at least: the reserve
      // past kChunk holds it), so the buffer never grows and the copies
      // below read from it while it is not reallocated.
      const std::size_t room =
          std::max<std::size_t>(1, (kChunk - buffer_.size()) / unit.size());
      const std::size_t take = std::min(n, room);
      const std::size_t start = buffer_.size();
      buffer_.append(unit);
      for (std::size_t have = 1; have < take;) {
        const std::size_t copy = std::min(have, take - have);
        buffer_.append(buffer_.data() + start, copy * unit.size());
        have += copy;
      }
      n -= take;
    }
    if (buffer_.size() >= kChunk) Flush();
  }
  void Flush() {
    if (!buffer_.empty()) out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }

 private:
  static constexpr std::size_t kChunk = std::size_t{1} << 16;
  std::ostream& out_;
  std::string buffer_;
};

}  // namespace etbench
