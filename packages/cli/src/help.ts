// Help texts rendered from the command specs, plus the top-level help with
// the harnesses, environment variables and exit codes. docs/cli.md quotes
// every one of these verbatim (a test compares them).
import { type CommandSpec, commandSpecs, type OptionSpec } from "./command-specs.js";
import { harnessList } from "./harnesses.js";

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

export const environmentVariables: [string, string][] = [
  ["HOME", "the home directory the default store locations hang off"],
  ["AMP_THREADS_DIR", "the Amp threads directory (default $XDG_DATA_HOME/amp/threads)"],
  ["XDG_DATA_HOME", "base of the default Amp threads directory (default ~/.local/share)"],
  [
    "CLAUDE_CONFIG_DIR",
    "the Claude Code config directory (sessions in <dir>/projects; default ~/.claude)",
  ],
  [
    "TXCRIPT_<HARNESS>_RESUME_CMD",
    "the resume command `continue` runs, a shell template with {id}",
  ],
  ["TXCRIPT_CLAUDE_CODE_RESUME_CMD", "the one for Claude Code (default: claude --resume {id})"],
  ["NO_COLOR", "set to anything non-empty: no colour even on a terminal"],
  ["TXCRIPT_DEBUG", "set to 1: same as --debug"],
  [
    "TXCRIPT_MAX_INPUT_BYTES",
    "the largest input read whole, in bytes (default 524288000, 500 MiB)",
  ],
];

export const exitCodes: [string, string][] = [
  ["0", "success"],
  ["1", "bad input or data (unreadable, invalid, not found, a failed batch file, I/O)"],
  [
    "2",
    "usage error or a refused operation (unknown option, continue --with amp, a cutting range)",
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
      harnessList().map((harness) => [
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
    ...table(environmentVariables),
    "",
    "Exit codes:",
    ...table(exitCodes),
    "",
    "Examples:",
    "  txcript list",
    "  txcript view T-0199aaaa#5-12",
    "  txcript convert thread.json --to stream_json -o thread.jsonl",
    "  txcript continue T-0199aaaa --with claude_code",
  ];
  return `${lines.join("\n")}\n`;
}
