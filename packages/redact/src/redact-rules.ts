// secretlint's recommended rules run over many strings at once: the strings
// are joined into large chunks (one lintSource call each, so the rule set is
// set up once per chunk, not once per string) and each finding is mapped back
// to the strings it covers. Not the secret-position checks (redact-positions.ts).
import { lintSource } from "@secretlint/core";
import { rules as recommendedRules } from "@secretlint/secretlint-rule-preset-recommend";

/** A half-open character range in one string, with the kind of secret found there. */
export interface Finding {
  start: number;
  end: number;
  kind: string;
}

const rulePrefix = "@secretlint/secretlint-rule-";

/**
 * `filter-comments` is left out: it lets a `secretlint-disable` comment in the
 * scanned text silence the other rules, and a transcript's text is not ours to
 * trust. The AWS rule's id scan (access key ids, account ids) is switched on:
 * an access key id is half of a credential and names the account.
 */
const ruleConfig = recommendedRules
  .filter((rule) => rule.meta.id !== `${rulePrefix}filter-comments`)
  .map((rule) =>
    rule.meta.id === `${rulePrefix}aws`
      ? { id: rule.meta.id, rule, options: { enableIDScanRule: true } }
      : { id: rule.meta.id, rule },
  );

/** The secretlint rule ids this package runs. */
export const secretlintRuleIds: readonly string[] = ruleConfig.map((entry) => entry.id);

/** Marker kinds for rule messages, where the rule name alone is not the clearest word. */
const kindsByMessage: Record<string, string> = {
  AWSAccessKeyID: "aws-access-key",
  AWSSecretAccessKey: "aws-secret-key",
  AWSAccountID: "aws-account-id",
  GITHUB_TOKEN: "github-token",
  SLACK_TOKEN: "slack-token",
  IncomingWebhook: "slack-webhook",
  OPENAI_TOKEN: "openai-api-key",
  ANTHROPIC_API_KEY: "anthropic-api-key",
  PrivateKey: "private-key",
  BasicAuth: "basic-auth-url",
};

function kindOf(ruleId: string, messageId: string): string {
  const known = kindsByMessage[messageId];
  if (known !== undefined) return known;
  const rule = ruleId.startsWith(rulePrefix) ? ruleId.slice(rulePrefix.length) : ruleId;
  if (rule === "database-connection-string") return "connection-string";
  return rule;
}

/**
 * Rules that match `NAME = value` report the whole assignment; only the value
 * is secret, so the name and connector stay readable.
 */
const assignmentPrefix = /^["']?[A-Za-z_][A-Za-z0-9_]*["']?\s*(?::|=>|=)\s*["']?/;

function narrow(text: string, start: number, end: number, messageId: string): [number, number] {
  if (messageId !== "AWSSecretAccessKey" && messageId !== "AWSAccountID") return [start, end];
  const match = assignmentPrefix.exec(text.slice(start, end));
  let from = start + (match?.[0].length ?? 0);
  let to = end;
  while (to > from && (text[to - 1] === '"' || text[to - 1] === "'")) to -= 1;
  if (from >= to) from = start;
  return [from, to];
}

/** Characters per lintSource call: large enough to amortize setup, small enough to bound memory. */
const chunkChars = 8 * 1024 * 1024;
const separator = "\n";

async function lintChunk(content: string) {
  const result = await lintSource({
    source: { content, filePath: "transcript.txt", ext: ".txt", contentType: "text" },
    options: { config: { rules: ruleConfig }, noPhysicFilePath: true },
  });
  return result.messages.filter((message) => message.type === "message");
}

/**
 * Findings of secretlint's rules in each of `texts`, in the same order. A
 * finding that crosses from one string into the next is cut at the boundary
 * and kept in each part, so a secret split across strings still goes.
 */
export async function scanWithSecretlint(
  texts: readonly string[],
  chunk: number = chunkChars,
): Promise<Finding[][]> {
  const found: Finding[][] = [];
  const scanner = secretlintScanner((findings) => found.push(findings), chunk);
  for (const text of texts) {
    scanner.add(text);
    if (scanner.full()) await scanner.flush();
  }
  await scanner.flush();
  return found;
}

/**
 * The scan of scanWithSecretlint, fed one string at a time: `add` a string,
 * `flush` once `full` (and at the end); `found` gets each string's findings
 * in order as its chunk is linted. The chunks are the whole scan's, so the
 * findings are too, and at most one chunk of text is held.
 */
export function secretlintScanner(
  found: (findings: Finding[]) => void,
  chunk: number = chunkChars,
) {
  let texts: string[] = [];
  // starts[i]: the offset of texts[i] in the chunk.
  let starts: number[] = [];
  let length = 0;
  return {
    add(text: string): void {
      starts.push(length);
      texts.push(text);
      length += text.length + separator.length;
    },
    /** Whether the chunk is as long as a chunk gets (then flush before adding more). */
    full: (): boolean => length >= chunk,
    async flush(): Promise<void> {
      if (texts.length === 0) return;
      const chunkTexts = texts;
      const chunkStarts = starts;
      texts = [];
      starts = [];
      length = 0;
      const results: Finding[][] = chunkTexts.map(() => []);
      for (const message of await lintChunk(chunkTexts.join(separator))) {
        const [from, to] = message.range;
        const kind = kindOf(message.ruleId, message.messageId ?? "");
        let index = lastAtOrBefore(chunkStarts, from);
        for (; index < chunkStarts.length && (chunkStarts[index] as number) < to; index += 1) {
          const base = chunkStarts[index] as number;
          const text = chunkTexts[index] as string;
          const start = Math.max(from, base) - base;
          const end = Math.min(to, base + text.length) - base;
          if (start >= end) continue;
          const [narrowStart, narrowEnd] = narrow(text, start, end, message.messageId ?? "");
          results[index]?.push({ start: narrowStart, end: narrowEnd, kind });
        }
      }
      for (const findings of results) found(findings);
    },
  };
}

function lastAtOrBefore(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((sorted[middle] as number) <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}
