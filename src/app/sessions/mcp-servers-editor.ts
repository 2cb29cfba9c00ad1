import { ChangeDetectionStrategy, Component, inject, model } from '@angular/core';
import { MatButtonModule } from '@angular/material/button';
import { MatCheckboxModule } from '@angular/material/checkbox';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatInputModule } from '@angular/material/input';
import { toApiFailure } from '../core/api-error';
import { MCP_SERVERS_MAX, McpDraft, draftProblem, endpointOf, newDraft } from './mcp-draft';
import { SessionsApi } from './sessions-api';

/** The component's words, in the console's language. */
const TEXT = {
  mcpServersOptional: $localize`MCP servers (optional)`,
  thisSessionLoadsOnly: $localize`This session loads only these servers, and of each only the tools you tick: the agent does not see the others, and Relais refuses them.`,
  mcpServer: (n: unknown) => $localize`MCP server ${n}:number:`,
  name: $localize`Name`,
  urlOrCommand: $localize`URL or command`,
  http12700: $localize`http://127.0.0.1:9500/mcp`,
  listing: $localize`Listing…`,
  listItsTools: $localize`List its tools`,
  removeServer: (name: unknown) => $localize`Remove server ${name}:name:`,
  allowedToolsOf: (name: unknown) => $localize`Allowed tools of ${name}:name:`,
  theServerListsNo: $localize`The server lists no tool.`,
  allowedToolsCommaSeparated: $localize`Allowed tools (comma separated)`,
  orListTheServer: $localize`Or list the server's tools and tick them.`,
  addAnMcpServer: $localize`Add an MCP server`,
  atMostServersA: (max: unknown) => $localize`At most ${max}:max: servers a session.`,
};

