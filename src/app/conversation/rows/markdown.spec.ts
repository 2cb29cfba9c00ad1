import {
  hasFencedCode,
  isPlainText,
  markdownHtml,
  parseAndSanitize,
  renderMarkdown,
  sanitizeHtml,
} from './markdown';

/** The rendered HTML as a DOM fragment, to ask what survived. */
function dom(source: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = renderMarkdown(source);
  return host;
}

describe('renderMarkdown', () => {
  it('escapes raw HTML', () => {
    const html = renderMarkdown('<img src=x onerror=alert(1)> <script>bad()</script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;img');
  });

  it('renders paragraphs, bold, inline code and lists', () => {
    expect(renderMarkdown('Hello **you**, run `ls`')).toBe(
      '<p>Hello <strong>you</strong>, run <code>ls</code></p>',
    );
    expect(dom('- a\n- b').querySelectorAll('ul > li').length).toBe(2);
    expect(dom('1. a\n2. b').querySelectorAll('ol > li').length).toBe(2);
  });

  it('a code block and a table take focus, so keys can scroll them sideways', () => {
    expect(dom('| a | b |\n|---|---|\n| 1 | 2 |').querySelector('table')?.tabIndex).toBe(0);
    expect(dom('```\nwide\n```').querySelector('pre')?.tabIndex).toBe(0);
    expect(dom('text').querySelector('[tabindex]')).toBeNull();
  });

  it('keeps fenced code verbatim (escaped), marked with its language', () => {
    const html = renderMarkdown('```ts\nconst a = 1 < 2;\n```');
    expect(html).toBe(
      '<pre tabindex="0"><code class="language-ts">const a = 1 &lt; 2;\n</code></pre>',
    );
    expect(hasFencedCode(html)).toBe(true);
    expect(hasFencedCode(renderMarkdown('`inline` only'))).toBe(false);
  });

  it('links only http(s) and mail targets, in a new tab without opener or referrer', () => {
    const link = dom('[ok](https://example.com)').querySelector('a')!;
    expect(link.getAttribute('href')).toBe('https://example.com');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    for (const target of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java%0ascript:alert(1)',
      '&#106;avascript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '/api/sessions',
    ]) {
      const html = renderMarkdown(`[x](${target})`);
      expect(html, target).not.toContain('href');
    }
    expect(renderMarkdown('<javascript:alert(1)>')).not.toContain('href');
  });

  it('does not apply marks inside inline code', () => {
    expect(renderMarkdown('`**not bold**`')).toBe('<p><code>**not bold**</code></p>');
  });

  it('renders GitHub tables, nested lists, blockquotes and task lists', () => {
    const table = dom('| Name | Size |\n| :--- | ---: |\n| a.ts | 12 |\n| b.ts | 3 |');
    expect(table.querySelectorAll('table thead th').length).toBe(2);
    expect(table.querySelectorAll('table tbody tr').length).toBe(2);
    expect(table.querySelector('td')?.textContent).toBe('a.ts');

    const nested = dom('- outer\n  - inner\n    1. deep');
    expect(nested.querySelector('ul > li > ul > li > ol > li')?.textContent).toBe('deep');

    expect(dom('> quoted **text**').querySelector('blockquote strong')?.textContent).toBe('text');

    const tasks = dom('- [x] done\n- [ ] open');
    const boxes = [...tasks.querySelectorAll('input')];
    expect(boxes.map((box) => [box.type, box.checked, box.disabled])).toEqual([
      ['checkbox', true, true],
      ['checkbox', false, true],
    ]);
    expect(boxes.map((box) => box.getAttribute('aria-label'))).toEqual([
      'Done: done',
      'To do: open',
    ]);
  });

  it('starts headings at h3 (the page owns h1 and h2)', () => {
    const html = renderMarkdown('# Title\n## Part\n###### Deep');
    expect(html).toContain('<h3>Title</h3>');
    expect(html).toContain('<h4>Part</h4>');
    expect(html).toContain('<h6>Deep</h6>');
  });

  it('keeps single newlines as line breaks', () => {
    expect(renderMarkdown('one\ntwo')).toBe('<p>one<br>two</p>');
  });

  describe('attacks', () => {
    const attacks = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '<svg onload=alert(1)><circle r=1 /></svg>',
      '<svg><script>alert(1)</script></svg>',
      '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
      '<iframe src="javascript:alert(1)"></iframe>',
      '<a href="javascript:alert(1)">click</a>',
      '<div style="background:url(javascript:alert(1))">x</div>',
      '<details open ontoggle=alert(1)>',
      '<form action="javascript:alert(1)"><button>go</button></form>',
      '<style>*{display:none}</style>',
      '<base href="https://evil.example/">',
      '<meta http-equiv="refresh" content="0;url=https://evil.example">',
      '[x](javascript:alert(1) "title")',
      '[x](<javascript:alert(1)>)',
      '![x](javascript:alert(1))',
      '![x" onerror="alert(1)](https://example.com/a.png)',
      '[a](https://example.com/"onmouseover="alert(1))',
      '```"><script>alert(1)</script>\ncode\n```',
      '```js onload=alert(1)\nx\n```',
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
      '<!--><img src=x onerror=alert(1)>-->',
      '| a |\n| - |\n| <img src=x onerror=alert(1)> |',
      '- [ ] <input type=text autofocus onfocus=alert(1)>',
      '<input type="checkbox" onclick="alert(1)">',
    ];
    for (const attack of attacks) {
      it(`neutralises ${attack}`, () => {
        const host = dom(attack);
        expect(host.querySelector('script, iframe, svg, math, img, style, form, base, meta')).toBe(
          null,
        );
        for (const element of host.querySelectorAll('*')) {
          for (const attribute of element.attributes) {
            expect(attribute.name, attack).not.toMatch(/^on/i);
            expect(attribute.name, attack).not.toBe('style');
            if (attribute.name === 'href') expect(attribute.value, attack).toMatch(/^https?:/);
          }
        }
        for (const input of host.querySelectorAll('input')) {
          expect(input.type).toBe('checkbox');
          expect(input.disabled).toBe(true);
        }
        expect(renderMarkdown(attack)).not.toMatch(/<script|<img|<svg|<iframe/i);
      });
    }

    it('shows raw HTML as its text', () => {
      expect(dom('<b>not bold</b>').textContent).toBe('<b>not bold</b>');
    });

    it('keeps a class only as the language of a code block', () => {
      const host = dom('```ts\nx\n```\n\n- [ ] task');
      const classes = [...host.querySelectorAll('[class]')].map((el) => el.className);
      expect(classes).toEqual(['language-ts']);
    });

    it('renders an image as a link to it, never loading it', () => {
      const host = dom('![diagram](https://example.com/a.png)');
      expect(host.querySelector('img')).toBe(null);
      expect(host.querySelector('a')?.getAttribute('href')).toBe('https://example.com/a.png');
      expect(host.querySelector('a')?.textContent).toBe('diagram');
    });
  });
});

