#pragma once
// The HTML report's page skeleton (inline CSS and script), sortable tables
// and the box data of raw samples.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "svg_plot.h"

namespace etbench::reports::internal {

/// "<!DOCTYPE html>…<body>": inline styles, no external resources.
/// `kind` goes to <html data-etbench-report="…">.
std::string HtmlPageStart(const std::string& title, const std::string& kind);
/// Footer naming `generator`, the sorting script, "</body></html>".
std::string HtmlPageEnd(const std::string& generator);

struct HtmlColumn {
  std::string header;
  bool numeric = false;
};

struct HtmlCell {
  HtmlCell(std::string html_text = "", std::optional<double> sort = std::nullopt,
           std::string css = "")
      : html(std::move(html_text)), sort_value(sort), css_class(std::move(css)) {}
  std::string html;  // already escaped
  /// Sort key of numeric columns (absent: sorts first ascending).
  std::optional<double> sort_value;
  std::string css_class;
};

struct HtmlRow {
  std::vector<HtmlCell> cells;
  std::string css_class;
};

/// <table class="sortable" id="…">: clicking a header sorts by it; the
/// page's URL fragment "#sort=<id>:<column>[:desc]" sorts on load.
std::string HtmlTable(const std::string& id, const std::vector<HtmlColumn>& columns,
                      const std::vector<HtmlRow>& rows);

/// Quantiles (numpy 'linear', the inspector's Percentile) and at most
/// `max_points` of the raw samples (evenly strided) for a box plot.
BoxData BoxFromSamples(const std::vector<double>& samples, std::size_t max_points = 300);

/// An id-safe form of `text` ("toy cnn/x" → "toy-cnn-x").
std::string HtmlId(const std::string& text);

}  // namespace etbench::reports::internal
