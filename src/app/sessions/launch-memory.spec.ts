import { recallLaunch, rememberLaunch } from './launch-memory';

describe('launch memory', () => {
  beforeEach(() => localStorage.clear());

  it('gives back the last choices', () => {
    rememberLaunch({ subscription: 'work', model: 'opus', cwd: '/p', permissionMode: 'read_only' });
    expect(recallLaunch()).toEqual({
      subscription: 'work',
      model: 'opus',
      cwd: '/p',
      permissionMode: 'read_only',
    });
  });

  it('gives nothing for nothing, for broken JSON, or for a mode that does not exist', () => {
    expect(recallLaunch()).toEqual({});
    localStorage.setItem('relais.launch.last', '{not json');
    expect(recallLaunch()).toEqual({});
    localStorage.setItem('relais.launch.last', JSON.stringify({ permissionMode: 'yolo' }));
    expect(recallLaunch()).toEqual({});
  });
});
