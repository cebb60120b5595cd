// `txcript search <query>`: full-text search over every store's sessions
// (messages, reasoning, tool inputs and outputs), through the index of
// @txcript/search, which it brings up to date first (only changed sessions
// are read again; the first run reads them all, with progress on a terminal).
import * as path from "node:path";
import { readTimestamp, TxcriptError } from "@txcript/core";
import { integerOption, type Parsed, stringOption } from "../args.js";
import { findHarness } from "../harnesses.js";
import type { Io } from "../io.js";
import { openFreshIndex } from "../search-index.js";
import { printHits } from "../search-output.js";

function dateOption(values: Parsed["values"], name: string): string | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const time = readTimestamp(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (time === undefined)
    throw new TxcriptError("USAGE", `--${name} must be a date or a date-time`, {
      hint: `got ${JSON.stringify(text)}; e.g. 2026-11-30 or 2026-11-30T12:00:00Z`,
    });
  return time;
}

export async function searchCommand(io: Io, { values, positionals }: Parsed): Promise<number> {
  const query = positionals.join(" ");
  const from = stringOption(values, "from");
  const harness = from === undefined ? undefined : findHarness(from);
  const cwdOption = stringOption(values, "cwd");
  const since = dateOption(values, "since");
  const until = dateOption(values, "until");
  const filters = {
    ...(harness === undefined ? {} : { from: harness.id }),
    ...(cwdOption === undefined ? {} : { cwd: path.resolve(io.cwd, cwdOption) }),
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
    limit: integerOption(values, "limit", "search", 1) ?? 20,
  };
  const index = await openFreshIndex(io, {
    reindex: values.reindex === true,
    quiet: values.json === true,
  });
  try {
    const hits = index.search(query, filters);
    await printHits(io, query, hits, values.json === true);
    return 0;
  } finally {
    index.close();
  }
}
