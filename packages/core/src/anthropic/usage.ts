// Anthropic Messages usage ⇄ Common usage, and the choice among the usage
// objects the parts of one split message repeat. The API counts input not
// read from or written to a cache (`input_tokens`), output, cache reads and
// cache writes; Common keeps the same four counts under its own names.
import type { Json, JsonObject } from "../json.js";
import { isJsonObject, ownValue } from "../json.js";
import type { Usage } from "../model.js";

/** The four counts, as the API names them, in the order Claude Code writes them. */
export const anthropicUsageKeys = [
  "input_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
  "output_tokens",
] as const;

export interface AnthropicUsageRead {
  readonly usage: Usage;
  /** Counts that were absent (read as 0). */
  readonly absent: readonly string[];
  /** Counts present but not a non-negative safe integer (read as 0). */
  readonly invalid: readonly string[];
  /** Keys beyond the four counts (service_tier, server_tool_use, the cache_creation breakdown …). */
  readonly details: readonly string[];
}

function isCount(value: Json | undefined): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/**
 * A `usage` object → Common usage, with what did not fit said apart; a
 * value that is not an object → undefined. Each count that is absent or not
 * a count reads as 0 and is named in `absent` / `invalid`.
 */
export function anthropicUsageToCommon(value: Json | undefined): AnthropicUsageRead | undefined {
  if (!isJsonObject(value)) return undefined;
  const absent: string[] = [];
  const invalid: string[] = [];
  const count = (key: string): number => {
    const found = ownValue(value, key);
    if (isCount(found)) return found;
    (found === undefined ? absent : invalid).push(key);
    return 0;
  };
  const usage: Usage = {
    inputTokens: count("input_tokens"),
    outputTokens: count("output_tokens"),
    cacheReadInputTokens: count("cache_read_input_tokens"),
    cacheCreationInputTokens: count("cache_creation_input_tokens"),
  };
  const known = new Set<string>(anthropicUsageKeys);
  const details = Object.keys(value).filter((key) => !known.has(key));
  return { usage, absent, invalid, details };
}

/** Common usage → the API's four counts (reasoning tokens and cost have no key there). */
export function commonUsageToAnthropic(usage: Usage): JsonObject {
  return {
    input_tokens: usage.inputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
    output_tokens: usage.outputTokens,
  };
}

/** Every token the usage counts: input, output, cache reads and cache writes. */
export function usageTotal(usage: Usage): number {
  return (
    usage.inputTokens +
    usage.outputTokens +
    usage.cacheReadInputTokens +
    usage.cacheCreationInputTokens
  );
}

/**
 * The usage one API message counts when its parts each repeat it (as
 * streamed so far): the part with the largest total, the earlier on a tie —
 * the way ccusage counts a message once. Never a sum.
 */
export function largestUsage(kept: Usage | undefined, next: Usage | undefined): Usage | undefined {
  if (next === undefined) return kept;
  if (kept === undefined) return next;
  return usageTotal(next) > usageTotal(kept) ? next : kept;
}
