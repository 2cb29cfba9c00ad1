import { signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { PaletteCommand } from './commands';
import { PaletteRegistry } from './palette-registry';

const command = (id: string): PaletteCommand => ({ id, label: id, group: 'g', run: () => {} });

describe('PaletteRegistry', () => {
  it('shows a page’s commands while it is registered, newest page first, and follows their changes', () => {
    const registry = TestBed.inject(PaletteRegistry);
    const page = signal([command('refresh')]);
    const part = signal([command('tail')]);
    const removePage = registry.register(page);
    const removePart = registry.register(part);
    expect(registry.commands().map((c) => c.id)).toEqual(['tail', 'refresh']);
    page.set([command('refresh'), command('export')]);
    expect(registry.commands().map((c) => c.id)).toEqual(['tail', 'refresh', 'export']);
    removePart();
    expect(registry.commands().map((c) => c.id)).toEqual(['refresh', 'export']);
    removePage();
    expect(registry.commands()).toEqual([]);
  });
});
