import { FormControl, FormGroup, Validators } from '@angular/forms';
import { Effort, PermissionMode, SessionLaunch } from '../../../contract/api';

export const PERMISSION_MODES: readonly {
  value: PermissionMode;
  label: string;
  explanation: string;
}[] = [
  {
    value: 'write',
    label: $localize`Write`,
    explanation: $localize`Edits and commands follow your rules; anything they do not decide asks you here.`,
  },
  {
    value: 'read_only',
    label: $localize`Read only`,
    explanation: $localize`Reading, searching and questions only; commands, edits, sub-agents and MCP tools are refused.`,
  },
  {
    value: 'dry_run',
    label: $localize`Dry run`,
    explanation: $localize`Reads freely; every change is refused and reported as what it would have done.`,
  },
];

export const LIFETIMES: readonly { seconds: number; label: string }[] = [
  { seconds: 600, label: $localize`10 minutes` },
  { seconds: 1800, label: $localize`30 minutes` },
  { seconds: 3600, label: $localize`1 hour` },
  { seconds: 4 * 3600, label: $localize`4 hours` },
  { seconds: 24 * 3600, label: $localize`24 hours` },
];

const absolutePath = Validators.pattern(/^(\/|[A-Za-z]:[\\/]|~\/).*/);

export function launchForm() {
  return new FormGroup({
    subscription: new FormControl('', { nonNullable: true, validators: [Validators.required] }),
    model: new FormControl('', { nonNullable: true, validators: [Validators.required] }),
    cwd: new FormControl('', {
      nonNullable: true,
      validators: [Validators.required, absolutePath],
    }),
    effort: new FormControl<Effort | ''>('', { nonNullable: true }),
    permissionMode: new FormControl<PermissionMode>('write', { nonNullable: true }),
    confinedWithoutAsking: new FormControl(false, { nonNullable: true }),
    ttlSeconds: new FormControl(3600, {
      nonNullable: true,
      validators: [Validators.required, Validators.min(10)],
    }),
    prompt: new FormControl('', { nonNullable: true, validators: [Validators.maxLength(100_000)] }),
  });
}
export type LaunchForm = ReturnType<typeof launchForm>;

/** The request body for the form's value; empty optional fields are left out. */
export function launchBody(value: ReturnType<LaunchForm['getRawValue']>): SessionLaunch {
  return {
    subscription_id: value.subscription,
    model: value.model,
    cwd: value.cwd.trim(),
    permission_mode: value.permissionMode,
    ttl_seconds: value.ttlSeconds,
    app: 'console',
    ...(value.effort ? { effort: value.effort } : {}),
    ...(value.prompt.trim() ? { prompt: value.prompt } : {}),
    ...(value.confinedWithoutAsking && value.permissionMode === 'write'
      ? { confined_without_asking: true }
      : {}),
  };
}
