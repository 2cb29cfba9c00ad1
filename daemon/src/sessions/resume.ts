import type { PermissionMode, Session, SessionResume } from '../../../contract/api.js';
import { isModelName } from '../../../contract/names.js';
import { apiError } from '../http/errors.js';
import { assertConversationId } from './conversation-id.js';
import type { SessionManager } from './session-manager.js';
import type { SessionRepo } from './session-repo.js';

type ResumeBody = SessionResume;

/**
 * Resume: a new live session continuing the agent's conversation of an ended one (Claude
 * `--resume <id>`, Codex `thread/resume`), in the same subscription, under the permission engine.
 * It serves a conversation imported from the subscription's transcripts as well as a Relais session
 * that ended (stopped, expired, or left running when the daemon went down).
 */
export function resumeConversation(
  deps: { sessions: SessionRepo; manager: SessionManager },
  id: string,
  body: ResumeBody,
  app: string,
): Session {
  const previous = deps.sessions.get(id);
  if (!previous) throw apiError('not_found', 'No such session.');
  if (previous.state !== 'ended') throw apiError('session_running');
  if (!previous.agent_session_id) throw apiError('not_resumable');
  assertConversationId(previous.agent_session_id);
  // A transcript is written by whoever can write the agent's folder: its model name is checked.
  const ownModel =
    isModelName(previous.model) && previous.model !== 'unknown' ? previous.model : null;
  const model = body.model ?? ownModel;
  if (!model)
    throw apiError(
      'invalid_request',
      'The transcript names no usable model: choose one to resume with.',
    );
  const cwd = body.cwd ?? previous.cwd;
  if (!cwd)
    throw apiError('invalid_cwd', 'The transcript names no folder: choose one to resume in.');
  return deps.manager.launch(
    {
      subscription_id: previous.subscription_id,
      model,
      cwd,
      effort: body.effort ?? previous.effort ?? undefined,
      permission_mode: body.permission_mode ?? modeOf(previous),
      ttl_seconds: body.ttl_seconds,
      prompt: body.prompt,
      app,
    },
    app,
    undefined,
    { agentSessionId: previous.agent_session_id, fromSessionId: previous.id },
  );
}

/** A Relais session keeps its mode; an imported one (read-only as a record) goes on in write mode. */
function modeOf(previous: Session): PermissionMode {
  return previous.origin === 'imported' ? 'write' : previous.permission_mode;
}
