import { PermissionMode } from '../../../contract/api';
import { RuleCheckBody } from '../../../contract/permissions';

export const TESTER_TOOLS = ['Bash', 'Read', 'Write', 'Edit'] as const;
export type TesterTool = (typeof TESTER_TOOLS)[number];

/** The tool input the tester sends: a command for Bash, a file path for the file tools. */
export function checkBody(
  tool: TesterTool,
  text: string,
  cwd: string,
  mode: PermissionMode,
): RuleCheckBody | null {
  if (text.trim() === '' || cwd.trim() === '') return null;
  const input: Record<string, unknown> =
    tool === 'Bash'
      ? { command: text }
      : tool === 'Write'
        ? { file_path: text, content: '' }
        : tool === 'Edit'
          ? { file_path: text, old_string: '', new_string: '' }
          : { file_path: text };
  return { tool_name: tool, input, cwd: cwd.trim(), permission_mode: mode };
}
