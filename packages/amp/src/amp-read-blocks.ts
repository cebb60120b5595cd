// Amp content blocks → Common blocks (text, thinking, tool_use through
// Amp's tool dialect, tool_result from its run, base64 images). Not the
// messages around them (amp-to-common.ts). A block Common has no kind for
// is skipped and reported through the tally.
import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  ownValue,
  quote,
} from "@txcript/core";
import { countOthers, type LossTally, objectAt, type Site, stringAt } from "./amp-loss-tally.js";
import { ampLoss as losses } from "./amp-losses.js";
import { ampToolToCommon } from "./amp-tools.js";

function errorText(run: JsonObject, status: string): string {
  const error = ownValue(run, "error");
  if (typeof error === "string") return error;
  const message = isJsonObject(error) ? stringAt(error, "message") : undefined;
  return message ?? stringAt(run, "reason") ?? `tool run ${status}`;
}

const runSuffix = ["run"] as const;
const statusSuffix = ["run", "status"] as const;
const sourcePathSuffix = ["sourcePath"] as const;
const doneRunKeys = ["status", "result"] as const;
const failedRunKeys = ["status", "error", "reason"] as const;
const errorKeys = ["message"] as const;

function readToolResult(block: JsonObject, site: Site, tally: LossTally): Block | undefined {
  const toolUseId = stringAt(block, "toolUseID");
  const run = objectAt(block, "run");
  if (toolUseId === undefined || toolUseId === "" || run === undefined) {
    tally.add(losses.unmodeledBlock, "a tool_result without toolUseID or run was skipped", site);
    return undefined;
  }
  const status = stringAt(run, "status") ?? "unknown";
  if (status === "done") {
    const others = countOthers(run, doneRunKeys);
    if (others > 0)
      tally.add(losses.runDetails, "tool-run bookkeeping was not carried", site, others, runSuffix);
    const result = ownValue(run, "result");
    return {
      type: "tool_result",
      toolUseId,
      content: result === undefined ? null : result,
      isError: false,
    };
  }
  if (status !== "error")
    tally.add(
      losses.statusCollapsed,
      `a ${quote(status, 40)} tool run became an error result`,
      site,
      1,
      statusSuffix,
    );
  const error = objectAt(run, "error");
  const details =
    countOthers(run, failedRunKeys) + (error === undefined ? 0 : countOthers(error, errorKeys));
  tally.add(losses.runDetails, "tool-run bookkeeping was not carried", site, details, runSuffix);
  return { type: "tool_result", toolUseId, content: errorText(run, status), isError: true };
}

const blockKeys: Record<string, readonly string[]> = {
  text: ["type", "text"],
  thinking: ["type", "thinking", "signature", "provider", "openAIReasoning"],
  tool_use: ["type", "id", "name", "input"],
  tool_result: ["type", "toolUseID", "run"],
  image: ["type", "source"],
};

export function readBlock(block: Json, site: Site, tally: LossTally): Block | undefined {
  const type = isJsonObject(block) ? stringAt(block, "type") : undefined;
  if (!isJsonObject(block) || type === undefined || !Object.hasOwn(blockKeys, type)) {
    tally.add(
      losses.unmodeledBlock,
      `a ${type === undefined ? "malformed" : quote(type, 40)} block has no Common counterpart`,
      site,
    );
    return undefined;
  }
  const known = blockKeys[type] ?? [];
  if (type !== "image")
    tally.add(
      losses.messageBookkeeping,
      "block bookkeeping was not carried",
      site,
      countOthers(block, known),
    );
  switch (type) {
    case "text": {
      const text = stringAt(block, "text");
      if (text !== undefined) return { type: "text", text };
      break;
    }
    case "thinking": {
      const text = stringAt(block, "thinking") ?? stringAt(block, "text");
      if (text === undefined) break;
      const thinking: Block = { type: "thinking", text };
      const signature = stringAt(block, "signature");
      if (signature !== undefined) thinking.signature = signature;
      const reasoning = objectAt(block, "openAIReasoning");
      const encrypted = stringAt(reasoning, "encryptedContent");
      if (encrypted !== undefined) thinking.encrypted = encrypted;
      const provider = stringAt(block, "provider");
      if (provider !== undefined) thinking.provider = provider;
      if (reasoning !== undefined)
        tally.add(
          losses.messageBookkeeping,
          "block bookkeeping was not carried",
          site,
          countOthers(reasoning, ["encryptedContent"]),
        );
      return thinking;
    }
    case "tool_use": {
      const id = stringAt(block, "id");
      const name = stringAt(block, "name");
      if (id === undefined || id === "" || name === undefined) break;
      const input = ownValue(block, "input");
      return {
        type: "tool_use",
        id,
        tool: ampToolToCommon(name, input === undefined ? {} : input),
      };
    }
    case "tool_result":
      return readToolResult(block, site, tally);
    case "image": {
      const source = objectAt(block, "source");
      const mediaType = stringAt(source, "mediaType");
      const data = stringAt(source, "data");
      if (
        source === undefined ||
        stringAt(source, "type") !== "base64" ||
        !mediaType ||
        data === undefined
      )
        break;
      if (Object.hasOwn(block, "sourcePath"))
        tally.add(
          losses.imageSourcePath,
          "an image's sourcePath was not carried",
          site,
          1,
          sourcePathSuffix,
        );
      const extra =
        countOthers(block, ["type", "source", "sourcePath"]) +
        countOthers(source, ["type", "mediaType", "data"]);
      tally.add(losses.messageBookkeeping, "block bookkeeping was not carried", site, extra);
      return { type: "image", source: { type: "base64", mediaType, data } };
    }
  }
  tally.add(
    losses.unmodeledBlock,
    `a ${quote(type, 40)} block without its required fields was skipped`,
    site,
  );
  return undefined;
}
