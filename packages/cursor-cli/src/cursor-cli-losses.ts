// Every loss of the Cursor CLI codec, one list (docs/formats/cursor-cli.md
// "Losses" lists the same codes). Read-side losses name what a store holds
// that Common does not; write-side losses what txcript's document cannot hold.
import type { Loss } from "@txcript/core";

export const cursorCliLosses = [
  // Reading a store.
  {
    code: "cursor_cli.encryption-key",
    kind: "bookkeeping",
    description: "The meta row's blobEncryptionKey is never read into the document or carried.",
  },
  {
    code: "cursor_cli.meta-field",
    kind: "bookkeeping",
    description:
      "A meta key other than agentId, name, createdAt, lastUsedModel and latestRootBlobId (mode, ...) is not carried.",
  },
  {
    code: "cursor_cli.turns",
    kind: "unsupported",
    description:
      "The root node's turn structures (field 8, protobuf UI steps) are not decoded or carried.",
  },
  {
    code: "cursor_cli.root-field",
    kind: "unsupported",
    description:
      "A root-node field other than 1, 8 and 9 (todos, token details, summary, plan, mode, ...) is not decoded or carried.",
  },
  {
    code: "cursor_cli.workspace",
    kind: "bookkeeping",
    description:
      "A workspace URI past the first, or one that is not a file: URI, is not carried (the first becomes the cwd).",
  },
  {
    code: "cursor_cli.missing-blob",
    kind: "unsupported",
    description: "A blob the tree names and the blobs table does not hold is skipped.",
  },
  {
    code: "cursor_cli.blob-digest",
    kind: "other",
    description: "A blob whose bytes do not hash (SHA-256) to its id is read anyway, and named.",
  },
  {
    code: "cursor_cli.message-times",
    kind: "degraded",
    description: "Messages carry no time; each takes the chat's createdAt.",
  },
  {
    code: "cursor_cli.created-at",
    kind: "degraded",
    description: "A chat without a usable createdAt takes the Unix epoch as its time.",
  },
  {
    code: "cursor_cli.role",
    kind: "unsupported",
    description: "A message whose role is not system, user, assistant or tool is dropped.",
  },
  {
    code: "cursor_cli.message-field",
    kind: "bookkeeping",
    description:
      "A message key other than role and content (id, providerOptions, ...) is not carried.",
  },
  {
    code: "cursor_cli.part",
    kind: "unsupported",
    description:
      "A content part other than text, reasoning, tool-call and tool-result (images, files, ...) is dropped.",
  },
  {
    code: "cursor_cli.part-field",
    kind: "bookkeeping",
    description:
      "A content-part key that is not mapped (providerOptions, experimental_content, a tool result's differing toolName, ...) is not carried.",
  },
  {
    code: "cursor_cli.call-id",
    kind: "degraded",
    description: "A tool call or result without an id is given one (cursor-call-<n>).",
  },
  // Writing txcript's document.
  {
    code: "cursor_cli.subagents",
    kind: "unsupported",
    description: "Subagent conversations are not written.",
  },
  { code: "cursor_cli.image", kind: "unsupported", description: "Images are not written." },
  {
    code: "cursor_cli.compaction",
    kind: "degraded",
    description: "A compaction marker is written as text of its summary.",
  },
  {
    code: "cursor_cli.thinking-extras",
    kind: "unsupported",
    description: "A thinking block's signature, encrypted content and provider are not written.",
  },
  {
    code: "cursor_cli.message-meta",
    kind: "unsupported",
    description: "A message's model, stop reason and usage are not written.",
  },
  {
    code: "cursor_cli.timestamps",
    kind: "degraded",
    description: "Message times are not written; every message reads back at the chat's time.",
  },
  {
    code: "cursor_cli.split",
    kind: "degraded",
    description:
      "A message holding tool results and other blocks is written as several messages (results become a tool message).",
  },
  {
    code: "cursor_cli.context",
    kind: "degraded",
    description:
      "A context message is written as a system message of its text (kind, source and role become system/user; other blocks are dropped).",
  },
  {
    code: "cursor_cli.session-meta",
    kind: "unsupported",
    description: "The session's git branch, CLI version and lineage are not written.",
  },
  {
    code: "cursor_cli.cwd",
    kind: "unsupported",
    description: "A cwd that is not an absolute path is not written.",
  },
] as const satisfies readonly Loss[];

type Code = (typeof cursorCliLosses)[number]["code"];

/** The loss with this code. */
export function cursorCliLoss(code: Code): Loss {
  return cursorCliLosses.find((loss) => loss.code === code) as Loss;
}
