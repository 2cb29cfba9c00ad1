import { obj, str, type Json } from '../../../../contract/formats/decoded.js';

/**
 * What one stdout line of Claude Code in stream-json says to the driver (PROTOCOLS §1.4, §1.5,
 * §6.4): a control request to answer, an answer to one of Relais' requests, a withdrawn request,
 * and the few stream lines that move the session (its id, an answer, the turn's end).
 *
 * It lives in the agent's folder, not in `contract/formats/`: only the driver acts on these lines.
 * The console learns of a prompt through the permissions API and shows stored lines through the
 * contract's decoder, so no other reader needs this one. Pure and total: a line that is not an
 * object, or whose fields are not of their types, reads as `other` or with its fields left out.
 */
export type ClaudeControl =
  /** can_use_tool: the agent asks whether a tool may run. */
  | {
      kind: 'permission';
      requestId: string;
      toolName: string;
      toolUseId: string | null;
      input: Json;
      description: string | null;
      blockedPath: string | null;
    }
  /** hook_callback: a hook Relais registered at initialize, with the tool call it is about. */
  | {
      kind: 'hook';
      requestId: string;
      callbackId: string | null;
      toolName: string;
      toolInput: Json;
      toolUseId: string | null;
    }
  /** Any other control request: answered with an error. `subtype` is bounded for that answer. */
  | { kind: 'unhandled'; requestId: string; subtype: string }
  /** The answer to one of Relais' control requests. */
  | { kind: 'response'; requestId: string; outcome: ResponseOutcome }
  /** control_cancel_request: a request the agent made is withdrawn. */
  | { kind: 'cancel'; requestId: string }
  /** system/init: the agent's id of the conversation, when it gives one. */
  | { kind: 'init'; sessionId: string | null }
  /** An assistant line; `apiError` when the model was not reached (the line carries an `error`). */
  | { kind: 'assistant'; apiError: boolean }
  /**
   * The turn's result, whatever its other fields hold: the session must end the turn even on a
   * result the contract's decoder reads as nothing. `text`: the agent's word when it gives one.
   */
  | { kind: 'result'; isError: boolean; text: string | null }
  | { kind: 'other' };

export type ResponseOutcome = { ok: true; payload: unknown } | { ok: false; error: string };

/** Longest subtype echoed in an error answer: the agent's own name for what it asked. */
const SUBTYPE_ECHO = 200;
const OTHER: ClaudeControl = Object.freeze({ kind: 'other' });

/** Reads one parsed line (any JSON value); never throws. */
export function decodeClaudeControl(line: unknown): ClaudeControl {
  const data = obj(line);
  if (!data) return OTHER;
  switch (data['type']) {
    case 'control_request':
      return controlRequest(data);
    case 'control_response':
      return controlResponse(obj(data['response']));
    case 'control_cancel_request': {
      const requestId = str(data['request_id']);
      return requestId === null ? OTHER : { kind: 'cancel', requestId };
    }
    case 'system':
      return data['subtype'] === 'init'
        ? { kind: 'init', sessionId: str(data['session_id']) }
        : OTHER;
    case 'assistant':
      return { kind: 'assistant', apiError: data['error'] !== undefined };
    case 'result':
      return { kind: 'result', isError: data['is_error'] === true, text: str(data['result']) };
    default:
      return OTHER;
  }
}

/** A request without an id cannot be answered: it reads as `other`. */
function controlRequest(data: Json): ClaudeControl {
  const requestId = str(data['request_id']);
  if (requestId === null) return OTHER;
  const request = obj(data['request']) ?? {};
  const subtype = str(request['subtype']);
  if (subtype === 'can_use_tool')
    return {
      kind: 'permission',
      requestId,
      toolName: str(request['tool_name']) ?? 'unknown',
      toolUseId: str(request['tool_use_id']),
      input: obj(request['input']) ?? {},
      description: str(request['description']),
      blockedPath: str(request['blocked_path']),
    };
  if (subtype === 'hook_callback') {
    const input = obj(request['input']) ?? {};
    return {
      kind: 'hook',
      requestId,
      callbackId: str(request['callback_id']),
      toolName: str(input['tool_name']) ?? 'unknown',
      toolInput: obj(input['tool_input']) ?? {},
      toolUseId: str(input['tool_use_id']),
    };
  }
  const named = subtype === null ? 'a request without a subtype' : subtype.slice(0, SUBTYPE_ECHO);
  return { kind: 'unhandled', requestId, subtype: named };
}

function controlResponse(response: Json | null): ClaudeControl {
  const requestId = str(response?.['request_id']);
  if (!response || requestId === null) return OTHER;
  const outcome: ResponseOutcome =
    response['subtype'] === 'error'
      ? { ok: false, error: str(response['error']) ?? 'control request failed' }
      : { ok: true, payload: response['response'] ?? {} };
  return { kind: 'response', requestId, outcome };
}
