import {
  Subscription,
  SubscriptionCreate,
  SubscriptionPatch,
  listOf,
} from '../../../contract/api.js';
import { IdParams, type RouteTable } from '../http/route.js';
import type { SubscriptionService } from './subscription-service.js';

const tag = 'subscriptions';

/** The subscriptions: the list and adding one, then what is done to one of them. */
export function subscriptionRoutes(table: RouteTable, service: SubscriptionService): void {
  subscriptionListRoutes(table, service);
  subscriptionItemRoutes(table, service);
  subscriptionActionRoutes(table, service);
}

function subscriptionListRoutes(table: RouteTable, service: SubscriptionService): void {
  table.add({
    method: 'GET',
    url: '/api/subscriptions',
    tag,
    summary: 'All subscriptions, the demo first',
    response: listOf(Subscription),
    handler: () => ({ items: service.list(), next_cursor: null }),
  });
  table.add({
    method: 'POST',
    url: '/api/subscriptions',
    tag,
    summary: 'Add a subscription by naming its configuration folder',
    status: 201,
    body: SubscriptionCreate,
    response: Subscription,
    handler: ({ body }) => service.create(body),
  });
}

function subscriptionItemRoutes(table: RouteTable, service: SubscriptionService): void {
  table.add({
    method: 'GET',
    url: '/api/subscriptions/:id',
    tag,
    summary: 'One subscription',
    errors: [404],
    params: IdParams,
    response: Subscription,
    handler: ({ params }) => service.get(params.id),
  });
  table.add({
    method: 'PATCH',
    url: '/api/subscriptions/:id',
    tag,
    summary: 'Rename or repoint a subscription',
    errors: [404, 409],
    params: IdParams,
    body: SubscriptionPatch,
    response: Subscription,
    handler: ({ params, body }) => service.patch(params.id, body),
  });
  table.add({
    method: 'DELETE',
    url: '/api/subscriptions/:id',
    tag,
    summary: 'Delete a subscription without running sessions',
    status: 204,
    errors: [404, 409],
    params: IdParams,
    handler: ({ params }) => service.delete(params.id),
  });
}

function subscriptionActionRoutes(table: RouteTable, service: SubscriptionService): void {
  table.add({
    method: 'POST',
    url: '/api/subscriptions/:id/retry',
    tag,
    summary: 'Lift a suspension (Retry)',
    errors: [404],
    params: IdParams,
    response: Subscription,
    handler: ({ params }) => service.retry(params.id),
  });
  table.add({
    method: 'POST',
    url: '/api/subscriptions/:id/detect',
    tag,
    summary: 'Read identity and models (no generation)',
    errors: [404],
    params: IdParams,
    response: Subscription,
    handler: ({ params }) => service.detect(params.id),
  });
}
