// A token_count event's last_token_usage → Common usage. Codex's
// input_tokens include cached (and 0.171's cache-write) tokens; Common's
// inputTokens do not. Common's counts are safe integers: a count past
// 2^53 − 1 reads as 0 with codex.usage-count (docs/formats/codex.md).
import { type ConversionOptions, type JsonObject, numberAt, type Usage, warn } from "@txcript/core";
import { codexLoss } from "./codex-losses.js";

/** last_token_usage as Common usage; `path` names its line, for the warnings. */
export function usageOf(
  last: JsonObject,
  options: ConversionOptions | undefined,
  path: string,
): Usage {
  const count = (key: string): number => {
    const value = Math.trunc(numberAt(last, key) ?? 0);
    if (Number.isSafeInteger(value)) return value;
    warn(
      options,
      codexLoss.usageCount,
      `last_token_usage.${key} is past 2^53 − 1 and reads as 0`,
      path,
    );
    return 0;
  };
  const input = count("input_tokens");
  const cached = count("cached_input_tokens");
  const written = count("cache_write_input_tokens");
  const usage: Usage = {
    inputTokens: Math.max(0, input - cached - written),
    outputTokens: Math.max(0, count("output_tokens")),
    cacheReadInputTokens: Math.max(0, cached),
    cacheCreationInputTokens: Math.max(0, written),
  };
  const reasoning = count("reasoning_output_tokens");
  if (reasoning > 0) usage.reasoningOutputTokens = reasoning;
  return usage;
}
