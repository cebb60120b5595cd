// What each command accepts, as data: the option table drives argument
// parsing and the help text alike, so `--help` cannot drift from the
// parser. docs/cli.md quotes these help texts; a test keeps them equal.

export interface OptionSpec {
  name: string;
  short?: string;
  /** Takes a value (shown in help as `--name VALUE`). */
  value?: string;
  multiple?: boolean;
  description: string;
  /** Old spellings still accepted (with a deprecation note), never shown in help. */
  deprecated?: string[];
}

export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  /** Paragraphs after the usage line. */
  details: string[];
  options: OptionSpec[];
  /** Lines of example commands, each with a trailing `# comment`. */
  examples: string[];
  /** Positional arguments: [least, most]. */
  positionals: [number, number];
}

const help: OptionSpec = { name: "help", short: "h", description: "show this help" };
const debug: OptionSpec = { name: "debug", description: "print a stack trace with an error" };
const force: OptionSpec = {
  name: "force",
  short: "f",
  description: "replace an existing output file",
};
const json: OptionSpec = {
  name: "json",
  description: "print one JSON object on stdout: what was written where, and every loss",
};
const quiet: OptionSpec = { name: "quiet", short: "q", description: "print errors only" };
const redact: OptionSpec = {
  name: "redact",
  description: "replace secrets (API keys, tokens, private keys, …) with [redacted: kind]",
};
const redactReport: OptionSpec = {
  name: "redact-report",
  value: "FILE",
  description: "redact, and write what was redacted where to FILE as JSON",
};
const losses: OptionSpec = {
  name: "losses",
  value: "MODE",
  description: "the loss report: summary (default; bookkeeping folded), all, or none",
};

