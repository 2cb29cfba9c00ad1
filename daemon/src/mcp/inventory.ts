import type { McpServer } from '../../../contract/mcp.js';
import type { McpInventory } from '../agents/mcp-launch.js';
import { listMcpTools, type StdioPlace } from './list-tools.js';

export interface InventoryResult {
  inventory: McpInventory;
  /** Why a server could not be listed, by server name. */
  errors: Record<string, string>;
}

/** Lists every server of a launch at once; one that fails is null (then the agent gets none of it). */
export async function mcpInventory(
  servers: Record<string, McpServer>,
  place: StdioPlace,
): Promise<InventoryResult> {
  const inventory: McpInventory = {};
  const errors: Record<string, string> = {};
  await Promise.all(
    Object.entries(servers).map(async ([name, spec]) => {
      try {
        inventory[name] = (await listMcpTools(spec, place)).map((tool) => tool.name);
      } catch (error: unknown) {
        inventory[name] = null;
        errors[name] = error instanceof Error ? error.message : String(error);
      }
    }),
  );
  return { inventory, errors };
}
