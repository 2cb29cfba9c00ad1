import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { firstValueFrom, map } from 'rxjs';
import * as z from 'zod';
import {
  EventsPage,
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
import { takeEarlyRead } from '../core/early-reads';
import { RECENT_SESSIONS } from './recent-sessions';

const QueueList = listOf(QueueEntry);

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
  private readonly http = inject(HttpClient);

  list(filters: SessionFilters = {}, limit = RECENT_SESSIONS): Promise<Session[]> {
    const params: Record<string, string> = { limit: String(limit) };
    for (const [name, value] of Object.entries(filters)) if (value) params[name] = value;
    return this.read('/api/sessions', listOf(Session), params).then((page) => page.items);
  }

  /** Names a session (null removes the name). */
  rename(id: string, title: string | null): Promise<Session> {
    return firstValueFrom(
      this.http
        .patch(`/api/sessions/${encodeURIComponent(id)}`, { title })
        .pipe(map((body) => Session.parse(body))),
    );
  }

  get(id: string): Promise<Session> {
    return this.read(`/api/sessions/${encodeURIComponent(id)}`, Session);
  }

  events(id: string, range: EventsRange): Promise<EventsPage> {
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(range))
      if (value !== undefined) params[name] = String(value);
    return this.read(`/api/sessions/${encodeURIComponent(id)}/events`, EventsPage, params);
  }

  /** Where to jump in a conversation: its context line, turns and tool calls (built by the daemon). */
  outline(id: string, slice: { after?: number; before?: number } = {}): Promise<Outline> {
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(slice))
      if (value !== undefined) params[name] = String(value);
    return this.read(`/api/sessions/${encodeURIComponent(id)}/outline`, Outline, params);
  }

  queue(id: string): Promise<QueueEntry[]> {
    return this.read(`/api/sessions/${encodeURIComponent(id)}/queue`, QueueList).then(
      (page) => page.items,
    );
  }

  /** The tools an MCP server offers (the daemon connects to it), for the launch form. */
  mcpTools(server: McpEndpoint): Promise<McpToolInfo[]> {
    return this.write('POST', '/api/mcp/tools', McpToolList, { server }).then((r) => r.tools);
  }

  launch(body: SessionLaunch): Promise<Session> {
    return this.write('POST', '/api/sessions', Session, body);
  }

  /** A live session continuing an imported conversation. */
  resume(id: string, body: SessionResume = {}): Promise<Session> {
    return this.write('POST', `${this.base(id)}/resume`, Session, body);
  }

  /** Rescans a subscription's own transcripts. */
  importHistory(subscriptionId: string): Promise<ImportReport> {
    return this.write(
      'POST',
      `/api/subscriptions/${encodeURIComponent(subscriptionId)}/import`,
      ImportReport,
      {},
    );
  }

  stop(id: string): Promise<Session> {
    return this.write('POST', `${this.base(id)}/stop`, Session, {});
  }

  interrupt(id: string): Promise<Session> {
    return this.write('POST', `${this.base(id)}/interrupt`, Session, {});
  }

  extend(id: string, seconds: number): Promise<Session> {
    return this.write('POST', `${this.base(id)}/heartbeat`, Session, { extend_seconds: seconds });
  }

  send(id: string, text: string): Promise<MessageResult> {
    return this.write('POST', `${this.base(id)}/messages`, MessageResult, { text });
  }

  /** Steer now: into the running turn (Codex), or the turn interrupted and this sent next (Claude). */
  steer(id: string, text: string): Promise<MessageResult> {
    return this.write('POST', `${this.base(id)}/steer`, MessageResult, { text });
  }

  steerQueued(id: string, entryId: string): Promise<MessageResult> {
    return this.write(
      'POST',
      `${this.base(id)}/queue/${encodeURIComponent(entryId)}/steer`,
      MessageResult,
      {},
    );
  }

  reorderQueue(id: string, ids: string[]): Promise<QueueEntry[]> {
    return this.write('PUT', `${this.base(id)}/queue`, QueueList, { ids }).then(
      (page) => page.items,
    );
  }

  async deleteQueued(id: string, entryId: string): Promise<void> {
    await firstValueFrom(this.http.delete(`${this.base(id)}/queue/${encodeURIComponent(entryId)}`));
  }

  async clearQueue(id: string): Promise<void> {
    await firstValueFrom(this.http.delete(`${this.base(id)}/queue`));
  }

  private base(id: string): string {
    return `/api/sessions/${encodeURIComponent(id)}`;
  }

  private read<S extends z.ZodType>(
    url: string,
    schema: S,
    params: Record<string, string> = {},
  ): Promise<z.infer<S>> {
    const query = new URLSearchParams(params).toString();
    const early = takeEarlyRead(query ? `${url}?${query}` : url);
    const read = (): Promise<z.infer<S>> =>
      firstValueFrom(this.http.get<unknown>(url, { params }).pipe(map((raw) => schema.parse(raw))));
    if (!early) return read();
    return early.then((body) => {
      const parsed = body === undefined ? null : schema.safeParse(body);
      return parsed?.success ? parsed.data : read();
    });
  }

  private write<S extends z.ZodType>(
    method: 'POST' | 'PUT',
    url: string,
    schema: S,
    body: unknown,
  ): Promise<z.infer<S>> {
    return firstValueFrom(
      this.http.request<unknown>(method, url, { body }).pipe(map((raw) => schema.parse(raw))),
    );
  }
}