/** The launch form's MCP servers: where each is, and the tools ticked among those it lists. */
@Component({
  selector: 'app-mcp-servers-editor',
  imports: [MatButtonModule, MatCheckboxModule, MatFormFieldModule, MatInputModule],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <fieldset class="mcp">
      <legend>{{ t.mcpServersOptional }}</legend>
      <p class="explanation">
        {{ t.thisSessionLoadsOnly }}
      </p>
      @for (draft of servers(); track draft.key; let i = $index) {
        <section class="server" [attr.aria-label]="t.mcpServer(i + 1)">
          <div class="row">
            <mat-form-field appearance="outline" class="name">
              <mat-label>{{ t.name }}</mat-label>
              <input
                matInput
                [value]="draft.name"
                (input)="patch(draft, { name: value($event) })"
                spellcheck="false"
                autocomplete="off"
              />
            </mat-form-field>
            <mat-form-field appearance="outline" class="where">
              <mat-label>{{ t.urlOrCommand }}</mat-label>
              <input
                matInput
                [value]="draft.where"
                (input)="patch(draft, { where: value($event), listed: null, listError: null })"
                [placeholder]="t.http12700"
                spellcheck="false"
                autocomplete="off"
              />
            </mat-form-field>
          </div>
          <div class="row">
            <button
              mat-stroked-button
              type="button"
              (click)="list(draft)"
              [disabled]="draft.listing || !hasEndpoint(draft)"
            >
              {{ draft.listing ? t.listing : t.listItsTools }}
            </button>
            <button mat-button type="button" (click)="remove(draft)">
              {{ t.removeServer(draft.name) }}
            </button>
          </div>
          @if (draft.listError; as error) {
            <p class="error" role="alert">{{ error }}</p>
          }
          @if (draft.listed; as tools) {
            <div class="tools" role="group" [attr.aria-label]="t.allowedToolsOf(draft.name)">
              @for (tool of tools; track tool.name) {
                <mat-checkbox
                  [checked]="draft.allowed.includes(tool.name)"
                  (change)="toggle(draft, tool.name, $event.checked)"
                >
                  <code>{{ tool.name }}</code>
                  @if (tool.description) {
                    <span class="explanation">{{ tool.description }}</span>
                  }
                </mat-checkbox>
              } @empty {
                <p>{{ t.theServerListsNo }}</p>
              }
            </div>
          } @else {
            <mat-form-field appearance="outline" class="wide">
              <mat-label>{{ t.allowedToolsCommaSeparated }}</mat-label>
              <input
                matInput
                [value]="draft.allowed.join(', ')"
                (input)="patch(draft, { allowed: names(value($event)) })"
                spellcheck="false"
                autocomplete="off"
              />
              <mat-hint>{{ t.orListTheServer }}</mat-hint>
            </mat-form-field>
          }
          @if (problem(draft); as problem) {
            <p class="hint">{{ problem }}</p>
          }
        </section>
      }
      <button mat-stroked-button type="button" (click)="add()" [disabled]="servers().length >= max">
        {{ t.addAnMcpServer }}
      </button>
      @if (servers().length >= max) {
        <span class="explanation">{{ t.atMostServersA(max) }}</span>
      }
    </fieldset>
  `,
  styles: `
    .mcp {
      border: 1px solid var(--mat-sys-outline-variant);
      border-radius: 8px;
      padding: 0.5rem 1rem 0.75rem;
      display: flex;
      flex-direction: column;
      gap: 0.5rem;
      align-items: flex-start;
      min-width: 0;
      legend {
        padding: 0 0.25rem;
        color: var(--mat-sys-on-surface-variant);
      }
    }
    .server {
      width: 100%;
      border-top: 1px solid var(--mat-sys-outline-variant);
      padding-top: 0.75rem;
    }
    .row {
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem;
      align-items: center;
    }
    .name {
      flex: 1 1 10rem;
    }
    .where {
      flex: 3 1 16rem;
    }
    .wide {
      width: 100%;
    }
    .tools {
      display: flex;
      flex-direction: column;
    }
    .explanation,
    .hint {
      display: block;
      color: var(--mat-sys-on-surface-variant);
      font-size: 0.8125rem;
      margin: 0;
    }
    .error {
      color: var(--mat-sys-error);
      margin: 0.25rem 0;
    }
  `,
})
export class McpServersEditor {
  protected readonly t = TEXT;
  private readonly api = inject(SessionsApi);
  readonly servers = model<McpDraft[]>([]);
  protected readonly max = MCP_SERVERS_MAX;
  protected readonly problem = draftProblem;

  protected value(event: Event): string {
    return (event.target as HTMLInputElement).value;
  }

  protected names(text: string): string[] {
    return text
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
  }

  protected hasEndpoint(draft: McpDraft): boolean {
    return endpointOf(draft) !== null;
  }

  protected add(): void {
    this.servers.update((list) => [...list, newDraft(list)]);
  }

  protected remove(draft: McpDraft): void {
    this.servers.update((list) => list.filter((d) => d.key !== draft.key));
  }

  protected patch(draft: McpDraft, change: Partial<McpDraft>): void {
    this.servers.update((list) => list.map((d) => (d.key === draft.key ? { ...d, ...change } : d)));
  }

  protected toggle(draft: McpDraft, tool: string, checked: boolean): void {
    const current = this.current(draft);
    const allowed = current.allowed.filter((name) => name !== tool);
    this.patch(draft, { allowed: checked ? [...allowed, tool] : allowed });
  }

  protected async list(draft: McpDraft): Promise<void> {
    const endpoint = endpointOf(draft);
    if (!endpoint) return;
    this.patch(draft, { listing: true, listError: null });
    const asked = JSON.stringify(endpoint);
    // The server was edited while its tools were listed: the answer is of another server.
    const stillAsked = (): boolean => JSON.stringify(endpointOf(this.current(draft))) === asked;
    try {
      const tools = await this.api.mcpTools(endpoint);
      if (!stillAsked()) return;
      const names = new Set(tools.map((t) => t.name));
      this.patch(draft, {
        listed: tools,
        allowed: this.current(draft).allowed.filter((name) => names.has(name)),
      });
    } catch (error: unknown) {
      if (stillAsked()) this.patch(draft, { listError: toApiFailure(error).message, listed: null });
    } finally {
      this.patch(draft, { listing: false });
    }
  }

  private current(draft: McpDraft): McpDraft {
    return this.servers().find((d) => d.key === draft.key) ?? draft;
  }
}
