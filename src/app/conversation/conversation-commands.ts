import { Signal, computed } from '@angular/core';
import { PaletteCommand } from '../palette/commands';
import { ConversationStore } from './conversation-store';
import { ConversationIndex } from './timeline/conversation-index';

const MAX_TOOL_COMMANDS = 200;

export interface SessionActions {
  interrupt: () => void;
  stop: () => void;
  extend: () => void;
  tail: () => void;
  start: () => void;
  resume: () => void;
  find: () => void;
}

/** The palette commands an open conversation adds: jumps to turns, tools, context, and actions. */
export function conversationCommands(
  store: ConversationStore,
  jump: (seq: number) => void,
  actions: SessionActions,
): Signal<PaletteCommand[]> {
  return computed(() => {
    const commands = sessionCommands(actions);
    const session = store.session();
    if (session?.state === 'ended' && session.agent_session_id)
      commands.push({
        id: 'conv-resume',
        group: $localize`Conversation`,
        label: $localize`Resume this conversation in a new session`,
        keywords: 'continue restart reopen',
        run: actions.resume,
      });
    commands.push(...jumpCommands(store.index(), jump));
    return commands;
  });
}

/** The commands every open conversation has: move to either end, interrupt, stop, extend. */
function sessionCommands(actions: SessionActions): PaletteCommand[] {
  return [
    {
      id: 'conv-tail',
      group: $localize`Conversation`,
      label: $localize`Jump to the latest step`,
      keywords: 'bottom live tail',
      run: actions.tail,
    },
    {
      id: 'conv-start',
      group: $localize`Conversation`,
      label: $localize`Jump to the first step`,
      keywords: 'top beginning start oldest history home',
      run: actions.start,
    },
    {
      id: 'conv-find',
      group: $localize`Conversation`,
      label: $localize`Find in the conversation`,
      keywords: 'search text word ctrl+f',
      run: actions.find,
    },
    {
      id: 'conv-interrupt',
      group: $localize`Conversation`,
      label: $localize`Interrupt the running turn`,
      run: actions.interrupt,
    },
    {
      id: 'conv-stop',
      group: $localize`Conversation`,
      label: $localize`Stop this session`,
      run: actions.stop,
    },
    {
      id: 'conv-extend',
      group: $localize`Conversation`,
      label: $localize`Extend the lifetime by 30 minutes`,
      keywords: 'heartbeat ttl',
      run: actions.extend,
    },
  ];
}

/** Jumps to the context, each turn (newest first) and the latest tool calls. */
function jumpCommands(index: ConversationIndex, jump: (seq: number) => void): PaletteCommand[] {
  const commands: PaletteCommand[] = [];
  if (index.init) {
    const seq = index.init.seq;
    commands.push({
      id: 'conv-context',
      group: $localize`Conversation`,
      label: $localize`Jump to the context (init)`,
      keywords: 'model cwd tools mcp',
      run: () => jump(seq),
    });
  }
  for (const turn of [...index.turns].reverse()) {
    commands.push({
      id: `turn-${turn.turn}`,
      group: $localize`Turns`,
      label: $localize`Go to turn ${turn.turn}:turn:: ${turn.text}:text:`,
      run: () => jump(turn.seq),
    });
  }
  for (const tool of index.tools.slice(-MAX_TOOL_COMMANDS).reverse()) {
    commands.push({
      id: `tool-${tool.id}`,
      group: $localize`Tool calls`,
      label: $localize`Jump to tool ${tool.name}:tool:: ${tool.summary}:summary:`,
      run: () => jump(tool.seq),
    });
  }
  return commands;
}