/** HTML as the browser reads it: two renderings of the same nodes serialise the same way. */
function parsed(html: string): string {
  const host = document.createElement('div');
  host.innerHTML = html;
  return host.innerHTML;
}

describe('plain text', () => {
  it('renders a plain line as the parser and the sanitiser would', () => {
    const lines = [
      'Looking (step 3).',
      "I'll read the file, then run the tests: 12 of them.",
      'Done! Les tests passent – 100 % ✓',
      'a - b + c = d?',
      'Ça marche, "vraiment".',
      '2026 was a year.',
    ];
    for (const line of lines) {
      expect(isPlainText(line), line).toBe(true);
      expect(parsed(renderMarkdown(line)), line).toBe(parsed(parseAndSanitize(line)));
    }
  });

  it('leaves to the parser whatever Markdown or HTML could read as more than a paragraph', () => {
    const texts = [
      '- a list',
      '+ a list',
      '1. first',
      '3) third',
      'see www.example.com',
      'see https://example.com',
      'mail me@example.com',
      'a *word*',
      'a _word_',
      'run `ls`',
      '~~gone~~',
      '# title',
      '> quoted',
      '[a](b)',
      'a <b>tag</b>',
      'fish &amp; chips',
      'a\\*b',
      'two\nlines',
      '    indented code',
      'trailing space ',
      'a | b',
      '',
    ];
    for (const text of texts) expect(isPlainText(text), text).toBe(false);
  });
});

describe('inert Markdown', () => {
  it('skips the sanitiser only where it would change nothing', () => {
    const texts = [
      'Step **3** of 10.',
      'Run `npm test` _now_, ~~not later~~.',
      'First line\nsecond line\n\nA new paragraph with a <b>tag</b> & an &amp; entity.',
      '*emphasis* and "quotes" and \'apostrophes\'',
    ];
    for (const text of texts) {
      expect(parsed(parseAndSanitize(text)), text).toBe(
        parsed(sanitizeHtml(markdownHtml(text), text)),
      );
    }
  });

  it('sends whatever has links, blocks or attributes through the sanitiser', () => {
    const hostile = '[x](javascript:alert(1)) and <img src=x onerror=alert(1)>';
    expect(parseAndSanitize(hostile)).not.toContain('javascript:');
    expect(parseAndSanitize(hostile)).not.toContain('<img');
    expect(parseAndSanitize('see https://example.com')).toContain('target="_blank"');
    expect(parseAndSanitize('```\ncode\n```')).toContain('tabindex="0"');
  });
});
