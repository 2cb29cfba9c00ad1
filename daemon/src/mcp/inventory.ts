import type { McpServer } from '../../../contract/mcp.js';
import type { McpInventory } from '../agents/mcp-launch.js';
import { listMcpTools, type SkippedTool, type StdioPlace } from './list-tools.js';
import { cleanListingReason } from './listing-reasons.js';

export interface InventoryResult {
  inventory: McpInventory;
  /** Why a server could not be listed, by server name. */
  errors: Record<string, string>;
  /** Tools a server offered under a name off the tool-name rule, by server name. */
  skipped: Record<string, SkippedTool[]>;
}

/** Lists every server of a launch at once; one that fails is null (then the agent gets none of it). */
export async function mcpInventory(
  servers: Record<string, McpServer>,
  place: StdioPlace,
): Promise<InventoryResult> {
  const inventory: McpInventory = {};
  const errors: Record<string, string> = {};
  const skipped: Record<string, SkippedTool[]> = {};
  await Promise.all(
    Object.entries(servers).map(async ([name, spec]) => {
      try {
        // Skipped tools (a name off the rule) are never named to the agent; the gate refuses them.
        const listing = await listMcpTools(spec, place);
        inventory[name] = listing.tools.map((tool) => tool.name);
        if (listing.skipped.length > 0) skipped[name] = listing.skipped;
      } catch (error: unknown) {
        inventory[name] = null;
        errors[name] = cleanListingReason(error);
      }
    }),
  );
  return { inventory, errors, skipped };
}
