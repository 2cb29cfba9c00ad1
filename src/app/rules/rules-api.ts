import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { Observable, firstValueFrom, map } from 'rxjs';
import * as z from 'zod';
import { ErrorBody } from '../../../contract/api';
import { Rule, RuleCheckBody, RuleCheckResult, RulesView } from '../../../contract/permissions';

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
  if (typeof error !== 'object' || error === null || !('error' in error)) return null;
  const body = InvalidRulesBody.safeParse((error as { error: unknown }).error);
  if (!body.success || body.data.error_code !== 'invalid_rules') return null;
  return { line: body.data.line, path: body.data.path, reason: body.data.reason };
}

/** The rules resource: read the rules in force, replace them, and ask what they would decide. */
@Injectable({ providedIn: 'root' })
export class RulesApi {
  private readonly http = inject(HttpClient);

  get(): Promise<RulesView> {
    return firstValueFrom(
      this.http.get<unknown>('/api/rules').pipe(map((raw) => RulesView.parse(raw))),
    );
  }

  save(rules: readonly Rule[]): Promise<RulesView> {
    return firstValueFrom(
      this.http.put<unknown>('/api/rules', { rules }).pipe(map((raw) => RulesView.parse(raw))),
    );
  }

  /** An observable so that a newer question can cancel an older one (switchMap). */
  check(body: RuleCheckBody): Observable<RuleCheckResult> {
    return this.http
      .post<unknown>('/api/rules/check', body)
      .pipe(map((raw) => RuleCheckResult.parse(raw)));
  }
}
