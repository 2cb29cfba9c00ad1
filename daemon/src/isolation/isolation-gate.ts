import { apiError } from '../http/errors.js';
import { detectIsolation, type IsolationStatus } from './detect.js';

/** How long a reading of the machine is trusted: installing bubblewrap needs no restart. */
const FRESH_MS = 10_000;

/**
 * Whether sessions run confined, and whether this machine can confine them now. With
 * confinement on and unavailable, a launch is refused; never a silent fallback.
 */
export class IsolationGate {
  private reading: { status: IsolationStatus; atMs: number } | null = null;

  constructor(
    /** False with RELAIS_ISOLATION=off: sessions run unconfined, and say so. */
    readonly enabled: boolean,
    private readonly detect: () => IsolationStatus = detectIsolation,
  ) {}

  status(): IsolationStatus {
    const now = Date.now();
    if (!this.reading || now - this.reading.atMs > FRESH_MS)
      this.reading = { status: this.detect(), atMs: now };
    return this.reading.status;
  }

  /** Throws 409 isolation_unavailable when sessions must be confined and cannot be. */
  admit(): void {
    if (!this.enabled) return;
    const status = this.status();
    if (status.available) return;
    throw apiError('isolation_unavailable', unavailableMessage(status));
  }
}

export function unavailableMessage(status: IsolationStatus): string {
  const fix = status.install ? ` Install them: ${status.install}.` : '';
  return `Commands cannot be confined on this machine: ${status.problem}.${fix} Or start Relais with RELAIS_ISOLATION=off to run sessions unconfined (shown in red).`;
}

/** The line `npm start` prints when sessions will not be confined; null when they will. */
export function isolationLine(
  enabled: boolean,
  status: () => IsolationStatus = detectIsolation,
): string | null {
  if (!enabled)
    return 'Warning: RELAIS_ISOLATION=off: the commands of every session run unconfined.';
  const found = status();
  if (found.available) return null;
  const fix = found.install ? ` Install: ${found.install}` : '';
  return `Warning: sessions cannot start until commands can be confined: ${found.problem}.${fix}`;
}
