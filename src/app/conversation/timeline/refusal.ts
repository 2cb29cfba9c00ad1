/** What the permission gate decided on its own for one tool call (a `permission_auto` event). */
export interface GateVerdict {
  decision: string;
  step: string | null;
  rule: string | null;
  reason: string | null;
  decidedBy: string | null;
}

/** A refusal by Relais, in the words a person reads; the agent's wrapped error text is not it. */
export type Refusal =
  | { kind: 'rule'; rule: string; reason: string }
  | { kind: 'read-only'; detail: string }
  | { kind: 'dry-run'; wouldHaveRun: string }
  | { kind: 'path'; reason: string }
  | { kind: 'nobody'; reason: string }
  | { kind: 'gate'; reason: string };

const DRY_RUN = /^dry run:\s*would have run\s*/i;
const READ_ONLY = /^read-only session:\s*/i;

const sentence = (text: string): string => text.trim().replace(/[.\s]+$/, '');
const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The refusal a gate verdict stands for, or null when the gate let the call through. */
export function refusalOf(verdict: GateVerdict | null): Refusal | null {
  if (!verdict || verdict.decision !== 'deny') return null;
  const reason = sentence(verdict.reason ?? '');
  if (verdict.step === 'rule' && verdict.rule) return { kind: 'rule', rule: verdict.rule, reason };
  if (verdict.step === 'mode' && DRY_RUN.test(reason))
    return { kind: 'dry-run', wouldHaveRun: reason.replace(DRY_RUN, '') };
  if (verdict.step === 'mode') return { kind: 'read-only', detail: reason.replace(READ_ONLY, '') };
  if (verdict.step === 'path') return { kind: 'path', reason };
  if (verdict.decidedBy === 'nobody_listening') return { kind: 'nobody', reason };
  return { kind: 'gate', reason };
}

/** One line for the tool's status, and the sentence under it (the rule's own reason, etc.). */
export function refusalWords(refusal: Refusal): { status: string; detail: string } {
  switch (refusal.kind) {
    case 'rule':
      return { status: $localize`refused by a rule`, detail: refusal.reason };
    case 'read-only':
      return {
        status: $localize`not run: read-only session`,
        detail: $localize`Read-only session: ${refusal.detail}:detail:`,
      };
    case 'dry-run':
      return {
        status: $localize`not run: dry run`,
        detail: $localize`Dry run: would have run ${refusal.wouldHaveRun}`,
      };
    case 'path':
      return {
        status: $localize`refused: outside the trusted folders`,
        detail: capital(refusal.reason),
      };
    case 'nobody':
      return { status: $localize`refused: nobody answered`, detail: capital(refusal.reason) };
    case 'gate':
      return {
        status: $localize`refused by the permission gate`,
        detail: capital(refusal.reason),
      };
  }
}
