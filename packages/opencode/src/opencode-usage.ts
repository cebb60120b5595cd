// OpenCode token counts → Common usage. `tokens.input` excludes cached
// tokens and `tokens.output` excludes reasoning; Common's outputTokens is
// output + reasoning (docs/formats/opencode.md, "Messages").
import {
  type ConversionOptions,
  type Json,
  type JsonObject,
  ownValue,
  type Usage,
  warn,
} from "@txcript/core";
import { opencodeLossList as losses } from "./opencode-losses.js";
import { numberField, objectField } from "./opencode-schema.js";

interface Reader {
  options: ConversionOptions | undefined;
}

/**
 * A token count: a positive finite number, truncated; anything else is 0.
 * Common's counts are safe integers, so a count past 2^53 − 1 also reads
 * as 0, with the opencode.usage-count loss.
 */
function count(reader: Reader, value: Json | undefined, path: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return 0;
  const tokens = Math.trunc(value);
  if (Number.isSafeInteger(tokens)) return tokens;
  warn(reader.options, losses.usageCount, "a token count past 2^53 − 1 reads as 0", path);
  return 0;
}

export function usageFrom(
  reader: Reader,
  tokens: JsonObject | undefined,
  cost: number,
  stepped: boolean,
  path: string,
): Usage | undefined {
  const cache = tokens === undefined ? undefined : objectField(tokens, "cache");
  const input = count(reader, tokens && ownValue(tokens, "input"), `${path}.input`);
  const output = count(reader, tokens && ownValue(tokens, "output"), `${path}.output`);
  let reasoning = count(reader, tokens && ownValue(tokens, "reasoning"), `${path}.reasoning`);
  const read = count(reader, cache && ownValue(cache, "read"), `${path}.cache.read`);
  const write = count(reader, cache && ownValue(cache, "write"), `${path}.cache.write`);
  if (!Number.isSafeInteger(output + reasoning)) {
    warn(
      reader.options,
      losses.usageCount,
      "output plus reasoning tokens past 2^53 − 1: the reasoning count reads as 0",
      `${path}.reasoning`,
    );
    reasoning = 0;
  }
  if (!stepped && input + output + reasoning + read + write === 0 && !(cost > 0)) return undefined;
  const usage: Usage = {
    inputTokens: input,
    outputTokens: output + reasoning,
    cacheReadInputTokens: read,
    cacheCreationInputTokens: write,
  };
  if (reasoning > 0) usage.reasoningOutputTokens = reasoning;
  if (cost > 0) usage.costUsd = cost;
  return usage;
}

export function usageOf(
  reader: Reader,
  info: JsonObject,
  parts: readonly JsonObject[],
  path: string,
): Usage | undefined {
  const stepped = parts.some((part) => ownValue(part, "type") === "step-finish");
  return usageFrom(
    reader,
    objectField(info, "tokens"),
    numberField(info, "cost") ?? 0,
    stepped,
    `${path}.info.tokens`,
  );
}
