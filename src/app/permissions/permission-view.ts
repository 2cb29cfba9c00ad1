import * as z from 'zod';
import { PermissionRequest } from '../../../contract/api';
import { subjectOf } from './permission-subject';

export { destinationOf, subjectOf } from './permission-subject';

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

/** What a screen reader hears when a prompt arrives. */
export function arrivalText(request: PermissionRequest): string {
  if (request.is_question) return $localize`New question from the agent.`;
  const subject = subjectOf(request);
  return $localize`New prompt: ${request.tool_name} asks permission${subject ? ` for ${subject.slice(0, 200)}` : ''}.`;
}
