// Renders a synthetic conversation (conversation.mjs) the way each harness
// writes it: an Amp thread document of the local-first CLI (pretty-printed,
// no final newline, with a usageLedger so @ccusage/amp counts it) and an Amp
// `--stream-json` capture of the same run. These are the bench's own writers,
// independent of the codecs under test.

function ampBlock(block) {
  switch (block.type) {
    case "thinking":
      return {
        type: "thinking",
        thinking: block.text,
        signature: block.signature,
        provider: "anthropic",
      };
    case "text":
      return { type: "text", text: block.text };
    default:
      return {
        type: "tool_use",
        complete: true,
        id: block.id,
        name: block.name,
        input: block.input,
      };
  }
}

/** One Amp message object for `messages[messageId]`. */
export function ampMessage(message, messageId) {
  if (message.role === "assistant") {
    return {
      role: "assistant",
      messageId,
      content: message.blocks.map(ampBlock),
      state: { type: "complete", stopReason: message.stopReason },
      usage: {
        model: message.usage.model,
        maxInputTokens: 168000,
        inputTokens: message.usage.inputTokens,
        outputTokens: message.usage.outputTokens,
        cacheCreationInputTokens: message.usage.cacheCreationInputTokens,
        cacheReadInputTokens: message.usage.cacheReadInputTokens,
        totalInputTokens: message.usage.totalInputTokens,
        timestamp: new Date(message.at).toISOString(),
      },
    };
  }
  if (message.kind === "prompt") {
    return {
      role: "user",
      messageId,
      content: [{ type: "text", text: message.text }],
      meta: { sentAt: message.sentAt },
    };
  }
  return {
    role: "user",
    messageId,
    content: message.results.map((result) => ({
      type: "tool_result",
      toolUseID: result.toolUseId,
      run: result.run,
    })),
  };
}

/** Rendered size of one message inside the pretty-printed document (an estimate). */
export function ampMessageSize(message) {
  const text = JSON.stringify(ampMessage(message, 0), null, 2);
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  // Four spaces of nesting per line, the separator, and the usageLedger event of a turn.
  return text.length + 4 * lines + 2 + (message.role === "assistant" ? 300 : 0);
}

/** The thread document text, as the local-first Amp CLI wrote it. */
export function writeAmpThread(conversation) {
  const events = [];
  conversation.messages.forEach((message, index) => {
    if (message.role !== "assistant") return;
    events.push({
      id: `event-${index}`,
      timestamp: new Date(message.at).toISOString(),
      model: message.usage.model,
      credits: Math.round(message.usage.outputTokens * 0.3) / 100,
      tokens: { input: message.usage.inputTokens, output: message.usage.outputTokens },
      operationType: "inference",
      fromMessageId: Math.max(0, index - 1),
      toMessageId: index,
    });
  });
  const document = {
    v: conversation.messages.length * 3 + 1,
    id: conversation.id,
    created: conversation.created,
    title: conversation.title,
    agentMode: "smart",
    nextMessageId: conversation.messages.length,
    env: {
      initial: {
        trees: [
          {
            displayName: conversation.cwd.split("/").pop(),
            uri: `file://${conversation.cwd}`,
            repository: { type: "git", ref: `refs/heads/${conversation.branch}` },
          },
        ],
        platform: { os: "linux", client: "CLI", clientVersion: conversation.clientVersion },
        tags: ["model:" + conversation.model],
      },
    },
    messages: conversation.messages.map(ampMessage),
    usageLedger: { events },
  };
  return JSON.stringify(document, null, 2);
}

/** The `amp -x --stream-json --stream-json-thinking` capture of the same run, one line per message. */
export function* streamJsonLines(conversation) {
  const session = conversation.id;
  yield JSON.stringify({
    type: "system",
    subtype: "init",
    cwd: conversation.cwd,
    session_id: session,
    tools: ["Bash", "Read", "edit_file", "create_file", "glob", "Grep", "finder"],
    mcp_servers: [],
  });
  let turns = 0;
  let last = "";
  for (const message of conversation.messages) {
    if (message.role === "assistant") {
      turns++;
      const content = message.blocks.map((block) => {
        if (block.type === "thinking") return { type: "thinking", thinking: block.text };
        if (block.type === "text") {
          last = block.text;
          return { type: "text", text: block.text };
        }
        return { type: "tool_use", id: block.id, name: block.name, input: block.input };
      });
      yield JSON.stringify({
        type: "assistant",
        message: {
          type: "message",
          role: "assistant",
          content,
          stop_reason: message.stopReason,
          usage: {
            input_tokens: message.usage.inputTokens,
            cache_creation_input_tokens: message.usage.cacheCreationInputTokens,
            cache_read_input_tokens: message.usage.cacheReadInputTokens,
            output_tokens: message.usage.outputTokens,
            max_tokens: 168000,
            service_tier: "standard",
          },
        },
        parent_tool_use_id: null,
        session_id: session,
      });
    } else {
      const content =
        message.kind === "prompt"
          ? [{ type: "text", text: message.text }]
          : message.results.map((result) => {
              const done = result.run.status === "done";
              const value = done ? result.run.result : result.run.error.message;
              return {
                type: "tool_result",
                tool_use_id: result.toolUseId,
                content: typeof value === "string" ? value : JSON.stringify(value),
                is_error: !done,
              };
            });
      yield JSON.stringify({
        type: "user",
        message: { role: "user", content },
        parent_tool_use_id: null,
        session_id: session,
      });
    }
  }
  yield JSON.stringify({
    type: "result",
    subtype: "success",
    duration_ms: conversation.messages.length * 4100,
    is_error: false,
    num_turns: turns,
    result: last,
    session_id: session,
  });
}

export function writeStreamJson(conversation) {
  return `${[...streamJsonLines(conversation)].join("\n")}\n`;
}
