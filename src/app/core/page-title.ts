import { Injectable, signal } from '@angular/core';
import { RouterStateSnapshot, TitleStrategy } from '@angular/router';

export const BASE_TITLE = 'Relais';

/**
 * The title of the page shown, as its route names it. It does not write the document title
 * itself: `Attention` does, with the count of waiting prompts in front, so that neither a
 * navigation nor a new prompt erases the other's part.
 */
@Injectable({ providedIn: 'root' })
export class PageTitle extends TitleStrategy {
  private readonly current = signal(BASE_TITLE);
  readonly title = this.current.asReadonly();

  override updateTitle(snapshot: RouterStateSnapshot): void {
    this.show(this.buildTitle(snapshot) ?? BASE_TITLE);
  }

  show(title: string): void {
    this.current.set(title);
  }
}
