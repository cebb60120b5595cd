// Renders the figures: an aligned plain-text table for stdout and the
// Markdown of bench/RESULTS.md. A figure is a ratio against a baseline taken
// in the same run (absolute times appear only as context), or — where the
// issue sets an absolute target (MB/s, ms, MB of RSS) — a value with its
// `unit`, taken with the machine's load recorded beside it.

export function formatRatio(value) {
  if (value === undefined || !Number.isFinite(value)) return "–";
  return value >= 100
    ? `${value.toFixed(0)}×`
    : value >= 10
      ? `${value.toFixed(1)}×`
      : `${value.toFixed(2)}×`;
}

export function formatBytes(bytes) {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} KB`;
  return `${bytes} B`;
}

export function formatMs(ms) {
  if (ms === undefined) return "–";
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms >= 100 ? 0 : 1)} ms`;
}

/** The verdict cell: met, missed, or no target. */
export function verdict(figure) {
  if (figure.skipped) return "not measured";
  if (figure.met === undefined) return "";
  return figure.met ? "met" : "MISSED";
}

/** A measured amount in its unit: a ratio (×, the default), or an absolute `MB/s` / `ms` / `MB`. */
export function formatMeasure(value, unit) {
  if (value === undefined || !Number.isFinite(value)) return "–";
  if (unit === undefined || unit === "×") return formatRatio(value);
  if (unit === "ms") return formatMs(value);
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${unit}`;
}

/** The figure's measure: its ratio, or — for an absolute target — its value. */
export function measureOf(figure) {
  return figure.ratio ?? figure.value;
}

function ratioCell(figure) {
  if (figure.skipped) return "–";
  const { median, min, max } = measureOf(figure);
  const format = (value) => formatMeasure(value, figure.unit);
  if (min === undefined || max === undefined || figure.single) return format(median);
  return `${format(median)} (${format(min)}–${format(max)})`;
}

function rows(figures) {
  return figures.map((figure) => [
    figure.group,
    figure.name,
    ratioCell(figure),
    figure.target ?? "",
    verdict(figure),
    figure.skipped ? figure.skipped : (figure.context ?? ""),
  ]);
}

const header = [
  "group",
  "figure",
  "measure (median, min–max)",
  "target",
  "",
  "context (absolute, this machine)",
];

export function textTable(figures) {
  const all = [header, ...rows(figures)];
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column].length)));
  return all
    .map((row, index) => {
      const line = row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join("  ")
        .trimEnd();
      return index === 0 ? `${line}\n${widths.map((width) => "-".repeat(width)).join("  ")}` : line;
    })
    .join("\n");
}

function escapeCell(text) {
  return String(text).replaceAll("|", "\\|");
}

export function markdownTable(figures) {
  const lines = [
    `| ${header.map(escapeCell).join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
  ];
  for (const row of rows(figures)) {
    row[4] = row[4] === "MISSED" ? "**missed**" : row[4];
    lines.push(`| ${row.map(escapeCell).join(" | ")} |`);
  }
  return lines.join("\n");
}
