#pragma once
// Renderers of `etbench inspect`: the reference Inspector's table, CSV/TSV
// like its dataframe export, and etbench's stable JSON. They only format
// EventBlocks; no statistics are computed here.

#include <ostream>
#include <string>
#include <vector>

#include "etbench/inspector/event_block.h"
#include "etbench/inspector/time_scale.h"

namespace etbench {

struct InspectOutputOptions {
  TimeScale source_time_scale = TimeScale::kNs;
  TimeScale target_time_scale = TimeScale::kMs;
  bool include_units = true;                 // "p10 (ms)" column headers
  bool include_delegate_debug_data = false;  // extra delegate metadata column
  /// The table (not CSV/TSV or JSON) in the unit rule's column unit
  /// (base/units.h: the smallest of ns/us/ms/s in which the table's largest
  /// statistic stays below 10,000; "39.90" in a "(ns)" column, never
  /// "3.99e-05" in "(ms)"). Off: the reference's exact table in
  /// `target_time_scale` with Python's "%g" (what an explicit
  /// --target_time_scale asks for).
  bool people_units = false;
};

/// The reference's print_data_tabular: one row per event (OPERATOR_CALL rows
/// hidden), then the framework tax and allocations of each block.
std::string RenderInspectTable(const std::vector<EventBlock>& blocks,
                               const InspectOutputOptions& options);

/// RenderInspectTable's text written to `out` as it is made, in chunks: no
/// row is held longer than it takes to write it.
void WriteInspectTable(const std::vector<EventBlock>& blocks, const InspectOutputOptions& options,
                       std::ostream& out);

/// Same rows and columns, separated by `separator` (',' or '\t'), with a
/// leading index column like pandas' to_csv.
std::string RenderInspectDelimited(const std::vector<EventBlock>& blocks,
                                   const InspectOutputOptions& options, char separator);

/// RenderInspectDelimited's text written to `out` as it is made, in chunks:
/// no row is held longer than it takes to write it.
void WriteInspectDelimited(const std::vector<EventBlock>& blocks,
                           const InspectOutputOptions& options, char separator,
                           std::ostream& out);

/// The documented JSON (schema_version 1): every block and every event,
/// OPERATOR_CALL included, in the reference's order.
std::string RenderInspectJson(const std::vector<EventBlock>& blocks,
                              const InspectOutputOptions& options);

/// RenderInspectJson's text written to `out` as it is made, in chunks
/// (no JSON tree of the samples is built).
void WriteInspectJson(const std::vector<EventBlock>& blocks, const InspectOutputOptions& options,
                      std::ostream& out);

/// Python's format(x, "g") (6 significant digits), as tabulate prints floats.
std::string FormatGeneral(double value);

/// Shortest decimal text that reads back as the same double (Python repr).
std::string FormatShortest(double value);

}  // namespace etbench
