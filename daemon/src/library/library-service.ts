import type { z } from 'zod';
import type { LibraryCreate, LibraryItem, LibraryPatch } from '../../../contract/library.js';
import type { AgentRegistry } from '../agents/agent.js';
import type { Bounds } from '../fs/fence.js';
import { apiError } from '../http/errors.js';
import type { SubscriptionRepo } from '../subscriptions/subscription-repo.js';
import { importFrom } from './import-path.js';
import type { LibraryRepo } from './library-repo.js';
import { placeLibrary, type PlacedRecord } from './library-placer.js';

export interface LibraryDeps {
  repo: LibraryRepo;
  subscriptions: SubscriptionRepo;
  agents: AgentRegistry;
  /** What an import may not lead to: Relais' data folder, the zero-access circles. */
  bounds: Bounds;
  /** What Relais placed in each configuration folder (its own database, not the folder). */
  placed: PlacedRecord;
}

/** The library's rules: scope checks, imports, and placing the files after every change. */
export class LibraryService {
  constructor(private readonly deps: LibraryDeps) {}

  async create(body: z.output<typeof LibraryCreate>): Promise<LibraryItem> {
    this.checkScope(body.subscription_id);
    const imported =
      body.import_path === undefined
        ? null
        : await importFrom(body.kind, body.import_path, this.deps.bounds);
    const item = this.deps.repo.insert({
      kind: body.kind,
      name: body.name ?? imported?.name ?? '',
      subscription_id: body.subscription_id,
      enabled: body.enabled,
      content: imported?.content ?? body.content ?? '',
    });
    this.place();
    return item;
  }

  update(id: string, change: z.output<typeof LibraryPatch>): LibraryItem {
    if (change.subscription_id !== undefined) this.checkScope(change.subscription_id);
    const item = this.deps.repo.update(id, {
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.subscription_id === undefined ? {} : { subscription_id: change.subscription_id }),
      ...(change.enabled === undefined ? {} : { enabled: change.enabled }),
      ...(change.content === undefined ? {} : { content: change.content }),
    });
    this.place();
    return item;
  }

  remove(id: string): void {
    this.deps.repo.remove(id);
    this.place();
  }

  /**
   * Every subscription's folder made to hold exactly its enabled items (at each change and each
   * launch). A folder that cannot be written is reported, not thrown: the stored item stays, and
   * the next change or launch places it again.
   */
  place(onlySubscription?: string): string[] {
    const items = this.deps.repo.list();
    const failures: string[] = [];
    for (const subscription of this.deps.subscriptions.all()) {
      if (onlySubscription !== undefined && subscription.id !== onlySubscription) continue;
      try {
        const layout = this.deps.agents.get(subscription.agent).libraryLayout;
        placeLibrary(subscription.config_dir, layout, items, subscription.id, this.deps.placed);
      } catch (error: unknown) {
        failures.push(
          `${subscription.id}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    return failures;
  }

  private checkScope(subscriptionId: string | null): void {
    if (subscriptionId !== null && !this.deps.subscriptions.get(subscriptionId))
      throw apiError('unknown_subscription', `No subscription has the id ${subscriptionId}.`);
  }
}
