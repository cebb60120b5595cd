// Argument parsing on node:util parseArgs, driven by the command specs:
// unknown options, missing values and stray positionals become USAGE
// errors (exit 2) that point at the command's --help.
import { parseArgs } from "node:util";
import { TxcriptError } from "@txcript/core";
import type { CommandSpec } from "./command-specs.js";

export type Values = Record<string, string | boolean | string[] | undefined>;

export interface Parsed {
  values: Values;
  positionals: string[];
}

export function parseCommand(spec: CommandSpec, args: string[]): Parsed {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const option of spec.options) {
    options[option.name] = {
      type: option.value ? "string" : "boolean",
      ...(option.short ? { short: option.short } : {}),
    };
  }
  let parsed: { values: Values; positionals: string[] };
  // `-#5-12` (stdin with a range) is a positional, not a cluster of short options.
  const stdinRange = "\u0000stdin";
  const protectedArgs = args.map((arg) =>
    /^-#[\d-]+$/.test(arg) ? stdinRange + arg.slice(1) : arg,
  );
  try {
    parsed = parseArgs({
      args: protectedArgs,
      options,
      allowPositionals: true,
      strict: true,
    }) as typeof parsed;
    parsed.positionals = parsed.positionals.map((arg) =>
      arg.startsWith(stdinRange) ? `-${arg.slice(stdinRange.length)}` : arg,
    );
  } catch (cause) {
    const message = (cause as Error).message.split("\n")[0] ?? "bad arguments";
    throw new TxcriptError("USAGE", message.replace(/\.$/, ""), {
      hint: `see txcript ${spec.name} --help`,
      cause,
    });
  }
  if (parsed.values.help) return parsed;
  const [least, most] = spec.positionals;
  if (parsed.positionals.length < least) {
    throw new TxcriptError("USAGE", `missing argument: ${spec.usage.split("\n")[0]}`, {
      hint: `see txcript ${spec.name} --help`,
    });
  }
  if (parsed.positionals.length > most) {
    throw new TxcriptError(
      "USAGE",
      `unexpected argument ${JSON.stringify(parsed.positionals[most])}`,
      { hint: `see txcript ${spec.name} --help` },
    );
  }
  return parsed;
}

export function stringOption(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

export function requireOption(values: Values, name: string, command: string): string {
  const value = stringOption(values, name);
  if (value === undefined || value === "") {
    throw new TxcriptError("USAGE", `missing --${name}`, { hint: `see txcript ${command} --help` });
  }
  return value;
}

/** A non-negative integer option (`--limit`, `--count`, `--seed`). */
export function integerOption(
  values: Values,
  name: string,
  command: string,
  minimum = 0,
): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text) || Number(text) < minimum || !Number.isSafeInteger(Number(text))) {
    throw new TxcriptError("USAGE", `--${name} must be an integer of at least ${minimum}`, {
      hint: `got ${JSON.stringify(text)}; see txcript ${command} --help`,
    });
  }
  return Number(text);
}
