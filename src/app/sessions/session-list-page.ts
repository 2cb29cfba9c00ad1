import { registerPageCommands } from '../palette/page-commands';
import { sessionName, shortId } from './session-name';
import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatSelectModule } from '@angular/material/select';
import { RouterLink } from '@angular/router';
import { Session, SessionState } from '../../../contract/api';
import { LiveStore } from '../core/live-store';
import { QuotaCards } from '../quotas/quota-cards';
import { Now } from '../shared/now';
import { StateChip } from '../shared/state-chip';
import { shortDuration } from '../shared/time-format';

interface Row {
  session: Session;
  name: string;
  shortId: string;
  age: string;
  left: string;
}

const STATES: readonly SessionState[] = [
  'starting',
  'idle',
  'working',
  'waiting',
  'stopping',
  'ended',
];

/** The live dashboard: every session from the global stream, filterable, no polling. */
@Component({
  selector: 'app-session-list-page',
  imports: [
    RouterLink,
    MatButtonModule,
    MatFormFieldModule,
    MatSelectModule,
    StateChip,
    QuotaCards,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './session-list-page.html',
  styleUrl: './session-list-page.scss',
})
export class SessionListPage {
  protected readonly live = inject(LiveStore);
  private readonly now = inject(Now);

  protected readonly states = STATES;
  protected readonly stateFilter = signal<string>('');
  protected readonly subscriptionFilter = signal<string>('');
  protected readonly appFilter = signal<string>('');

  protected readonly subscriptions = computed(() =>
    distinct(this.live.sessions().map((s) => s.subscription_id)),
  );
  protected readonly apps = computed(() => distinct(this.live.sessions().map((s) => s.app)));

  protected readonly filtered = computed(() => {
    const state = this.stateFilter();
    const subscription = this.subscriptionFilter();
    const app = this.appFilter();
    return this.live
      .sessions()
      .filter(
        (s) =>
          (!state || s.state === state) &&
          (!subscription || s.subscription_id === subscription) &&
          (!app || s.app === app),
      );
  });

  protected readonly rows = computed<Row[]>(() => {
    const now = this.now.ms();
    return this.filtered().map((session) => ({
      session,
      name: sessionName(session),
      shortId: shortId(session.id),
      age: shortDuration(now - Date.parse(session.created_at)),
      left: session.state === 'ended' ? '—' : shortDuration(Date.parse(session.deadline_at) - now),
    }));
  });

  constructor() {
    registerPageCommands(() => [
      {
        id: 'sessions-clear',
        group: 'Sessions',
        label: 'Clear the session filters',
        keywords: 'reset filter',
        run: () => this.clearFilters(),
      },
      ...this.states.map((state) => ({
        id: 'sessions-state-' + state,
        group: 'Sessions',
        label: `Show only ${state} sessions`,
        keywords: 'filter state',
        run: () => this.stateFilter.set(state),
      })),
    ]);
  }

  protected clearFilters(): void {
    this.stateFilter.set('');
    this.subscriptionFilter.set('');
    this.appFilter.set('');
  }
}

function distinct(values: string[]): string[] {
  return [...new Set(values)].sort();
}
