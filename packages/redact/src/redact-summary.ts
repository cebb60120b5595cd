// The one-line summary of a redaction report, for a command's stderr:
// how many secrets of each kind went, and from which message ordinals.
// Not the report itself (that is JSON, for `--redact-report`).
import type { RedactionReport } from "./redact-transcript.js";

/** Ordinals shown per kind before the rest is counted. */
const maxOrdinals = 8;

/**
 * `redacted 3 secrets: github-token ×2 (#2, #7); aws-access-key ×1 (#1)`, or
 * `redacted no secrets`. Kinds by count, most first, then by name.
 */
export function summarizeReport(report: RedactionReport): string {
  if (report.total === 0) return "redacted no secrets";
  const kinds = Object.entries(report.kinds).sort(
    ([nameA, a], [nameB, b]) => b.count - a.count || (nameA < nameB ? -1 : nameA > nameB ? 1 : 0),
  );
  const parts = kinds.map(([kind, { count, messages }]) => {
    const shown = messages.slice(0, maxOrdinals).map((ordinal) => `#${ordinal}`);
    if (messages.length > maxOrdinals) shown.push(`${messages.length - maxOrdinals} more`);
    return `${kind} ×${count}${shown.length > 0 ? ` (${shown.join(", ")})` : ""}`;
  });
  return `redacted ${report.total} secret${report.total === 1 ? "" : "s"}: ${parts.join("; ")}`;
}
