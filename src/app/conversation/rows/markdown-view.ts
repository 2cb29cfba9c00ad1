import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  Input,
  OnChanges,
  ViewEncapsulation,
  inject,
} from '@angular/core';
import { hasFencedCode, renderMarkdown } from './markdown';

/**
 * Assistant Markdown. DOMPurify (in renderMarkdown) is the sanitiser here: Angular's own would
 * strip the read-only task-list boxes. Fenced code is coloured once the highlighter chunk loads.
 *
 * Every agent message of a conversation has one, made anew as the reader scrolls: with a signal
 * input, two computed values and an after-render effect each, they weighed on what scrolling
 * allocated. The input writes the element's HTML once per change (as Timestamp does its text).
 */
@Component({
  selector: 'app-markdown',
  changeDetection: ChangeDetectionStrategy.OnPush,
  encapsulation: ViewEncapsulation.None,
  template: '',
  host: { class: 'markdown' },
  styleUrl: './markdown-view.scss',
})
export class MarkdownView implements OnChanges {
  @Input({ required: true }) text!: string;
  private readonly host = inject<ElementRef<HTMLElement>>(ElementRef).nativeElement;

  ngOnChanges(): void {
    const html = renderMarkdown(this.text);
    this.host.innerHTML = html;
    if (hasFencedCode(html))
      void import('./highlight').then((module) => module.highlightBlocks(this.host));
  }
}
