import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { firstValueFrom, map } from 'rxjs';
import { QuotasAnswer } from '../../../contract/usage';

/** The quotas resource of the daemon: windows per subscription, as last read. */
@Injectable({ providedIn: 'root' })
export class QuotasApi {
  private readonly http = inject(HttpClient);

  list(): Promise<QuotasAnswer> {
    return firstValueFrom(
      this.http.get<unknown>('/api/quotas').pipe(map((raw) => QuotasAnswer.parse(raw))),
    );
  }
}
