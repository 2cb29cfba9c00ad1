import { PermissionMode } from '../../../contract/api';

const LABELS: Record<PermissionMode, string> = {
  write: $localize`:permission mode:write`,
  read_only: $localize`:permission mode:read-only`,
  dry_run: $localize`:permission mode:dry run`,
};

/** The Relais mode of a session in words (the agent's own mode, "default", is not it). */
export function modeLabel(mode: PermissionMode): string {
  return LABELS[mode];
}

/** The mode as a fact of a session: `write mode` (`mode écriture`). */
export function modeText(mode: PermissionMode): string {
  const label = modeLabel(mode);
  return $localize`${label}:mode: mode`;
}
