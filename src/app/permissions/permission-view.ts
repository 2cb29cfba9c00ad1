import * as z from 'zod';
import { PermissionRequest } from '../../../contract/api';

export const Question = z.object({
  question: z.string(),
  header: z.string().optional(),
  options: z.array(z.object({ label: z.string(), description: z.string().optional() })),
  multiSelect: z.boolean().optional(),
});
export type Question = z.infer<typeof Question>;

const QuestionsInput = z.object({ questions: z.array(Question) });

/** The questions of an AskUserQuestion request (empty when the input has another shape). */
export function questionsOf(request: PermissionRequest): Question[] {
  const parsed = QuestionsInput.safeParse(request.input);
  return parsed.success ? parsed.data.questions : [];
}

/** The `host:port` a command's connection asks for (tool `Network`), or null for any other prompt. */
export function destinationOf(request: PermissionRequest): string | null {
  const { host, port } = request.input;
  return request.tool_name === 'Network' && typeof host === 'string' && typeof port === 'number'
    ? `${host}:${port}`
    : null;
}

/** What exactly is asked, in one line: the command, the path, the destination or the pattern. */
export function subjectOf(request: PermissionRequest): string | null {
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

/** What a screen reader hears when a prompt arrives. */
export function arrivalText(request: PermissionRequest): string {
  if (request.is_question) return $localize`New question from the agent.`;
  const subject = subjectOf(request);
  return $localize`New prompt: ${request.tool_name} asks permission${subject ? ` for ${subject.slice(0, 200)}` : ''}.`;
}
