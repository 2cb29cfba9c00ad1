import { DOCUMENT, Injectable, effect, inject, signal } from '@angular/core';
import { LiveStore } from './live-store';

const BASE_TITLE = 'Relais';

/**
 * Draws attention to prompts waiting while the tab is hidden: a count in the tab title and,
 * when the person allowed it, a browser notification per new prompt.
 */
@Injectable({ providedIn: 'root' })
export class Attention {
  private readonly document = inject(DOCUMENT);
  private readonly live = inject(LiveStore);
  private readonly notified = new Set<string>();
  private readonly permissionSignal = signal<NotificationPermission | 'unsupported'>(
    typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
  );
  readonly notificationPermission = this.permissionSignal.asReadonly();

  constructor() {
    effect(() => {
      const count = this.live.pendingCount();
      this.document.title = count > 0 ? `(${count}) ${BASE_TITLE}` : BASE_TITLE;
    });
    effect(() => {
      const pending = this.live.pending();
      const hidden = this.document.visibilityState === 'hidden';
      for (const request of pending) {
        if (this.notified.has(request.id)) continue;
        this.notified.add(request.id);
        if (hidden && this.permissionSignal() === 'granted') {
          const what = request.is_question ? 'A question' : `${request.tool_name} needs permission`;
          new Notification('Relais: ' + what, { body: request.description ?? '', tag: request.id });
        }
      }
    });
  }

  async askForNotifications(): Promise<void> {
    if (typeof Notification === 'undefined') return;
    this.permissionSignal.set(await Notification.requestPermission());
  }
}
