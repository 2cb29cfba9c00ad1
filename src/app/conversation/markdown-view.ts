import {
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  ViewEncapsulation,
  afterRenderEffect,
  computed,
  inject,
  input,
} from '@angular/core';
import { DomSanitizer } from '@angular/platform-browser';
import { hasFencedCode, renderMarkdown } from './markdown';

/**
 * Assistant Markdown. DOMPurify (in renderMarkdown) is the sanitiser here: Angular's own would
 * strip the read-only task-list boxes. Fenced code is coloured once the highlighter chunk loads.
 */
@Component({
  selector: 'app-markdown',
  changeDetection: ChangeDetectionStrategy.OnPush,
  encapsulation: ViewEncapsulation.None,
  template: '',
  host: { class: 'markdown', '[innerHTML]': 'html()' },
  styleUrl: './markdown-view.scss',
})
export class MarkdownView {
  readonly text = input.required<string>();
  private readonly sanitizer = inject(DomSanitizer);
  private readonly rendered = computed(() => renderMarkdown(this.text()));
  protected readonly html = computed(() => this.sanitizer.bypassSecurityTrustHtml(this.rendered()));

  constructor() {
    const host = inject<ElementRef<HTMLElement>>(ElementRef).nativeElement;
    afterRenderEffect(() => {
      if (!hasFencedCode(this.rendered())) return;
      void import('./highlight').then((module) => module.highlightBlocks(host));
    });
  }
}
