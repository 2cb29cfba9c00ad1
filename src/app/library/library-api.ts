import { HttpClient } from '@angular/common/http';
import { Injectable, inject } from '@angular/core';
import { firstValueFrom, map } from 'rxjs';
import {
  Instructions,
  InstructionsList,
  LibraryCreate,
  LibraryItem,
  LibraryList,
  LibraryPatch,
} from '../../../contract/library';

/** The library (skills, commands) and the permanent instructions of the daemon. */
@Injectable({ providedIn: 'root' })
export class LibraryApi {
  private readonly http = inject(HttpClient);

  list(
    filter: { subscriptionId?: string; kind?: 'skill' | 'command' } = {},
  ): Promise<LibraryItem[]> {
    const params: Record<string, string> = {};
    if (filter.subscriptionId) params['subscription_id'] = filter.subscriptionId;
    if (filter.kind) params['kind'] = filter.kind;
    return firstValueFrom(
      this.http
        .get<unknown>('/api/library', { params })
        .pipe(map((raw) => LibraryList.parse(raw).items)),
    );
  }

  create(body: LibraryCreate): Promise<LibraryItem> {
    return firstValueFrom(
      this.http.post<unknown>('/api/library', body).pipe(map((raw) => LibraryItem.parse(raw))),
    );
  }

  update(id: string, change: LibraryPatch): Promise<LibraryItem> {
    return firstValueFrom(
      this.http
        .patch<unknown>(`/api/library/${encodeURIComponent(id)}`, change)
        .pipe(map((raw) => LibraryItem.parse(raw))),
    );
  }

  async remove(id: string): Promise<void> {
    await firstValueFrom(this.http.delete(`/api/library/${encodeURIComponent(id)}`));
  }

  instructions(): Promise<Instructions[]> {
    return firstValueFrom(
      this.http
        .get<unknown>('/api/instructions')
        .pipe(map((raw) => InstructionsList.parse(raw).items)),
    );
  }

  saveInstructions(scope: string, text: string): Promise<Instructions> {
    return firstValueFrom(
      this.http
        .put<unknown>('/api/instructions', { scope, text })
        .pipe(map((raw) => Instructions.parse(raw))),
    );
  }
}
