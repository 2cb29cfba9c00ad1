import { DOCUMENT, Injectable, effect, inject, signal } from '@angular/core';
import { LiveStore } from './live-store';
import { PageTitle } from './page-title';

/**
 * Draws attention to waiting prompts: their count in front of the page's title and, while the
 * tab is hidden and the person allowed it, a browser notification per new prompt.
 */
@Injectable({ providedIn: 'root' })
export class Attention {
  private readonly document = inject(DOCUMENT);
  private readonly live = inject(LiveStore);
  private readonly page = inject(PageTitle);
  private readonly notified = new Set<string>();
  private readonly permissionSignal = signal<NotificationPermission | 'unsupported'>(
    typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
  );
  readonly notificationPermission = this.permissionSignal.asReadonly();

  constructor() {
    effect(() => {
      const count = this.live.pendingCount();
      const title = this.page.title();
      this.document.title = count > 0 ? `(${count}) ${title}` : title;
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
