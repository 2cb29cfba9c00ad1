import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { FormsModule } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { RouterLink } from '@angular/router';
import { PermissionRequest } from '../../../contract/api';
import { ApiFailure } from '../core/api-error';
import { Timestamp } from '../shared/timestamp';
import { PermissionActions } from './permission-actions';
import { questionsOf, subjectOf } from './permission-view';

/** One pending request; every button answers this request's id, whatever else is pending. */
@Component({
  selector: 'app-permission-card',
  imports: [FormsModule, MatButtonModule, RouterLink, Timestamp],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './permission-card.html',
  styleUrl: './permission-card.scss',
  host: { '[attr.data-permission-id]': 'request().id' },
})
export class PermissionCard {
  private readonly actions = inject(PermissionActions);
  readonly request = input.required<PermissionRequest>();
  /** Shows a link to the session (in the inbox; not inside the conversation itself). */
  readonly showSession = input(false);

  protected readonly subject = computed(() => subjectOf(this.request()));
  protected readonly questions = computed(() => questionsOf(this.request()));
  protected readonly createdMs = computed(() => Date.parse(this.request().created_at));
  protected readonly inputJson = computed(() => JSON.stringify(this.request().input, null, 2));
  protected readonly reason = signal('');
  protected readonly answers = signal<Record<string, string[]>>({});
  protected readonly busy = signal(false);
  protected readonly failure = signal<ApiFailure | null>(null);
  protected readonly allAnswered = computed(() =>
    this.questions().every((q) => (this.answers()[q.question] ?? []).length > 0),
  );

  protected toggleAnswer(question: string, label: string, multi: boolean, checked: boolean): void {
    this.answers.update((current) => {
      const previous = current[question] ?? [];
      const next = multi
        ? checked
          ? [...previous, label]
          : previous.filter((l) => l !== label)
        : [label];
      return { ...current, [question]: next };
    });
  }

  protected allow(scope: 'once' | 'session'): void {
    void this.send({ decision: 'allow', scope });
  }

  protected deny(): void {
    const message = this.reason().trim();
    void this.send({ decision: 'deny', scope: 'once', ...(message ? { message } : {}) });
  }

  protected answer(): void {
    const answers: Record<string, string> = {};
    for (const [question, labels] of Object.entries(this.answers()))
      answers[question] = labels.join(', ');
    void this.send({ decision: 'allow', scope: 'once', answers });
  }

  private async send(body: Parameters<PermissionActions['decide']>[1]): Promise<void> {
    this.busy.set(true);
    this.failure.set(await this.actions.decide(this.request().id, body));
    this.busy.set(false);
  }
}
