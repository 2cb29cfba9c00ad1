import { registerPageCommands } from '../palette/page-commands';
import { LatestAsk } from '../shared/latest-ask';
import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { PageLink } from '../core/routing/page-link';
import { Diagnostics } from '../../../contract/operations';
import { DiagnosticsApi } from './diagnostics-api';
import { ApiFailure, toApiFailure } from '../core/api-error';
import { Now } from '../shared/now';
import { stateLabel } from '../shared/state-label';
import { elapsed } from '../shared/time-format';
import { formatBytes } from '../shared/bytes';
import { SubscriptionHealthList } from '../subscriptions/subscription-health-list';
import { LogViewer } from './log-viewer';
import { VersionCards } from './version-cards';

/** The component's words, in the console's language. */
const TEXT = {
  diagnostics: $localize`Diagnostics`,
  refresh: $localize`Refresh`,
  theDiagnosticsCouldNot: (message: unknown, code: unknown) =>
    $localize`The diagnostics could not be loaded: ${message}:message: (${code}:code:)`,
  retry: $localize`Retry`,
  engine: $localize`Engine`,
  nodeJs: $localize`Node.js`,
  notInstalled: $localize`not installed`,
  process: $localize`Process`,
  port: $localize`Port`,
  uptime: $localize`Uptime`,
  memory: $localize`Memory`,
  dataFolder: $localize`Data folder`,
  containment: $localize`Containment`,
  aCgroupPerSession: $localize`A cgroup per session`,
  processGroupAndTag: $localize`Process group and tag only (weaker)`,
  isolation: $localize`Isolation`,
  offRelaisIsolationOff: $localize`Off (RELAIS_ISOLATION=off): commands run unconfined`,
  unavailable: (problem: unknown) => $localize`Unavailable: ${problem}:problem:`,
  activeAgents: $localize`Active agents`,
  noAgentIsRunning: $localize`No agent is running.`,
  openSession: $localize`Open session`,
  pid: (pid: unknown, state: unknown) => $localize`pid ${pid}:pid: · ${state}:state:`,
  sessionsByState: $localize`Sessions by state`,
  noSessionYet: $localize`No session yet.`,
  database: $localize`Database`,
  databaseFile: $localize`Database file`,
  writeAheadLog: $localize`Write-ahead log`,
  storageDetails: $localize`Storage details`,
  loadingDiagnostics: $localize`Loading diagnostics…`,
};

/** The daemon at a glance, its agents' versions, its subscriptions' health and its logs. */
@Component({
  selector: 'app-diagnostics-page',
  imports: [PageLink, MatButtonModule, VersionCards, LogViewer, SubscriptionHealthList],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './diagnostics-page.html',
  styleUrl: './diagnostics-page.scss',
})
export class DiagnosticsPage {
  protected readonly t = TEXT;
  protected readonly stateLabel = stateLabel;
  private readonly api = inject(DiagnosticsApi);
  private readonly now = inject(Now);

  protected readonly diagnostics = signal<Diagnostics | null>(null);
  private readonly fetchedAt = signal(0);
  /** A read answered after a newer one (Refresh clicked twice) is not shown. */
  private readonly reading = new LatestAsk();
  protected readonly error = signal<ApiFailure | null>(null);
  protected readonly formatBytes = formatBytes;

  /** Uptime keeps counting between refreshes. */
  protected readonly uptime = computed(() => {
    const d = this.diagnostics();
    return d
      ? elapsed(d.uptime_seconds * 1000 + Math.max(0, this.now.minute() - this.fetchedAt()))
      : '';
  });
  protected readonly states = computed(() =>
    Object.entries(this.diagnostics()?.sessions_by_state ?? {}).map(([state, count]) => ({
      state,
      count,
    })),
  );

  constructor() {
    registerPageCommands(() => [
      {
        id: 'diagnostics-refresh',
        group: $localize`Diagnostics`,
        label: $localize`Refresh the diagnostics`,
        keywords: 'reload health',
        run: () => void this.load(),
      },
    ]);
    void this.load();
  }

  protected async load(): Promise<void> {
    const current = this.reading.ask();
    this.error.set(null);
    try {
      const diagnostics = await this.api.get();
      if (!current()) return;
      this.fetchedAt.set(Date.now());
      this.diagnostics.set(diagnostics);
    } catch (error: unknown) {
      if (current()) this.error.set(toApiFailure(error));
    }
  }
}
