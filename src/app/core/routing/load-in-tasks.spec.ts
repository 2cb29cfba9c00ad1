import { loadInTasks } from './load-in-tasks';

describe('loadInTasks', () => {
  it('evaluates each part in a task of its own, then the page', async () => {
    const order: string[] = [];
    // What a part's evaluation leaves queued (a timer, input) runs before the next part.
    const part = (name: string) => async () => {
      order.push(name);
      setTimeout(() => order.push(`task after ${name}`));
    };
    const page = await loadInTasks([part('zod'), part('marked')], async () => {
      order.push('page');
      return 'Page';
    });
    expect(page).toBe('Page');
    expect(order).toEqual(['zod', 'task after zod', 'marked', 'task after marked', 'page']);
  });

  it('fails as the page would when a part fails to load', async () => {
    const page = vi.fn(async () => 'Page');
    const failing = () => Promise.reject(new Error('chunk failed'));
    await expect(loadInTasks([failing], page)).rejects.toThrow('chunk failed');
    expect(page).not.toHaveBeenCalled();
  });
});
