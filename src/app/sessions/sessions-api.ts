import { Injectable, inject } from '@angular/core';
import * as z from 'zod';
import {
  EventsPage,
  SessionEvent,
  isSessionEvent,
  ImportReport,
  MessageResult,
  Outline,
  QueueEntry,
  Session,
  SessionLaunch,
  SessionResume,
  listOf,
} from '../../../contract/api';
import { McpEndpoint, McpToolInfo, McpToolList } from '../../../contract/mcp';
import { ApiClient } from '../core/api-client';
import { shareRepeatedOutput } from '../conversation/timeline/repeated-output';
import { RECENT_SESSIONS } from './recent-sessions';

const QueueList = listOf(QueueEntry);
const SessionList = listOf(Session);
/** A page of events, each checked by the contract's own rule without being copied (isSessionEvent). */
const CheckedEventsPage = EventsPage.extend({
  items: z.array(z.custom<SessionEvent>(isSessionEvent, 'not a session event')),
});

export interface SessionFilters {
  state?: string;
  subscription?: string;
  app?: string;
  origin?: string;
}

export interface EventsRange {
  after?: number;
  before?: number;
  limit?: number;
  /** Texts longer than this come cut, their event marked `clipped`. */
  clip?: number;
}

/** The sessions resource of the daemon: launch, read, steer, queue. */
@Injectable({ providedIn: 'root' })
export class SessionsApi {
  private readonly api = inject(ApiClient);

  list(filters: SessionFilters = {}, limit = RECENT_SESSIONS): Promise<Session[]> {
    const params: Record<string, string> = { limit: String(limit) };
    for (const [name, value] of Object.entries(filters)) if (value) params[name] = value;
    return this.api.read('/api/sessions', SessionList, params).then((page) => page.items);
  }

  /** Names a session (null removes the name). */
  rename(id: string, title: string | null): Promise<Session> {
    return this.api.write('PATCH', this.base(id), Session, { title });
  }

  get(id: string): Promise<Session> {
    return this.api.read(this.base(id), Session);
  }

  /** The session when the page's early reads already hold it (see ApiClient.readArrived). */
  getArrived(id: string): Session | undefined {
    return this.api.readArrived(this.base(id), Session);
  }

  async events(id: string, range: EventsRange): Promise<EventsPage> {
    const page = await this.api.read(
      `${this.base(id)}/events`,
      CheckedEventsPage,
      rangeQuery(range),
    );
    page.items.forEach(shareRepeatedOutput);
    return page;
  }

  /** The events page when the page's early reads already hold it (see ApiClient.readArrived). */
  eventsArrived(id: string, range: EventsRange): EventsPage | undefined {
    const path = `${this.base(id)}/events`;
    const page = this.api.readArrived(path, CheckedEventsPage, rangeQuery(range));
    page?.items.forEach(shareRepeatedOutput);
    return page;
  }

  /** Where to jump in a conversation: its context line, turns and tool calls (built by the daemon). */
  outline(id: string, slice: { after?: number; before?: number } = {}): Promise<Outline> {
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(slice))
      if (value !== undefined) params[name] = String(value);
    return this.api.read(`${this.base(id)}/outline`, Outline, params);
  }

  queue(id: string): Promise<QueueEntry[]> {
    return this.api.read(`${this.base(id)}/queue`, QueueList).then((page) => page.items);
  }

  /** The tools an MCP server offers (the daemon connects to it), for the launch form. */
  mcpTools(server: McpEndpoint): Promise<McpToolInfo[]> {
    return this.api.write('POST', '/api/mcp/tools', McpToolList, { server }).then((r) => r.tools);
  }

  launch(body: SessionLaunch): Promise<Session> {
    return this.api.write('POST', '/api/sessions', Session, body);
  }

  /** A live session continuing an imported conversation. */
  resume(id: string, body: SessionResume = {}): Promise<Session> {
    return this.api.write('POST', `${this.base(id)}/resume`, Session, body);
  }

  /** Rescans a subscription's own transcripts. */
  importHistory(subscriptionId: string): Promise<ImportReport> {
    return this.api.write(
      'POST',
      `/api/subscriptions/${encodeURIComponent(subscriptionId)}/import`,
      ImportReport,
      {},
    );
  }

  stop(id: string): Promise<Session> {
    return this.api.write('POST', `${this.base(id)}/stop`, Session, {});
  }

  interrupt(id: string): Promise<Session> {
    return this.api.write('POST', `${this.base(id)}/interrupt`, Session, {});
  }

  extend(id: string, seconds: number): Promise<Session> {
    return this.api.write('POST', `${this.base(id)}/heartbeat`, Session, {
      extend_seconds: seconds,
    });
  }

  send(id: string, text: string): Promise<MessageResult> {
    return this.api.write('POST', `${this.base(id)}/messages`, MessageResult, { text });
  }

  /** Steer now: into the running turn (Codex), or the turn interrupted and this sent next (Claude). */
  steer(id: string, text: string): Promise<MessageResult> {
    return this.api.write('POST', `${this.base(id)}/steer`, MessageResult, { text });
  }

  steerQueued(id: string, entryId: string): Promise<MessageResult> {
    return this.api.write(
      'POST',
      `${this.base(id)}/queue/${encodeURIComponent(entryId)}/steer`,
      MessageResult,
      {},
    );
  }

  reorderQueue(id: string, ids: string[]): Promise<QueueEntry[]> {
    return this.api
      .write('PUT', `${this.base(id)}/queue`, QueueList, { ids })
      .then((page) => page.items);
  }

  deleteQueued(id: string, entryId: string): Promise<void> {
    return this.api.remove(`${this.base(id)}/queue/${encodeURIComponent(entryId)}`);
  }

  clearQueue(id: string): Promise<void> {
    return this.api.remove(`${this.base(id)}/queue`);
  }

  private base(id: string): string {
    return `/api/sessions/${encodeURIComponent(id)}`;
  }
}

function rangeQuery(range: EventsRange): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(range))
    if (value !== undefined) params[name] = String(value);
  return params;
}
