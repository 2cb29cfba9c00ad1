import { PermissionMode } from '../../../contract/api';

const LABELS: Record<PermissionMode, string> = {
  write: 'write',
  read_only: 'read-only',
  dry_run: 'dry run',
};

/** The Relais mode of a session in words (the agent's own mode, "default", is not it). */
export function modeLabel(mode: PermissionMode): string {
  return LABELS[mode];
}
