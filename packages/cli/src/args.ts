// Argument parsing on node:util parseArgs, driven by the command specs:
// unknown options, missing values and stray positionals become USAGE
// errors (exit 2) that point at the command's --help.
import { parseArgs } from "node:util";
import { TxcriptError } from "@txcript/core/errors";
import { closest } from "@txcript/core/harness";
import type { CommandSpec } from "./command-specs.js";

export type Values = Record<string, string | boolean | string[] | undefined>;

export interface Parsed {
  values: Values;
  positionals: string[];
  /** Deprecation notes for old option spellings that were used (printed on stderr). */
  notes?: string[];
}

/** node:util's parse errors, in our own words (its hints about `--` never reach a user). */
function usageError(cause: unknown, spec: CommandSpec): TxcriptError {
  const error = cause as { code?: string; message?: string };
  const message = String(error.message ?? "bad arguments").split("\n")[0] ?? "bad arguments";
  const hint = `see txcript ${spec.name} --help`;
  const names = spec.options.flatMap((option) => [`--${option.name}`]);
  const quoted = /'(-{1,2}[^' ]+)/.exec(message)?.[1];
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && quoted !== undefined) {
    const suggestion = closest(quoted, names);
    return new TxcriptError("USAGE", `unknown option ${quoted} for ${spec.name}`, {
      hint: suggestion === undefined ? hint : `did you mean ${suggestion}? ${hint}`,
      cause,
    });
  }
  if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && quoted !== undefined) {
    const option = spec.options.find(
      (item) => `--${item.name}` === quoted || `-${item.short}` === quoted,
    );
    return new TxcriptError(
      "USAGE",
      option?.value
        ? `--${option.name} needs a value (${option.value})`
        : `--${option?.name ?? quoted.replace(/^-+/, "")} takes no value`,
      { hint, cause },
    );
  }
  return new TxcriptError("USAGE", message.replace(/\.$/, ""), { hint, cause });
}

export function parseCommand(spec: CommandSpec, args: string[]): Parsed {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const option of spec.options) {
    options[option.name] = {
      type: option.value ? "string" : "boolean",
      ...(option.short ? { short: option.short } : {}),
    };
    for (const old of option.deprecated ?? [])
      options[old] = { type: option.value ? "string" : "boolean" };
  }
  let parsed: Parsed;
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
    throw usageError(cause, spec);
  }
  const notes: string[] = [];
  for (const option of spec.options)
    for (const old of option.deprecated ?? []) {
      if (parsed.values[old] === undefined) continue;
      if (parsed.values[option.name] === undefined) parsed.values[option.name] = parsed.values[old];
      delete parsed.values[old];
      notes.push(
        `--${old} is deprecated for ${spec.name}; use --${option.name} (the old spelling goes in the next release)`,
      );
    }
  if (notes.length > 0) parsed.notes = notes;
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
