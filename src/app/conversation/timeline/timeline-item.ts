import type { Hunk } from '../rows/diff-model';
import type { InitLine } from './agent-lines';
import type { GateVerdict } from './refusal';

/** The rows of the conversation, for every agent's reading: shared by the readers and the timeline. */
export interface ToolResult {
  seq: number;
  ms: number;
  isError: boolean;
  text: string;
  stdout: string | null;
  stderr: string | null;
  interrupted: boolean;
  /** The structured patch of an Edit/MultiEdit/Write result (real file line numbers). */
  patch: Hunk[] | null;
}

export interface PermissionOutcome {
  decision: string;
  decidedBy: string | null;
  scope: string | null;
  message: string | null;
}

interface Base {
  key: string;
  seq: number;
  ms: number;
}

export type TimelineItem =
  | (Base & { kind: 'user'; text: string })
  | (Base & {
      kind: 'text';
      text: string;
      sub: boolean;
      /** A later event whose text this row shows, when it came clipped (a Codex completion). */
      clippedSeq?: number;
    })
  | (Base & { kind: 'thinking'; text: string })
  | (Base & {
      kind: 'tool';
      id: string;
      name: string;
      input: Record<string, unknown>;
      result: ToolResult | null;
      permission: PermissionOutcome | null;
      /** What the permission gate decided without asking anyone (rule, mode, path). */
      gate: GateVerdict | null;
      sub: boolean;
    })
  | (Base & { kind: 'orphan-result'; toolUseId: string; result: ToolResult })
  | (Base & { kind: 'init'; init: InitLine })
  | (Base & {
      kind: 'result';
      outcome: TurnOutcome;
      isError: boolean;
      durationMs: number | null;
      costUsd: number | null;
      text: string | null;
    })
  | (Base & { kind: 'notice'; text: string; tone: 'info' | 'error' });

export type TurnOutcome = 'finished' | 'failed' | 'interrupted';
