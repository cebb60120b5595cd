// The loss report: what a conversion could not carry, grouped so the losses
// that matter are read first. Per leg (reading the source, writing the
// target): what the other side cannot hold (unsupported), what changed shape
// (degraded), each with its count, code and — when occurrences differ — the
// distinct cases; bookkeeping fields folded into one line unless
// `--losses all`. `--losses none` and `--quiet` print nothing.
import type { Warning } from "@txcript/core";
import { TxcriptError } from "@txcript/core";
import type { Values } from "./args.js";
import { findHarness } from "./harnesses.js";

export type LossMode = "summary" | "all" | "none";

export interface ReportSettings {
  losses: LossMode;
  /** Errors only: no loss report, no "wrote" lines. */
  quiet: boolean;
  /** One JSON object on stdout instead of the human report. */
  json: boolean;
}

export function reportSettings(values: Values): ReportSettings {
  const given = values.losses;
  if (given !== undefined && given !== "all" && given !== "none" && given !== "summary")
    throw new TxcriptError("USAGE", `unknown --losses ${JSON.stringify(given)}`, {
      hint: "expected all, summary or none",
    });
  return {
    losses: (given as LossMode | undefined) ?? "summary",
    quiet: values.quiet === true,
    json: values.json === true,
  };
}

/** A warning callback that tags each occurrence with its leg and harness (core's pipeline's). */
export { onLeg } from "@txcript/core";

function isBookkeeping(warning: Warning): boolean {
  return warning.kind === "bookkeeping" || warning.kind === "other";
}

function legTitle(warning: Warning): string {
  let name = warning.harness ?? "the input";
  try {
    if (warning.harness !== undefined) name = findHarness(warning.harness).displayName;
  } catch {}
  if (warning.leg === "read") return `reading ${name}`;
  if (warning.leg === "write") return `writing ${name}`;
  return name;
}

function times(count: number): string {
  return count === 1 ? "" : `${count} × `;
}

/** One loss: its sentence and count, or — when occurrences differ — each distinct case. */
function warningLines(kind: string, warning: Warning): string[] {
  if (warning.cases === undefined || warning.cases.length < 2)
    return [`  ${kind}: ${times(warning.count)}${warning.message} [${warning.code}]`];
  return [
    `  ${kind}: ${warning.count} × [${warning.code}], ${warning.cases.length} different cases:`,
    ...warning.cases.map((item) => `      ${item.count} × ${item.message}`),
  ];
}

/** The report's lines (without the `txcript:` prefix), empty when nothing is to be said. */
export function lossLines(warnings: readonly Warning[], mode: LossMode): string[] {
  if (mode === "none" || warnings.length === 0) return [];
  const legs = new Map<string, Warning[]>();
  for (const warning of warnings) {
    const title = legTitle(warning);
    legs.set(title, [...(legs.get(title) ?? []), warning]);
  }
  const lines: string[] = [];
  for (const [title, list] of legs) {
    lines.push(`losses ${title}:`);
    const order = ["unsupported", "degraded"] as const;
    for (const kind of order)
      for (const warning of list.filter((item) => item.kind === kind)) {
        lines.push(...warningLines(kind, warning));
      }
    const bookkeeping = list.filter(isBookkeeping);
    if (mode === "all")
      for (const warning of bookkeeping) {
        lines.push(...warningLines("bookkeeping", warning));
      }
    else if (bookkeeping.length > 0) {
      const count = bookkeeping.reduce((sum, warning) => sum + warning.count, 0);
      const codes = bookkeeping.map((warning) => warning.code).join(", ");
      lines.push(
        `  + ${count} bookkeeping field${count === 1 ? "" : "s"} not carried [${codes}]; --losses all to list them`,
      );
    }
  }
  return lines;
}

/** A warning as `--json` prints it. */
export function lossJson(warning: Warning): Record<string, unknown> {
  return {
    leg: warning.leg ?? null,
    harness: warning.harness ?? null,
    code: warning.code,
    kind: isBookkeeping(warning) ? "bookkeeping" : warning.kind,
    count: warning.count,
    message: warning.message,
    path: warning.path ?? null,
    cases: (warning.cases ?? [{ message: warning.message, count: warning.count }]).map((item) => ({
      message: item.message,
      count: item.count,
    })),
  };
}