export const commandSpecs: CommandSpec[] = [
  {
    name: "list",
    summary: "sessions across every store, newest first",
    usage: "txcript list [--from H] [--json] [--limit N] [--cwd DIR]",
    details: [
      "Lists the sessions in every harness store (Amp threads, Claude Code projects),",
      "newest first: updated time, harness, id, message count where cheap, title, cwd.",
      "Files a store cannot read are skipped and summarized on stderr, never fatal.",
    ],
    options: [
      { name: "from", value: "H", description: "only this harness's store" },
      { name: "json", description: "print a JSON array instead of a table" },
      { name: "limit", short: "n", value: "N", description: "at most N sessions" },
      { name: "cwd", value: "DIR", description: "only sessions recorded in DIR" },
      help,
      debug,
    ],
    examples: [
      "txcript list                       # everything, newest first",
      "txcript list --from claude --limit 5",
      "txcript list --cwd . --json        # sessions of this directory, as JSON",
    ],
    positionals: [0, 0],
  },
  {
    name: "view",
    summary: "the compact numbered text of a session",
    usage: "txcript view <ref>[#range] [--from H] [--html [-o FILE]] [--redact]",
    details: [
      "<ref> is a session id (a unique prefix is enough), a file, or - for stdin.",
      "Ranges use the printed ordinals: #7, #5-12, #5- (from 5 on), #-10 (up to 10).",
      "Colour only on a terminal; NO_COLOR turns it off.",
      "--html writes one self-contained page (no network, no scripts) to share or",
      "review: tool calls as commands and diffs, thinking and results collapsible.",
    ],
    options: [
      { name: "from", value: "H", description: "read the input as this harness (skip detection)" },
      { name: "html", description: "an HTML page instead of text" },
      { name: "output", short: "o", value: "FILE", description: "write to FILE (atomically)" },
      force,
      redact,
      redactReport,
      help,
      debug,
    ],
    examples: [
      "txcript view T-0199aaaa            # an Amp thread by id prefix",
      "txcript view session.jsonl#5-12    # messages 5 to 12 of a file",
      "amp -x 'hi' --stream-json | txcript view -",
      "txcript view session.jsonl --html --redact -o session.html",
    ],
    positionals: [1, 1],
  },
  {
    name: "convert",
    summary: "native → native through Common",
    usage:
      "txcript convert <ref|file|-> --to H [--from H] [-o FILE] [--force] [--json]\n       txcript convert <dir> --to H --out-dir DIR [--from H] [--force] [--json]",
    details: [
      "Reads a session in one harness's format and writes it in another's. The input",
      "format is detected unless --from names it. Losses that occurred are printed",
      "on stderr with counts. Without -o the result goes to stdout.",
      "Given a directory, converts every .json/.jsonl file under it into --out-dir,",
      "reports bad files without stopping, and exits 1 if any failed.",
    ],
    options: [
      { name: "to", short: "t", value: "H", description: "the target harness (required)" },
      { name: "from", value: "H", description: "read the input as this harness (skip detection)" },
      { name: "output", short: "o", value: "FILE", description: "write to FILE (atomically)" },
      {
        name: "out-dir",
        value: "DIR",
        description: "the output directory (directory input)",
        deprecated: ["out"],
      },
      {
        name: "dialect",
        value: "D",
        description:
          "stream-json dialect to write: claude or amp (default: amp from Amp input, else claude)",
      },
      force,
      json,
      quiet,
      losses,
      redact,
      redactReport,
      help,
      debug,
    ],
    examples: [
      "txcript convert T-0199aaaa --to stream_json -o thread.jsonl",
      "txcript convert thread.jsonl --to amp --from stream-json",
      "amp -x 'hi' --stream-json | txcript convert - --to claude_code",
      "txcript convert ~/exports --to common --out-dir ./common   # a whole directory",
      "txcript convert session.jsonl --to codex -o out.jsonl --json   # the result as JSON",
    ],
    positionals: [1, 1],
  },
  {
    name: "export",
    summary: "the Common JSON document of a session",
    usage: "txcript export <ref>[#range] [--from H] [-o FILE] [--force] [--json]",
    details: [
      "Writes the versioned Common document (txcript.common/v2); `txcript convert",
      "--from common` reads it back. A range that would cut a tool call from its",
      "result is refused, naming the nearest valid range.",
    ],
    options: [
      { name: "from", value: "H", description: "read the input as this harness (skip detection)" },
      { name: "output", short: "o", value: "FILE", description: "write to FILE (atomically)" },
      force,
      json,
      quiet,
      losses,
      redact,
      redactReport,
      help,
      debug,
    ],
    examples: [
      "txcript export T-0199aaaa -o thread.common.json",
      "txcript export session.jsonl#1-20  # the first 20 messages, to stdout",
    ],
    positionals: [1, 1],
  },
  {
    name: "continue",
    summary: "copy a session into another harness and resume it there",
    usage:
      "txcript continue <ref>[#range] --with H [--full] [--budget N] [--verify] [--no-resume] [--store DIR] [--json]",
    details: [
      "Writes a copy of the session into H's store and launches H's resume command",
      "in the session's directory (the current one when that does not exist here).",
      "A compacted session continues from its last compaction (the summary and what",
      "follows, as the source agent itself would send it); --full replays everything",
      "and writes each compaction marker as plain text holding its summary, so the",
      "target sends the whole history and the summaries too.",
      "A session too long for the target's context is fitted into --budget tokens:",
      "reasoning first, then long tool outputs and pasted texts (head and tail kept),",
      "then whole oldest turns, never a call without its result. What is left out is",
      "archived in .txcript/<id>/ in the session's directory, and the session says so.",
      "The written session is read back through the target's own codec and compared",
      "with the conversation first; on a mismatch it is removed (and an archive this",
      "run made) and nothing launches.",
      "--verify also has H's own program check it offline, on a copy in a temporary",
      "home with fake keys and the API at 127.0.0.1 (claude_code, codex, pi, opencode,",
      "gemini_cli, copilot_cli, qwen_code): the program is TXCRIPT_VERIFY_<HARNESS>_BIN",
      "or the first on PATH, and the report names its path and version. Not found:",
      "exit 1, nothing written; the check fails: the session is removed (exit 70).",
      "The source is never modified. TXCRIPT_<HARNESS>_RESUME_CMD overrides the",
      "command (a shell template where {id} is the new session id).",
      "--with amp is refused: current Amp builds are server-authoritative and never",
      "read local thread files. Harnesses without a store (stream_json, common) are",
      "refused too. A copy of a range gets its own session id.",
    ],
    options: [
      {
        name: "with",
        short: "w",
        value: "H",
        description: "the harness to continue in (required)",
      },
      { name: "from", value: "H", description: "read the input as this harness (skip detection)" },
      { name: "no-resume", description: "only write the session; do not launch anything" },
      {
        name: "full",
        description:
          "replay the whole history, compaction markers as plain text, so the target sends all of it",
      },
      {
        name: "budget",
        value: "N",
        description: "fit the session into N tokens (default: 3/4 of the target model's window)",
      },
      {
        name: "store",
        value: "DIR",
        description: "write into this store directory instead of the default",
        deprecated: ["out"],
      },
      {
        name: "verify",
        description: "have the target's own program check the written session offline first",
      },
      { name: "force", short: "f", description: "replace a session already written there" },
      json,
      quiet,
      losses,
      redact,
      redactReport,
      help,
      debug,
    ],
    examples: [
      "txcript continue T-0199aaaa --with claude_code   # pick an Amp thread up in Claude Code",
      "txcript continue thread.json#1-8 --with claude --no-resume",
    ],
    positionals: [1, 1],
  },
  {
    name: "fixtures",
    summary: "reproducible native fixtures for fuzz-testing parsers",
    usage: "txcript fixtures --harness H --count N --seed S --out-dir DIR [--force] [--json]",
    details: [
      "Generates N sessions from the Common model's generators and writes them in",
      "H's format. The same seed gives identical bytes; every file passes txcript's",
      "own parser.",
    ],
    options: [
      { name: "harness", value: "H", description: "the format to write (required)" },
      { name: "count", short: "n", value: "N", description: "how many files (required)" },
      { name: "seed", value: "S", description: "an integer seed (required)" },
      {
        name: "out-dir",
        value: "DIR",
        description: "the output directory (required)",
        deprecated: ["out"],
      },
      force,
      json,
      quiet,
      help,
      debug,
    ],
    examples: ["txcript fixtures --harness amp --count 50 --seed 7 --out-dir ./fuzz"],
    positionals: [0, 0],
  },
  {
    name: "schema",
    summary: "the JSON Schema of the Common document",
    usage: "txcript schema",
    details: ["Prints the JSON Schema (draft 2020-12) that `txcript export` output follows."],
    options: [help, debug],
    examples: ["txcript schema > common.schema.json"],
    positionals: [0, 0],
  },
  {
    name: "search",
    summary: "full-text search over every store's sessions",
    usage:
      "txcript search <query> [--from H] [--cwd DIR] [--since DATE] [--until DATE] [--limit N] [--json]",
    details: [
      "Finds messages, reasoning, tool inputs and tool outputs in every store. Every",
      'word must appear; "quoted words" must appear together; case and accents do',
      "not matter. Hits are ranked, each as harness, id#ordinal (for `txcript view`),",
      "title and time, with a snippet where «the match» is marked.",
      "The index ($XDG_CACHE_HOME/txcript/search.sqlite) is brought up to date first:",
      "only sessions that changed are read again. --reindex rebuilds it.",
      "On Linux, TXCRIPT_SEARCH_KEEPER=1 has a search leave a search keeper running",
      "(one per index: a background txcript that watches the stores and answers the",
      "next searches; it exits after 10 idle minutes). Off by default.",
    ],
    options: [
      { name: "from", value: "H", description: "only this harness's sessions" },
      { name: "cwd", value: "DIR", description: "only sessions recorded in DIR" },
      { name: "since", value: "DATE", description: "only sessions updated at or after DATE" },
      { name: "until", value: "DATE", description: "only sessions updated before DATE" },
      { name: "limit", short: "n", value: "N", description: "at most N hits (default 20)" },
      { name: "json", description: "print a JSON array of hits" },
      { name: "reindex", description: "rebuild the index from scratch first" },
      help,
      debug,
    ],
    examples: [
      "txcript search flaky upload test       # every word, anywhere in a message",
      'txcript search "upload test" --from claude --since 2026-11-01',
      "txcript view 5c0375b4#12               # open a hit",
    ],
    positionals: [1, 64],
  },
  {
    name: "mcp",
    summary: "a read-only MCP server over stdio: list, search and read sessions",
    usage: "txcript mcp",
    details: [
      "Serves the Model Context Protocol on stdin/stdout for an agent: list_sessions,",
      "search_sessions and read_session (the compact text of `view`, within a byte",
      "budget). It only reads. See docs/mcp.md for registering it with each harness.",
    ],
    options: [help, debug],
    examples: ["claude mcp add txcript -- txcript mcp"],
    positionals: [0, 0],
  },
  {
    name: "completion",
    summary: "a shell completion script (bash, zsh or fish)",
    usage: "txcript completion bash|zsh|fish",
    details: [
      "Prints a completion script for the shell: commands, each command's options,",
      "and harness names after --to, --from, --with and --harness.",
    ],
    options: [help, debug],
    examples: [
      "txcript completion bash > ~/.local/share/bash-completion/completions/txcript",
      "txcript completion fish > ~/.config/fish/completions/txcript.fish",
    ],
    positionals: [1, 1],
  },
];

export function findCommand(name: string): CommandSpec | undefined {
  return commandSpecs.find((spec) => spec.name === name);
}
