import { Injectable, inject } from '@angular/core';
import { Observable } from 'rxjs';
import * as z from 'zod';
import { ErrorBody } from '../../../contract/api';
import { Rule, RuleCheckBody, RuleCheckResult, RulesView } from '../../../contract/permissions';
import { ApiClient, ApiError } from '../core/api-client';

/** The daemon's `invalid_rules` answer: the error body plus where the rules file went wrong. */
const InvalidRulesBody = ErrorBody.extend({
  line: z.number().int(),
  path: z.string(),
  reason: z.string(),
});

export interface RulesRefusal {
  line: number;
  path: string;
  reason: string;
}

/** The line and reason of a refused save, or null when the failure is something else. */
export function rulesRefusal(error: unknown): RulesRefusal | null {
  if (!(error instanceof ApiError)) return null;
  const body = InvalidRulesBody.safeParse(error.body);
  if (!body.success || body.data.error_code !== 'invalid_rules') return null;
  return { line: body.data.line, path: body.data.path, reason: body.data.reason };
}

/** The rules resource: read the rules in force, replace them, and ask what they would decide. */
@Injectable({ providedIn: 'root' })
export class RulesApi {
  private readonly api = inject(ApiClient);

  get(): Promise<RulesView> {
    return this.api.read('/api/rules', RulesView);
  }

  /** Saves the whole set made on `version`: refused (409 rules_changed) if saved since. */
  save(rules: readonly Rule[], version: number | undefined): Promise<RulesView> {
    return this.api.write('PUT', '/api/rules', RulesView, { version, rules });
  }

  /** An observable so that a newer question can cancel an older one (switchMap aborts it). */
  check(body: RuleCheckBody): Observable<RuleCheckResult> {
    return new Observable((subscriber) => {
      const abort = new AbortController();
      this.api.write('POST', '/api/rules/check', RuleCheckResult, body, abort.signal).then(
        (result) => {
          subscriber.next(result);
          subscriber.complete();
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => abort.abort();
    });
  }
}
