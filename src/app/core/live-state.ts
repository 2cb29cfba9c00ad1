import type { WritableSignal } from '@angular/core';
import type { ImportProgress, PermissionRequest, Session } from '../../../contract/api';
import type { ApiFailure } from './api-error';

export type LiveStatus = 'connecting' | 'live' | 'offline';

/** The live state's signals, written by the store and by its sync (live-sync.ts). */
export interface LiveState {
  sessions: WritableSignal<ReadonlyMap<string, Session>>;
  pending: WritableSignal<ReadonlyMap<string, PermissionRequest>>;
  imports: WritableSignal<ReadonlyMap<string, ImportProgress>>;
  status: WritableSignal<LiveStatus>;
  loaded: WritableSignal<boolean>;
  error: WritableSignal<ApiFailure | null>;
}

/** What the sync needs from the store. */
export interface LiveHost {
  readonly state: LiveState;
  key(): string | null;
  upsertSession(session: Session): void;
  upsertPermission(permission: PermissionRequest): void;
  /** The daemon refused the key. */
  unauthorized(): void;
}
