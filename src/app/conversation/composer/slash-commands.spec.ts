import { matchCommands, slashQuery } from './slash-commands';

describe('slash commands', () => {
  it('reads the command being typed, only at the start and before a space', () => {
    expect(slashQuery('/gr')).toBe('gr');
    expect(slashQuery('/')).toBe('');
    expect(slashQuery('/greet now')).toBeNull();
    expect(slashQuery('say /gr')).toBeNull();
  });

  it('puts prefix matches first, each command once', () => {
    expect(matchCommands(['compact', 'greet', 'agents', 'greet'], 'g')).toEqual([
      'greet',
      'agents',
    ]);
    expect(matchCommands(['b', 'a'], '')).toEqual(['a', 'b']);
  });
});
