import type { Injector } from '@angular/core';
import { Diagnostics, type IsolationReport } from '../../../contract/operations';
import { ApiClient } from './api-client';

/** Loaded on demand: the schemas stay out of the first bundle every page pays for. */
export async function readIsolation(injector: Injector): Promise<IsolationReport> {
  return (await injector.get(ApiClient).read('/api/diagnostics', Diagnostics)).isolation;
}
