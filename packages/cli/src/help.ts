// Help texts rendered from the command specs, plus the top-level help with
// the harnesses, environment variables and exit codes. docs/cli.md quotes
// every one of these verbatim (a test compares them).
import { type CommandSpec, commandSpecs, type OptionSpec } from "./command-specs.js";
import { type Harness, harnessList, registryLoaded } from "./harnesses.js";

/** What the help says of a harness. */
export interface HelpHarness {
  id: string;
  displayName: string;
  aliases: readonly string[];
  environment: readonly (readonly [string, string])[];
  /** Its default resume command for session `{id}`, when it has one. */
  resume?: readonly string[];
}

/**
 * The default registry's harnesses as the help shows them (HelpHarness[] as
 * JSON text), written into the bin by build.mjs from the same registry
 * through `describeHarness`, so `--help` loads no harness; undefined when
 * running from source. A string, which esbuild inlines where it is read (an
 * object define would become a module every chunk imports).
 */
declare const TXCRIPT_HELP_HARNESSES: string | undefined;

/** A harness as the help shows it (build.mjs writes the default registry's with this). */
export function describeHarness(harness: Harness): HelpHarness {
  const resume = harness.resumeCommand?.("{id}");
  return {
    id: harness.id,
    displayName: harness.displayName,
    aliases: [...harness.aliases],
    environment: (harness.environment ?? []).map(([name, meaning]) => [name, meaning] as const),
    ...(resume === undefined ? {} : { resume }),
  };
}

/** The harnesses the help lists: the registry in use, else the bin's own list of the default one. */
export function helpHarnesses(): readonly HelpHarness[] {
  if (!registryLoaded() && typeof TXCRIPT_HELP_HARNESSES === "string")
    return JSON.parse(TXCRIPT_HELP_HARNESSES) as HelpHarness[];
  return harnessList().map(describeHarness);
}

function optionLabel(option: OptionSpec): string {
  const long = `--${option.name}${option.value ? ` ${option.value}` : ""}`;
  return option.short ? `-${option.short}, ${long}` : `    ${long}`;
}

function table(rows: [string, string][], indent = "  "): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${indent}${left.padEnd(width)}  ${right}`.trimEnd());
}

export function commandHelp(spec: CommandSpec): string {
  const lines = [
    `Usage: ${spec.usage}`,
    "",
    `${spec.summary[0]?.toUpperCase()}${spec.summary.slice(1)}.`,
  ];
  lines.push("", ...spec.details);
  lines.push("", "Options:");
  lines.push(...table(spec.options.map((option) => [optionLabel(option), option.description])));
  lines.push("", "Examples:");
  lines.push(...spec.examples.map((example) => `  ${example}`));
  return `${lines.join("\n")}\n`;
}

/** The environment variables: the common ones, then each harness's own (from its definition). */
export function environmentVariables(): [string, string][] {
  const seen = new Set<string>();
  const harnessVariables: [string, string][] = [];
  const harnesses = helpHarnesses();
  for (const harness of harnesses)
    for (const [name, meaning] of harness.environment)
      if (!seen.has(name) && name !== "HOME") {
        seen.add(name);
        harnessVariables.push([name, meaning]);
      }
  const resumable = harnesses.filter((harness) => harness.resume !== undefined);
  return [
    ["HOME", "the home directory the default store locations hang off"],
    ...harnessVariables,
    [
      "TXCRIPT_<HARNESS>_RESUME_CMD",
      "the resume command `continue` runs, a shell template with {id}",
    ],
    ...resumable.map((harness): [string, string] => [
      `TXCRIPT_${harness.id.toUpperCase()}_RESUME_CMD`,
      `the one for ${harness.displayName} (default: ${(harness.resume ?? []).join(" ")})`,
    ]),
    [
      "TXCRIPT_VERIFY_<HARNESS>_BIN",
      "the program `continue --verify` checks with (default: the first of its name on PATH)",
    ],
    ["NO_COLOR", "set to anything non-empty: no colour even on a terminal"],
    ["FORCE_COLOR", "colour even off a terminal (0 or false: never); wins over NO_COLOR"],
    ["TXCRIPT_DEBUG", "set to 1: same as --debug"],
    [
      "XDG_CACHE_HOME",
      "base of the search index ($XDG_CACHE_HOME/txcript/search.sqlite; default ~/.cache)",
    ],
    ["TXCRIPT_SEARCH_INDEX", "another file for the search index"],
    [
      "TXCRIPT_SEARCH_KEEPER",
      "set to 1: searches ask and start a search keeper (Linux; off by default)",
    ],
    [
      "TXCRIPT_SEARCH_KEEPER_IDLE",
      "seconds a search keeper waits for a search before it exits (600)",
    ],
    [
      "TXCRIPT_MAX_INPUT_BYTES",
      "the largest input read whole, in bytes (default 524288000, 500 MiB)",
    ],
    [
      "TXCRIPT_STREAM_MIN_BYTES",
      "session files this long or longer stream (convert, continue, search) where the harnesses can (default 67108864, 64 MiB)",
    ],
  ];
}

export const exitCodeTable: [string, string][] = [
  ["0", "success"],
  ["1", "bad input or data (unreadable, invalid, not found, a failed batch file, I/O)"],
  [
    "2",
    "usage error or a refused operation (unknown option, continue --with amp, a cutting range)",
  ],
  [
    "70",
    "an internal error: a bug in txcript (a written session that does not read back, an unexpected exception); please report it",
  ],
];

export function mainHelp(): string {
  const lines = [
    "Usage: txcript <command> [options]",
    "",
    "Read a coding-agent session in one harness's format, map it through one typed",
    "Common model, and write it in another's, with every loss named.",
    "",
    "Commands:",
    ...table(commandSpecs.map((spec) => [spec.name, spec.summary])),
    "",
    "Harnesses (H):",
    ...table(
      helpHarnesses().map((harness) => [
        harness.id,
        `${harness.displayName}${harness.aliases.length ? ` (also: ${harness.aliases.join(", ")})` : ""}`,
      ]),
    ),
    "",
    "Global options:",
    ...table([
      ["-h, --help", "show help (also: txcript <command> --help)"],
      ["-V, --version", "print the version"],
      ["    --debug", "print a stack trace with an error"],
    ]),
    "",
    "Environment:",
    ...table(environmentVariables()),
    "",
    "Exit codes:",
    ...table(exitCodeTable),
    "",
    "Examples:",
    "  txcript list",
    "  txcript view T-0199aaaa#5-12",
    "  txcript convert thread.json --to stream_json -o thread.jsonl",
    "  txcript continue T-0199aaaa --with claude_code",
    "  txcript completion bash > ~/.local/share/bash-completion/completions/txcript",
  ];
  return `${lines.join("\n")}\n`;
}
