// The read-only MCP server of `txcript mcp`: three tools over the same
// stores, index and text projection as the CLI (list, search, view), for an
// agent to find and read past sessions. Nothing here writes a session. A bad
// argument or a session that cannot be read is a tool error the model sees,
// never a crash of the server.
//
// What it reads is bounded (docs/security.md): read_session takes a session
// id (or unique prefix) of a session the stores discover, never a path, and
// reads it only when it is a regular file within the input limit; since and
// until must be dates. Secrets are replaced (@txcript/redact) in what
// every tool returns (titles, snippets, the text read) unless the call says
// redact: false.

import { promises as fs } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Discovered, Transcript } from "@txcript/core";
import { readTimestamp, TxcriptError, toText } from "@txcript/core";
import * as z from "zod";
import { findHarness, stores } from "./harnesses.js";
import { findSession, readLocated, readTranscript } from "./input.js";
import type { Io } from "./io.js";
import { resolveRange, splitRange } from "./range.js";
import { formatError } from "./report.js";
import { openFreshIndex } from "./search-index.js";

/** Bytes of text read_session returns unless asked for fewer or more. */
export const defaultReadBudget = 60_000;

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };

function ok(text: string): ToolResult {
  return { content: [{ type: "text", text }] };
}

function failure(error: unknown): ToolResult {
  return {
    content: [{ type: "text", text: formatError(error).replace(/^txcript: /, "") }],
    isError: true,
  };
}

async function listSessions(
  io: Io,
  args: { from?: string | undefined; cwd?: string | undefined; limit?: number | undefined },
) {
  const only = args.from === undefined ? undefined : findHarness(args.from);
  const sessions: Discovered[] = [];
  for (const { harness, store } of stores(io.env)) {
    if (only && harness !== only) continue;
    for await (const session of store.discover())
      if (args.cwd === undefined || session.cwd === args.cwd) sessions.push(session);
  }
  sessions.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id));
  return sessions.slice(0, args.limit ?? 50);
}

/** Consecutive ranges of messages whose text fits `budget` bytes each. */
function rangesThatFit(sizes: number[], budget: number): string[] {
  const ranges: string[] = [];
  let start = 1;
  let used = 0;
  sizes.forEach((size, index) => {
    const ordinal = index + 1;
    if (used > 0 && used + size > budget) {
      ranges.push(start === ordinal - 1 ? `#${start}` : `#${start}-${ordinal - 1}`);
      start = ordinal;
      used = 0;
    }
    used += size;
  });
  if (sizes.length > 0)
    ranges.push(start === sizes.length ? `#${start}` : `#${start}-${sizes.length}`);
  return ranges;
}

/**
 * The session a stored id (or a unique prefix of one) names, read: only
 * sessions the stores discover, never a path, and only a regular file (a
 * FIFO, device or link in a store is refused unread).
 */
async function readStored(io: Io, ref: string) {
  const discovered = await findSession(ref, io);
  const stat = await fs.lstat(discovered.path).catch(() => undefined);
  if (!stat?.isFile())
    throw new TxcriptError("REFUSED", "the stored session is not a regular file; it was not read", {
      location: { file: discovered.path },
    });
  return readLocated(
    {
      kind: "file",
      forced: findHarness(discovered.harness),
      path: discovered.path,
      shown: discovered.path,
      size: stat.size,
      mtime: stat.mtime,
      discovered,
    },
    io,
  );
}

/** `texts` with the secrets @txcript/redact finds replaced, in order. */
async function redactTexts(texts: readonly string[]): Promise<string[]> {
  if (texts.length === 0) return [];
  const { redactTranscript } = await import("@txcript/redact");
  const timestamp = "1970-01-01T00:00:00.000Z";
  const carrier: Transcript = {
    meta: { id: "mcp", timestamp },
    messages: texts.map((text) => ({
      role: "user" as const,
      timestamp,
      content: [{ type: "text" as const, text }],
    })),
  };
  const { transcript } = await redactTranscript(carrier);
  return transcript.messages.map((message, index) => {
    const [block] = message.content;
    return block?.type === "text" ? block.text : (texts[index] as string);
  });
}

/**
 * A `since`/`until` argument as the index compares it (UTC ISO), or a tool
 * error: an ISO date (UTC midnight) or an ISO date-time with its zone.
 */
function dateArgument(name: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const iso = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/;
  const time = iso.test(text)
    ? readTimestamp(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text)
    : undefined;
  if (time === undefined)
    throw new TxcriptError("USAGE", `${name} must be a date or a date-time`, {
      hint: `got ${JSON.stringify(text)}; e.g. 2026-11-30 or 2026-11-30T12:00:00Z`,
    });
  return time;
}

async function readSession(
  io: Io,
  args: { ref: string; maxBytes?: number | undefined; redact?: boolean | undefined },
): Promise<ToolResult> {
  const budget = args.maxBytes ?? defaultReadBudget;
  const { ref, range } = splitRange(args.ref);
  const read = (await readTranscript(await readStored(io, ref))).transcript;
  const transcript =
    args.redact === false
      ? read
      : (await import("@txcript/redact").then(({ redactTranscript }) => redactTranscript(read)))
          .transcript;
  const bounds =
    range === undefined
      ? { from: 1, to: transcript.messages.length }
      : resolveRange(range, transcript);
  const text = toText(transcript, { range: bounds });
  const bytes = Buffer.byteLength(text);
  if (bytes <= budget) return ok(text);
  const sizes = [];
  for (let ordinal = bounds.from; ordinal <= bounds.to; ordinal += 1)
    sizes.push(Buffer.byteLength(toText(transcript, { range: { from: ordinal, to: ordinal } })));
  const ranges = rangesThatFit(sizes, budget).map((part) =>
    part.replace(/\d+/g, (number) => String(Number(number) + bounds.from - 1)),
  );
  return {
    content: [
      {
        type: "text",
        text: `refused: ${args.ref} is ${bytes} bytes of text, past the budget of ${budget} bytes; nothing was cut. Read it in parts that fit, e.g. ${ranges
          .slice(0, 12)
          .map((part) => `${transcript.meta.id}${part}`)
          .join(", ")}${ranges.length > 12 ? ", …" : ""} (or pass a larger maxBytes)`,
      },
    ],
    isError: true,
  };
}

