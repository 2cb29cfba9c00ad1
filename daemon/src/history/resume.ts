import type { Session, SessionResume } from '../../../contract/api.js';
import { apiError } from '../http/errors.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { SessionRepo } from '../sessions/session-repo.js';

type ResumeBody = Omit<SessionResume, 'permission_mode'> &
  Required<Pick<SessionResume, 'permission_mode'>>;

/**
 * Resume: a live Relais session continuing an imported conversation (Claude `--resume <id>`,
 * Codex `thread/resume`) in the same subscription, under the permission engine from then on.
 */
export function resumeImported(
  deps: { sessions: SessionRepo; manager: SessionManager },
  id: string,
  body: ResumeBody,
  app: string,
): Session {
  const imported = deps.sessions.get(id);
  if (!imported) throw apiError('not_found', 'No such session.');
  if (imported.origin !== 'imported' || !imported.agent_session_id) throw apiError('not_imported');
  const model = body.model ?? (imported.model === 'unknown' ? null : imported.model);
  if (!model)
    throw apiError('invalid_request', 'The transcript names no model: choose one to resume with.');
  const cwd = body.cwd ?? imported.cwd;
  if (!cwd)
    throw apiError('invalid_cwd', 'The transcript names no folder: choose one to resume in.');
  return deps.manager.launch(
    {
      subscription_id: imported.subscription_id,
      model,
      cwd,
      effort: body.effort,
      permission_mode: body.permission_mode,
      ttl_seconds: body.ttl_seconds,
      prompt: body.prompt,
      app,
    },
    app,
    undefined,
    imported.agent_session_id,
  );
}
