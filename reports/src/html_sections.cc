// HTML page skeleton, sortable tables, box data.

#include "html_sections.h"

#include <algorithm>
#include <cmath>

#include "etbench/inspector/perf_data.h"
#include "report_text.h"
#include "xml_text.h"

namespace etbench::reports::internal {
namespace {

constexpr const char* kStyle = R"CSS(
:root { --base: #7b8ba6; --cand: #e8793a; --reg: #cf222e; --imp: #1a7f37; --inc: #bf8700;
        --unch: #6e7781; --line: #d0d7de; --bg-soft: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, "DejaVu Sans", sans-serif;
       color: #1f2328; margin: 0 auto; padding: 16px 24px 40px; max-width: 1320px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; padding-top: 12px; border-top: 1px solid var(--line); }
h3 { font-size: 15px; margin: 16px 0 6px; }
.banner { padding: 12px 16px; border-radius: 6px; border-left: 6px solid var(--unch);
          background: var(--bg-soft); }
.banner.outcome-regression { border-color: var(--reg); background: #ffebe9; }
.banner.outcome-pass { border-color: var(--imp); background: #dafbe1; }
.banner.outcome-inconclusive { border-color: var(--inc); background: #fff8c5; }
.meta { color: #57606a; font-size: 12.5px; margin: 2px 0; }
.warning { background: #fff8c5; border: 1px solid #d4a72c; padding: 6px 10px; border-radius: 6px;
           margin: 8px 0; }
.note { color: #57606a; font-style: italic; }
nav a { margin-right: 12px; }
.charts { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start; }
figure { margin: 0; padding: 8px; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
figcaption { font-weight: 600; margin-bottom: 4px; }
.small-multiples { display: flex; flex-wrap: wrap; gap: 8px; }
svg text { font: 11px "DejaVu Sans", Arial, sans-serif; fill: #1f2328; }
svg .tick, svg .axis-unit { fill: #57606a; font-size: 10px; }
svg .plot-title { font-weight: 600; }
svg .grid { stroke: #eaeef2; stroke-width: 1; }
svg .s-base { fill: var(--base); stroke: var(--base); }
svg .s-cand { fill: var(--cand); stroke: var(--cand); }
svg .box .iqr { fill-opacity: 0.35; stroke-width: 1.2; }
svg .box .whisker, svg .box .median { stroke-width: 1.5; }
svg .box .median { stroke: #1f2328; stroke-width: 2; }
svg .box .pt { fill-opacity: 0.45; stroke: none; }
svg .box .outliers { stroke: none; font-size: 9.5px; }
svg .series polyline { fill: none; stroke-width: 1.3; }
svg .series .pt { stroke: none; }
svg .series .band { fill-opacity: 0.22; stroke: none; }
.legend { font-style: normal; font-size: 12px; max-width: 1100px; }
table.sortable { border-collapse: collapse; width: 100%; font-size: 12px; margin-top: 8px; }
table.sortable th, table.sortable td { border-bottom: 1px solid var(--line); padding: 3px 6px;
                                       text-align: left; white-space: nowrap; }
table.sortable th { background: var(--bg-soft); cursor: pointer; user-select: none;
                    position: sticky; top: 0; }
table.sortable th[aria-sort=ascending]::after { content: " \25B2"; }
table.sortable th[aria-sort=descending]::after { content: " \25BC"; }
table.sortable td.num, table.sortable th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.sortable td.why { white-space: normal; min-width: 140px; }
.table-wrap { overflow-x: auto; }
td.metric { max-width: 340px; overflow: hidden; text-overflow: ellipsis; font-family: monospace; }
tr.v-regression td.verdict { color: var(--reg); font-weight: 600; }
tr.v-improvement td.verdict { color: var(--imp); font-weight: 600; }
tr.v-inconclusive td.verdict { color: var(--inc); font-weight: 600; }
tr.v-unchanged td { color: #57606a; }
.attribution td, .attribution th { padding: 2px 10px 2px 0; text-align: left; }
.attribution td.num { text-align: right; font-variant-numeric: tabular-nums; }
.failed { border-left: 6px solid var(--reg); background: #ffebe9; padding: 8px 12px; }
code { background: var(--bg-soft); padding: 0 3px; border-radius: 3px; }
footer { margin-top: 32px; color: #57606a; font-size: 12px; }
)CSS";

constexpr const char* kScript = R"JS(
(function () {
  function key(cell, numeric) {
    var v = cell.getAttribute('data-value');
    if (numeric) {
      var x = parseFloat(v === null ? cell.textContent : v);
      return isNaN(x) ? -Infinity : x;
    }
    return (v === null ? cell.textContent : v).toLowerCase();
  }
  function sortTable(table, column, descending) {
    var head = table.tHead.rows[0].cells;
    if (column < 0 || column >= head.length) return;
    var numeric = head[column].getAttribute('data-type') === 'num';
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[column], numeric), y = key(b.cells[column], numeric);
      var r = x < y ? -1 : x > y ? 1 : 0;
      return descending ? -r : r;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    for (var i = 0; i < head.length; ++i) head[i].removeAttribute('aria-sort');
    head[column].setAttribute('aria-sort', descending ? 'descending' : 'ascending');
    table.setAttribute('data-sorted-by', column + (descending ? ':desc' : ':asc'));
  }
  var tables = document.querySelectorAll('table.sortable');
  Array.prototype.forEach.call(tables, function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.tabIndex = 0;
      var toggle = function () {
        sortTable(table, i, th.getAttribute('aria-sort') === 'ascending');
      };
      th.addEventListener('click', toggle);
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter') toggle(); });
    });
  });
  var m = /#sort=([^:]+):(\d+)(:desc)?$/.exec(decodeURIComponent(location.hash));
  if (m) {
    var t = document.getElementById(m[1]);
    if (t) sortTable(t, parseInt(m[2], 10), !!m[3]);
  }
  document.documentElement.setAttribute('data-etbench-ready', '1');
  // How long the page took to parse, lay out and run this script (ms since
  // navigation start): what `docs/reports.md` measures with --dump-dom.
  if (document.body.offsetHeight >= 0) {  // forces the layout first
    document.documentElement.setAttribute('data-etbench-ready-ms',
                                          String(Math.round(performance.now())));
  }
})();
)JS";

}  // namespace

std::string HtmlPageStart(const std::string& title, const std::string& kind) {
  return "<!DOCTYPE html>\n<html lang=\"en\" data-etbench-report=\"" + XmlEscape(kind) +
         "\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
         "content=\"width=device-width, initial-scale=1\">\n<title>" +
         XmlEscape(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
}

std::string HtmlPageEnd(const std::string& generator) {
  return "<footer>Generated by " + XmlEscape(generator) +
         ". Self-contained: no network resources.</footer>\n<script>" + kScript +
         "</script>\n</body>\n</html>\n";
}

std::string HtmlTable(const std::string& id, const std::vector<HtmlColumn>& columns,
                      const std::vector<HtmlRow>& rows) {
  std::string out = "<div class=\"table-wrap\"><table class=\"sortable\" id=\"" + XmlEscape(id) +
                    "\">\n<thead><tr>";
  for (const HtmlColumn& c : columns) {
    out += c.numeric ? "<th class=\"num\" data-type=\"num\">" : "<th>";
    out += XmlEscape(c.header) + "</th>";
  }
  out += "</tr></thead>\n<tbody>\n";
  for (const HtmlRow& row : rows) {
    out += row.css_class.empty() ? "<tr>" : "<tr class=\"" + row.css_class + "\">";
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
      const HtmlCell& cell = row.cells[i];
      std::string cls = cell.css_class;
      if (i < columns.size() && columns[i].numeric) cls += cls.empty() ? "num" : " num";
      out += "<td";
      if (!cls.empty()) out += " class=\"" + cls + "\"";
      if (cell.sort_value) {
        out += " data-value=\"" +
               (std::isfinite(*cell.sort_value) ? Printf("%.17g", *cell.sort_value) : "NaN") + "\"";
      }
      out += ">" + cell.html + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table></div>\n";
}

BoxData BoxFromSamples(const std::vector<double>& samples, std::size_t max_points) {
  BoxData box;
  if (samples.empty()) return box;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  box.min = sorted.front();
  box.max = sorted.back();
  box.q1 = Percentile(sorted, 25);
  box.median = Percentile(sorted, 50);
  box.q3 = Percentile(sorted, 75);
  const double reach = 1.5 * (box.q3 - box.q1);
  box.whisker_low = *std::lower_bound(sorted.begin(), sorted.end(), box.q1 - reach);
  box.whisker_high = *(std::upper_bound(sorted.begin(), sorted.end(), box.q3 + reach) - 1);
  box.count = samples.size();
  const std::size_t stride = std::max<std::size_t>(1, (samples.size() + max_points - 1) / max_points);
  for (std::size_t i = 0; i < samples.size(); i += stride) box.points.push_back(samples[i]);
  return box;
}

std::string HtmlId(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.';
    out += ok ? c : '-';
  }
  return out.empty() ? "x" : out;
}

}  // namespace etbench::reports::internal
