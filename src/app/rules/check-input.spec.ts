import { checkBody } from './check-input';

describe('rule tester input', () => {
  it('sends a command for Bash and a file path for file tools', () => {
    expect(checkBody('Bash', 'git push --force', '/w', 'write')).toEqual({
      tool_name: 'Bash',
      input: { command: 'git push --force' },
      cwd: '/w',
      permission_mode: 'write',
    });
    expect(checkBody('Read', '.env', '/w', 'read_only')?.input).toEqual({ file_path: '.env' });
    expect(checkBody('Write', 'a.txt', '/w', 'dry_run')?.input).toEqual({
      file_path: 'a.txt',
      content: '',
    });
  });

  it('asks nothing while the command or the folder is empty', () => {
    expect(checkBody('Bash', '  ', '/w', 'write')).toBeNull();
    expect(checkBody('Bash', 'ls', ' ', 'write')).toBeNull();
  });
});
