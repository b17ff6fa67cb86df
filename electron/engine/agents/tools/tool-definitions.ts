// The client tools the agent is given (Anthropic's schema-defined bash and text editor) and the dispatch from a tool_use name to its executor.
import type { ToolBash20250124, ToolTextEditor20250728 } from '@anthropic-ai/sdk/resources/messages';
import { BASH_TOOL_NAME } from './bash-tool';
import type { BashSession } from './bash-tool';
import { EDIT_TOOL_NAME, runEditTool } from './edit-tool';
import type { ToolOutcome } from './tool-replies';

export type AgentTool = ToolBash20250124 | ToolTextEditor20250728;

/** Sent as `tools` on every request; the input schemas are built into the model, so there are none here. */
export const AGENT_TOOLS: AgentTool[] = [
  { type: 'bash_20250124', name: BASH_TOOL_NAME },
  { type: 'text_editor_20250728', name: EDIT_TOOL_NAME },
];

export interface ToolContext {
  /** The worktree root; every path the tools touch stays inside it. */
  root: string;
  bash: BashSession;
  signal?: AbortSignal;
  /** Bound on text-editor `view` output; defaults to the editor's own limit. */
  maxCharacters?: number;
}

/** Runs the tool the model asked for. Never throws: failures, unknown names included, come back as error results. */
export async function runTool(name: string, input: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  if (ctx.signal?.aborted) return { content: `The ${name} call was not run: the run was aborted.`, isError: true };
  try {
    switch (name) {
      case BASH_TOOL_NAME:
        return await ctx.bash.run(input, ctx.signal);
      case EDIT_TOOL_NAME:
        return await runEditTool(ctx.root, input, { maxCharacters: ctx.maxCharacters });
      default: {
        const known = AGENT_TOOLS.map((t) => t.name).join(', ');
        return { content: `Unknown tool ${JSON.stringify(name)}; the available tools are ${known}.`, isError: true };
      }
    }
  } catch (err) {
    return { content: `The ${name} tool failed: ${err instanceof Error ? err.message : String(err)}`, isError: true };
  }
}
