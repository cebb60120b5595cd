// The Claude Code normalization of a Common transcript, as code: what
// toCommon(parse(serialize(fromCommon(c)))) equals, stated from
// docs/formats/claude-code.md ("The normalization (claudeCodeProject) and
// every loss") and written apart from the writer, so the law suite checks
// the one against the other. Conversations (the main one and each
// subagent's) follow claude-code-project-conversation.ts.
import type { Meta, Subagent, Transcript } from "@txcript/core";
import { claudeSessionId } from "./claude-code-paths.js";
import { projectConversation } from "./claude-code-project-conversation.js";

export { missingResultText } from "./claude-code-written.js";

function projectMeta(meta: Meta, messages: Transcript["messages"]): Meta {
  const projected: Meta = { id: claudeSessionId(meta.id), timestamp: meta.timestamp };
  if (meta.cwd !== undefined) projected.cwd = meta.cwd;
  if (meta.gitBranch !== undefined && meta.gitBranch !== "") projected.gitBranch = meta.gitBranch;
  if (meta.title !== undefined) projected.title = meta.title;
  if (meta.cliVersion !== undefined) projected.cliVersion = meta.cliVersion;
  // The session model is the first assistant model, whatever meta said.
  const model = messages.find(
    (message) => message.role === "assistant" && message.model !== undefined,
  )?.model;
  if (model !== undefined) projected.model = model;
  if (meta.lineage !== undefined) projected.lineage = meta.lineage;
  return projected;
}

/**
 * Subagents: each keeps its fields, its conversation is normalized like the
 * main one, a repeated id becomes `<id>-<k>` (the first free k from 2),
 * and an empty list of subagents reads back as none.
 */
function projectSubagents(subagents: readonly Subagent[], used: Set<string>): Subagent[] {
  return subagents.map((subagent) => {
    let id = subagent.id;
    if (used.has(id)) {
      let k = 2;
      while (used.has(`${subagent.id}-${k}`)) k += 1;
      id = `${subagent.id}-${k}`;
    }
    used.add(id);
    const projected: Subagent = { id, messages: projectConversation(subagent.messages) };
    if (subagent.toolUseId !== undefined) projected.toolUseId = subagent.toolUseId;
    if (subagent.title !== undefined) projected.title = subagent.title;
    if (subagent.agentType !== undefined) projected.agentType = subagent.agentType;
    if (subagent.model !== undefined) projected.model = subagent.model;
    // Nested ones are numbered after their parent, in the order they are written.
    if (subagent.subagents !== undefined && subagent.subagents.length > 0)
      projected.subagents = projectSubagents(subagent.subagents, used);
    return projected;
  });
}

/** The transcript a Claude Code session written by fromCommon reads back as. */
export function claudeCodeProject(transcript: Transcript): Transcript {
  const messages = projectConversation(transcript.messages);
  const projected: Transcript = { meta: projectMeta(transcript.meta, messages), messages };
  if (transcript.subagents !== undefined && transcript.subagents.length > 0)
    projected.subagents = projectSubagents(transcript.subagents, new Set());
  return projected;
}
