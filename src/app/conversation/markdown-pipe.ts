import { Pipe, PipeTransform } from '@angular/core';
import { renderMarkdown } from './markdown';

/** Escaped-then-marked-up HTML; Angular's sanitiser still checks it on binding. */
@Pipe({ name: 'markdown' })
export class MarkdownPipe implements PipeTransform {
  transform(text: string): string {
    return renderMarkdown(text);
  }
}
