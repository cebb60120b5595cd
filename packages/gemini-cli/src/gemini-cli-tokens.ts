// A gemini record's `tokens {input, output, cached, thoughts, tool, total}`
// (Gemini API usage metadata: prompt, candidates, cached content, thoughts,
// tool-use prompt) ⇄ Common usage. Gemini's `input` counts cached tokens
// too; Common's inputTokens does not, so reading subtracts them and writing
// adds them (and cache creation, which Gemini has no count for) back.
import { isJsonObject, type Json, type JsonObject, ownValue, type Usage } from "@txcript/core";

function count(value: Json | undefined): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

export interface ReadUsage {
  usage?: Usage;
  /** Something was not carried exactly (dropped, folded tool tokens, a total that does not add up). */
  lossy: boolean;
}

/** `tokens` → Common usage, or none when the counts are missing or unreadable. */
export function usageFromTokens(tokens: Json | undefined): ReadUsage {
  if (tokens === undefined) return { lossy: false };
  if (!isJsonObject(tokens)) return { lossy: true };
  const read = (key: string): number | undefined | null => {
    const value = ownValue(tokens, key);
    if (value === undefined) return undefined;
    return count(value) ?? null;
  };
  const input = read("input");
  const output = read("output");
  const cached = read("cached") ?? 0;
  const thoughts = read("thoughts") ?? 0;
  const tool = read("tool") ?? 0;
  const total = read("total");
  if (
    typeof input !== "number" ||
    typeof output !== "number" ||
    cached === null ||
    thoughts === null ||
    tool === null ||
    total === null
  )
    return { lossy: true };
  // Each count is a safe integer, but a sum may not be: Common's counts are.
  const inputTokens = Math.max(0, input - cached) + tool;
  const outputTokens = output + thoughts;
  if (!Number.isSafeInteger(inputTokens) || !Number.isSafeInteger(outputTokens))
    return { lossy: true };
  const usage: Usage = {
    inputTokens,
    outputTokens,
    cacheReadInputTokens: cached,
    cacheCreationInputTokens: 0,
  };
  // Gemini counts thoughts apart from output; Common's output includes them.
  if (Object.hasOwn(tokens, "thoughts")) usage.reasoningOutputTokens = thoughts;
  const lossy =
    cached > input ||
    tool > 0 ||
    (total !== undefined && total !== input + output + thoughts + tool);
  return { usage, lossy };
}

/**
 * Common usage → `tokens`, in the key order Gemini CLI writes; `thoughts`
 * only when the usage counts reasoning. `clamped` when the reasoning count
 * was above the output count and had to be taken out of nothing.
 */
export function tokensFromUsage(usage: Usage): { tokens: JsonObject; clamped: boolean } {
  const input = usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
  const reasoning = usage.reasoningOutputTokens;
  const thoughts = reasoning ?? 0;
  const output = Math.max(0, usage.outputTokens - thoughts);
  const tokens: JsonObject = { input, output, cached: usage.cacheReadInputTokens };
  if (reasoning !== undefined) tokens.thoughts = reasoning;
  tokens.tool = 0;
  tokens.total = input + output + thoughts;
  return { tokens, clamped: thoughts > usage.outputTokens };
}
