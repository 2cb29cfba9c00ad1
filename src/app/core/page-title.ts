import { Injectable, computed, signal } from '@angular/core';

export const BASE_TITLE = 'Relais';

/**
 * The title of the page shown, as its route names it. It does not write the document title
 * itself: `Attention` does, with the count of waiting prompts in front, so that neither a
 * navigation nor a new prompt erases the other's part.
 */
@Injectable({ providedIn: 'root' })
export class PageTitle {
  private readonly routeTitle = signal(BASE_TITLE);
  private readonly subjectSignal = signal<string | null>(null);
  /** The route's title, or what the page shows (a session's title) in front of the console's name. */
  readonly title = computed(() => {
    const subject = this.subjectSignal();
    return subject ? `${subject} · ${BASE_TITLE}` : this.routeTitle();
  });

  show(title: string): void {
    this.routeTitle.set(title);
  }

  /** Names what the page shows (null: the route's title again); the page clears it when it goes. */
  showSubject(subject: string | null): void {
    this.subjectSignal.set(subject);
  }
}
