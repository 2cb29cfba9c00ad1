// Without zod: the first paint (src/first-paint) shows a prompt's subject before the console starts.
import type { PermissionRequest } from '../../../contract/api';

/** The fields of a request these read: the console's parsed request, or the first paint's read. */
type Asked = Pick<PermissionRequest, 'tool_name' | 'input' | 'blocked_path'>;

/** The `host:port` a command's connection asks for (tool `Network`), or null for any other prompt. */
export function destinationOf(request: Asked): string | null {
  const { host, port } = request.input;
  return request.tool_name === 'Network' && typeof host === 'string' && typeof port === 'number'
    ? `${host}:${port}`
    : null;
}

/** What exactly is asked, in one line: the command, the path, the destination or the pattern. */
export function subjectOf(request: Asked): string | null {
  const input = request.input;
  const destination = destinationOf(request);
  if (destination) return destination;
  for (const field of [
    'command',
    'file_path',
    'notebook_path',
    'path',
    'url',
    'pattern',
    'query',
  ]) {
    const value = input[field];
    if (typeof value === 'string' && value) return value;
  }
  return request.blocked_path;
}
