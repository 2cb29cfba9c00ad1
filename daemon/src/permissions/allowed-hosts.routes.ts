import { AllowedHost, AllowedHostParams, listOf } from '../../../contract/api.js';
import { apiError } from '../http/errors.js';
import type { RouteTable } from '../http/route.js';
import type { AllowedHosts } from './allowed-hosts.js';

export function allowedHostRoutes(table: RouteTable, hosts: AllowedHosts): void {
  const tag = 'permissions';
  table.add({
    method: 'GET',
    url: '/api/allowed-hosts',
    tag,
    summary: 'Destinations a person allowed always: commands of every session reach them unasked',
    response: listOf(AllowedHost),
    handler: () => ({ items: hosts.list(), next_cursor: null }),
  });
  table.add({
    method: 'DELETE',
    url: '/api/allowed-hosts/:host/:port',
    tag,
    summary: 'Forget an allowed destination: the next connection to it is a prompt again',
    status: 204,
    errors: [404],
    params: AllowedHostParams,
    handler: ({ params }) => {
      if (!hosts.remove(params.host.toLowerCase(), params.port))
        throw apiError('not_found', 'No such allowed host and port.');
    },
  });
}
