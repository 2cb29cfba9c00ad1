import {
  ChangeDetectionStrategy,
  Component,
  computed,
  effect,
  inject,
  output,
  signal,
  untracked,
} from '@angular/core';
import { StartInstructions } from '../../../../contract/library';
import { modeLabel } from '../../shared/mode-label';
import { ConversationStore } from '../conversation-store';
import { toolsByName } from '../timeline/conversation-index';

const SHOWN_PER_TOOL = 40;

/** An MCP server's state as the agent reports it at start; a state it adds later shows as is. */
const MCP_STATES: Record<string, string> = {
  connected: $localize`:MCP server state:connected`,
  failed: $localize`:MCP server state:failed`,
  'needs-auth': $localize`:MCP server state:needs sign-in`,
  pending: $localize`:MCP server state:pending`,
};

/** The component's words, in the console's language. */
const TEXT = {
  steering: $localize`Steering`,
  indexingTheConversation: $localize`Indexing the conversation…`,
  context: $localize`Context`,
  model: $localize`Model`,
  workingDir: $localize`Working dir`,
  mode: $localize`Mode`,
  tools: $localize`Tools`,
  mcpServers: $localize`MCP servers`,
  none: $localize`none`,
  noInstructions: $localize`:instructions|No instructions given:none`,
  startedBeforeRelaisAn: $localize`Started before Relais: an imported transcript has no context line.`,
  codexSendsNoContext: $localize`Codex sends no context line: its model, mode and folder are in the page's header.`,
  noContextYetThe: $localize`No context yet (the agent has not started a turn).`,
  instructionsItStartedWith: $localize`Instructions it started with`,
  instructions: $localize`Instructions`,
  common: $localize`Common:`,
  subscription: $localize`Subscription:`,
  leftOut: (scope: unknown) => $localize`Left out (${scope}:scope:):`,
  goToTurn: $localize`Go to turn`,
  toolCalls: $localize`Tool calls`,
  callsNewestFirst: (tool: unknown) => $localize`${tool}:tool: calls, newest first`,
  noToolCallsYet: $localize`No tool calls yet.`,
  of: (turns: unknown) => $localize`of ${turns}:turns:`,
  go: $localize`Go`,
};

/** Jumps: to the session's context, to turn N, to any tool call (grouped by tool). */
@Component({
  selector: 'app-steering-panel',
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './steering-panel.html',
  styleUrl: './steering-panel.scss',
})
export class SteeringPanel {
  protected readonly t = TEXT;

  protected mcpState(state: string): string {
    return Object.hasOwn(MCP_STATES, state) ? MCP_STATES[state]! : state;
  }
  private readonly store = inject(ConversationStore);
  readonly jump = output<number>();

  protected readonly index = this.store.index;
  protected readonly indexing = this.store.indexing;
  protected readonly turnInput = signal('');
  protected readonly openTool = signal<string | null>(null);
  protected readonly groups = computed(() => toolsByName(this.index().tools));
  protected readonly openCalls = computed(() => {
    const name = this.openTool();
    const calls = this.groups().find((group) => group.name === name)?.calls ?? [];
    return calls.slice(-SHOWN_PER_TOOL).reverse();
  });
  protected readonly init = computed(() => this.index().init);
  protected readonly imported = computed(() => this.store.session()?.origin === 'imported');
  /** Codex's app server sends no context line of Claude's kind (model, folder, tools). */
  protected readonly codex = computed(() => this.store.session()?.agent === 'codex');
  /** The Relais mode of the session, not the agent's internal permission mode. */
  protected readonly modeText = computed(() => {
    const session = this.store.session();
    return session ? modeLabel(session.permission_mode) : null;
  });

  /** The permanent instructions the session started with, from its first event. */
  protected readonly instructions = signal<StartInstructions | null>(null);
  private readonly sessionId = computed(() => this.store.session()?.id ?? null);

  constructor() {
    effect(() => {
      const id = this.sessionId();
      if (!id) return;
      void untracked(() => this.store.openingEvents())
        .then((events) => {
          const created = events.find(
            (e) => (e.data as { subtype?: unknown } | null)?.subtype === 'session_created',
          );
          const parsed = StartInstructions.safeParse(
            (created?.data as { instructions?: unknown } | undefined)?.instructions,
          );
          this.instructions.set(parsed.success ? parsed.data : null);
        })
        .catch(() => this.instructions.set(null));
    });
  }

  protected goToTurn(): void {
    const turn = Number.parseInt(this.turnInput(), 10);
    const entry = this.index().turns[turn - 1];
    if (entry) this.jump.emit(entry.seq);
  }

  protected toggleTool(name: string): void {
    this.openTool.update((current) => (current === name ? null : name));
  }
}
