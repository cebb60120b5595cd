// Subagents in a capture: Claude Code streams a Task subagent's user and
// assistant lines with `parent_tool_use_id` set to the spawning call's id
// [claude-sdk]. Reading collects them per parent id into Common subagents
// (id = toolUseId = that call id, in order of first appearance) and nests a
// subagent under the subagent whose lines hold its call; writing plans
// which subagents a capture can hold exactly and names every change.
import type { Block, Message, Subagent } from "@txcript/core";

/** The tool_use ids of some messages. */
export function callIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages)
    for (const block of message.content as Block[])
      if (block.type === "tool_use") ids.add(block.id);
  return ids;
}

interface Node {
  key: string;
  messages: Message[];
  children: Node[];
}

/**
 * The reading rule: each parent id (in order of first appearance) is a
 * top-level subagent when its call is in the main conversation or in no
 * other subagent; else it nests under the first other subagent whose
 * messages hold its call (a cycle is broken by making its first member
 * top-level).
 */
export function nestSubagents(
  flat: readonly { key: string; messages: Message[] }[],
  mainCalls: ReadonlySet<string>,
): Subagent[] {
  const calls = flat.map((entry) => callIds(entry.messages));
  const parent = flat.map((entry, index): number | undefined => {
    if (mainCalls.has(entry.key)) return undefined;
    const found = calls.findIndex((ids, other) => other !== index && ids.has(entry.key));
    return found === -1 ? undefined : found;
  });
  for (let index = 0; index < flat.length; index += 1) {
    const seen = new Set<number>([index]);
    for (let up = parent[index]; up !== undefined; up = parent[up]) {
      if (seen.has(up)) {
        parent[index] = undefined;
        break;
      }
      seen.add(up);
    }
  }
  const nodes: Node[] = flat.map((entry) => ({ ...entry, children: [] }));
  const roots: Node[] = [];
  nodes.forEach((node, index) => {
    const up = parent[index];
    if (up === undefined) roots.push(node);
    else (nodes[up] as Node).children.push(node);
  });
  const toSubagent = (node: Node): Subagent => {
    const subagent: Subagent = { id: node.key, toolUseId: node.key, messages: node.messages };
    if (node.children.length > 0) subagent.subagents = node.children.map(toSubagent);
    return subagent;
  };
  return roots.map(toSubagent);
}

/** One subagent the writer writes: its lines get `parent_tool_use_id: toolUseId`. */
export interface PlannedSubagent {
  toolUseId: string;
  messages: Message[];
  /** JSON path of the subagent, for loss reports. */
  path: string;
}

/** The shape of a subagent tree: ids and nesting only. */
function shape(subagents: readonly Subagent[]): unknown[] {
  return subagents.map((subagent) => [subagent.id, shape(subagent.subagents ?? [])]);
}

/**
 * The subagents a capture can hold (depth-first, in Common order): each
 * linked to a call, with messages, the first with its call id; and every
 * change reported through `lost` (what is dropped, an id that becomes its
 * call's, title/agentType/model, a nesting that reads back otherwise).
 * `mainCalls`: the main conversation's call ids (only those among the
 * subagents' toolUseIds matter, so a stream writer keeps just those).
 */
export function planSubagents(
  subagents: readonly Subagent[],
  mainCalls: ReadonlySet<string>,
  lost: (message: string, path: string) => void,
): PlannedSubagent[] {
  const planned: PlannedSubagent[] = [];
  const used = new Set<string>();
  const walk = (list: readonly Subagent[], prefix: string) => {
    if (list.length === 0) lost("an empty subagent list reads back as none", prefix);
    list.forEach((subagent, index) => {
      const path = `${prefix}[${index}]`;
      const { toolUseId } = subagent;
      if (toolUseId === undefined) lost("a subagent linked to no call was not written", path);
      else if (used.has(toolUseId)) lost("a second subagent of one call was not written", path);
      else if (subagent.messages.length === 0)
        lost("a subagent without messages was not written", path);
      else {
        used.add(toolUseId);
        planned.push({ toolUseId, messages: subagent.messages, path });
        if (subagent.id !== toolUseId) lost("a subagent's id became its call's id", path);
        if (
          subagent.title !== undefined ||
          subagent.agentType !== undefined ||
          subagent.model !== undefined
        )
          lost("a subagent's title, agent type or model was not written", path);
      }
      if (subagent.subagents !== undefined) walk(subagent.subagents, `${path}.subagents`);
    });
  };
  walk(subagents, "$.subagents");
  const read = nestSubagents(
    planned.map((entry) => ({ key: entry.toolUseId, messages: entry.messages })),
    mainCalls,
  );
  if (JSON.stringify(shape(read)) !== JSON.stringify(shape(subagents)))
    lost("the subagents read back nested otherwise", "$.subagents");
  return planned;
}