export function createServer(io: Io, version: string): McpServer {
  const server = new McpServer({ name: "txcript", version });
  server.registerTool(
    "list_sessions",
    {
      title: "List coding-agent sessions",
      description:
        "Lists the sessions stored on this machine by every coding agent txcript reads (Claude Code, Codex, pi, OpenCode, Gemini CLI, Copilot CLI, Qwen Code, Cursor CLI, Amp), newest first, as JSON: harness, id, title, cwd, updatedAt, messageCount. Use it to find a session by recency or project directory; use search_sessions to find one by what was said.",
      inputSchema: {
        from: z
          .string()
          .optional()
          .describe(
            "only this harness (claude_code, codex, pi, opencode, gemini_cli, copilot_cli, qwen_code, crush, cursor_cli, kimi_cli, amp)",
          ),
        cwd: z.string().optional().describe("only sessions recorded in this absolute directory"),
        limit: z
          .number()
          .int()
          .min(1)
          .max(1000)
          .optional()
          .describe("at most this many (default 50)"),
        redact: z
          .boolean()
          .optional()
          .describe("replace secrets (API keys, tokens, passwords) in titles (default true)"),
      },
    },
    async (args) => {
      try {
        const sessions = await listSessions(io, args);
        if (args.redact === false) return ok(JSON.stringify(sessions, null, 2));
        const titles = await redactTexts(sessions.map((session) => session.title ?? ""));
        const redacted = sessions.map((session, index) =>
          session.title === undefined ? session : { ...session, title: titles[index] as string },
        );
        return ok(JSON.stringify(redacted, null, 2));
      } catch (error) {
        return failure(error);
      }
    },
  );
  server.registerTool(
    "search_sessions",
    {
      title: "Search past sessions",
      description:
        'Full-text search over every stored session: messages, reasoning, tool inputs and tool outputs. Every word must appear in one message; put words in double quotes to require them together ("upload test"); case and accents do not matter. Returns JSON hits, best first: harness, id, title, ordinal (the message number), and a snippet with the match between « and ». Read a hit with read_session using ref "<id>#<ordinal>" or a range around it like "<id>#10-20".',
      inputSchema: {
        query: z.string().min(1).describe('words to find, or a "quoted phrase"'),
        from: z.string().optional().describe("only this harness"),
        cwd: z.string().optional().describe("only sessions recorded in this absolute directory"),
        since: z
          .string()
          .optional()
          .describe("only sessions updated at or after this ISO date-time"),
        until: z.string().optional().describe("only sessions updated before this ISO date-time"),
        redact: z
          .boolean()
          .optional()
          .describe(
            "replace secrets (API keys, tokens, passwords) in titles and snippets (default true)",
          ),
        limit: z
          .number()
          .int()
          .min(1)
          .max(200)
          .optional()
          .describe("at most this many hits (default 20)"),
      },
    },
    async (args) => {
      try {
        const index = await openFreshIndex(io, { quiet: true });
        try {
          const filters = Object.fromEntries(
            Object.entries({
              from: args.from === undefined ? undefined : findHarness(args.from).id,
              cwd: args.cwd,
              since: dateArgument("since", args.since),
              until: dateArgument("until", args.until),
              limit: args.limit,
            }).filter(([, value]) => value !== undefined),
          );
          const hits = index.search(args.query, filters);
          if (args.redact === false) return ok(JSON.stringify(hits, null, 2));
          const texts = await redactTexts(hits.flatMap((hit) => [hit.title ?? "", hit.snippet]));
          const redacted = hits.map((hit, index) => ({
            ...hit,
            title: hit.title === null ? null : (texts[2 * index] as string),
            snippet: texts[2 * index + 1] as string,
          }));
          return ok(JSON.stringify(redacted, null, 2));
        } finally {
          index.close();
        }
      } catch (error) {
        return failure(error);
      }
    },
  );
  server.registerTool(
    "read_session",
    {
      title: "Read a session",
      description:
        'Reads a stored session as compact numbered text (the same as `txcript view`): each message with its number, role and time, tool calls as one line each with their results. ref is a session id (a unique prefix is enough), optionally with a range of message numbers: "<id>#12", "<id>#5-20", "<id>#30-" (from 30 on). A read longer than maxBytes is refused, never cut, and the refusal lists ranges that fit: read those instead.',
      inputSchema: {
        ref: z.string().min(1).describe('session id or prefix, optionally with "#from-to"'),
        maxBytes: z
          .number()
          .int()
          .min(1000)
          .max(2_000_000)
          .optional()
          .describe(`the most text to return (default ${defaultReadBudget} bytes)`),
        redact: z
          .boolean()
          .optional()
          .describe(
            "replace secrets (API keys, tokens, passwords) with [redacted: kind] (default true)",
          ),
      },
    },
    async (args) => {
      try {
        return await readSession(io, args);
      } catch (error) {
        return failure(error);
      }
    },
  );
  return server;
}
