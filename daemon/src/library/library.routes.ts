import {
  Instructions,
  InstructionsList,
  InstructionsPut,
  LibraryCreate,
  LibraryItem,
  LibraryList,
  LibraryPatch,
  LibraryQuery,
} from '../../../contract/library.js';
import { apiError } from '../http/errors.js';
import { IdParams, type RouteTable } from '../http/route.js';
import type { SubscriptionRepo } from '../subscriptions/subscription-repo.js';
import type { InstructionsRepo } from './instructions-repo.js';
import type { LibraryRepo } from './library-repo.js';
import type { LibraryService } from './library-service.js';

export interface LibraryRoutesDeps {
  repo: LibraryRepo;
  service: LibraryService;
  instructions: InstructionsRepo;
  subscriptions: SubscriptionRepo;
}

const tag = 'library';

/** The library's items (skills and commands) and the permanent instructions. */
export function libraryRoutes(table: RouteTable, deps: LibraryRoutesDeps): void {
  libraryListRoutes(table, deps);
  libraryItemRoutes(table, deps);
  instructionsRoutes(table, deps);
}

function libraryListRoutes(table: RouteTable, { repo, service }: LibraryRoutesDeps): void {
  table.add({
    method: 'GET',
    url: '/api/library',
    tag,
    summary: 'Skills and commands (a subscription filter gives its own and the common ones)',
    query: LibraryQuery,
    response: LibraryList,
    handler: ({ query }) => ({
      items: repo.list({
        ...(query.kind ? { kind: query.kind } : {}),
        ...(query.subscription_id ? { subscriptionId: query.subscription_id } : {}),
      }),
      next_cursor: null,
    }),
  });

  table.add({
    method: 'POST',
    url: '/api/library',
    tag,
    summary: 'Write or import a skill or a command; it is placed where the agents read it',
    status: 201,
    errors: [409],
    body: LibraryCreate,
    response: LibraryItem,
    handler: ({ body }) => service.create(body),
  });
}

function libraryItemRoutes(table: RouteTable, { repo, service }: LibraryRoutesDeps): void {
  table.add({
    method: 'GET',
    url: '/api/library/:id',
    tag,
    summary: 'One library item',
    errors: [404],
    params: IdParams,
    response: LibraryItem,
    handler: ({ params }) => repo.get(params.id),
  });

  table.add({
    method: 'PATCH',
    url: '/api/library/:id',
    tag,
    summary: 'Rename, move, enable or disable, or edit an item',
    errors: [404, 409],
    params: IdParams,
    body: LibraryPatch,
    response: LibraryItem,
    handler: ({ params, body }) => service.update(params.id, body),
  });

  table.add({
    method: 'DELETE',
    url: '/api/library/:id',
    tag,
    summary: 'Delete an item (its placed file goes too)',
    status: 204,
    errors: [404],
    params: IdParams,
    handler: ({ params }) => service.remove(params.id),
  });
}

function instructionsRoutes(
  table: RouteTable,
  { instructions, subscriptions }: LibraryRoutesDeps,
): void {
  table.add({
    method: 'GET',
    url: '/api/instructions',
    tag,
    summary: 'Permanent instructions: common, and per subscription',
    response: InstructionsList,
    handler: () => ({ items: instructions.list() }),
  });

  table.add({
    method: 'PUT',
    url: '/api/instructions',
    tag,
    summary: 'Set the instructions of a scope; appended to the system prompt of new sessions only',
    errors: [400],
    body: InstructionsPut,
    response: Instructions,
    handler: ({ body }) => {
      if (body.scope !== 'common' && !subscriptions.get(body.scope))
        throw apiError(
          'unknown_subscription',
          `The scope is "common" or a subscription id; ${body.scope} is neither.`,
        );
      return instructions.put(body.scope, body.text);
    },
  });
}
