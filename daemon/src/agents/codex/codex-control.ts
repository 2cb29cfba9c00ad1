import { arr, finite, obj, str, type Json } from '../../../../contract/formats/decoded.js';

/**
 * What one message of `codex app-server` says to the driver (PROTOCOLS §3): the answer to one of
 * Relais' requests, a request of the server to answer (approvals, questions), and the few
 * notifications that move the session (its turn, items awaiting approval, errors, the turn's end).
 *
 * It lives in the agent's folder, not in `contract/formats/`: only the driver acts on these
 * messages. The console learns of a prompt through the permissions API and shows stored lines
 * through the contract's decoder, so no other reader needs this one. Pure and total: a message that
 * is not an object, or whose fields are not of their types, reads as `other` or with them left out.
 */
export type CodexControl =
  /** The answer to a request of Relais (whose ids are integers). */
  | { kind: 'response'; id: number; outcome: RpcOutcome }
  | { kind: 'turn_started'; turnId: string | null }
  /** An item began; a file change's paths come with it, not with its approval request. */
  | { kind: 'item_started'; itemId: string | null; changes: FileChange[] }
  | { kind: 'item_completed'; itemId: string | null; agentMessage: boolean }
  | { kind: 'error'; willRetry: boolean; message: string | null }
  /** A request of the server was answered or withdrawn; its id as a string. */
  | { kind: 'request_resolved'; requestId: string | null }
  | { kind: 'turn_completed'; failed: boolean; error: string | null }
  | {
      kind: 'command_approval';
      id: RequestId;
      itemId: string | null;
      command: string;
      reason: string | null;
    }
  | { kind: 'file_change_approval'; id: RequestId; itemId: string | null; reason: string | null }
  | { kind: 'user_input'; id: RequestId; itemId: string | null; questions: Question[] }
  /** Any other request of the server: refused. */
  | { kind: 'unhandled'; id: RequestId; method: string }
  | { kind: 'other' };

export type RequestId = number | string;
export type RpcOutcome =
  { ok: true; result: unknown } | { ok: false; code: number | undefined; message: string };

/** One file of a change: `kind` is Codex's change type (`add`, `delete`, `update`). */
export interface FileChange {
  path: string;
  kind: string;
  diff: string;
}

/** One of Codex's questions (item/tool/requestUserInput); `id` keys its answer. */
export interface Question {
  id: string | null;
  question: string;
  header: string;
  options: { label: string; description: string }[];
}

/** Longest method echoed in a refusal: the server's own name for what it asked. */
const METHOD_ECHO = 200;
const OTHER: CodexControl = Object.freeze({ kind: 'other' });

/** Reads one parsed message (any JSON value); never throws. */
export function decodeCodexControl(message: unknown): CodexControl {
  const data = obj(message);
  if (!data) return OTHER;
  const method = str(data['method']);
  const id = data['id'];
  if (data['method'] === undefined) return typeof id === 'number' ? response(id, data) : OTHER;
  if (!method) return OTHER;
  const params = obj(data['params']) ?? {};
  if (id === undefined) return notification(method, params);
  return typeof id === 'number' || typeof id === 'string'
    ? serverRequest(id, method, params)
    : OTHER;
}

/** An error member that is there at all fails the request, whatever it holds. */
function response(id: number, data: Json): CodexControl {
  const error = data['error'];
  if (!error) return { kind: 'response', id, outcome: { ok: true, result: data['result'] ?? {} } };
  const detail = obj(error);
  const outcome: RpcOutcome = {
    ok: false,
    code: finite(detail?.['code']) ?? undefined,
    message: str(detail?.['message']) ?? 'request failed',
  };
  return { kind: 'response', id, outcome };
}

function notification(method: string, params: Json): CodexControl {
  const item = obj(params['item']) ?? {};
  switch (method) {
    case 'turn/started':
      return { kind: 'turn_started', turnId: str(obj(params['turn'])?.['id']) };
    case 'item/started':
      return { kind: 'item_started', itemId: str(item['id']), changes: fileChanges(item) };
    case 'item/completed':
      return {
        kind: 'item_completed',
        itemId: str(item['id']),
        agentMessage: item['type'] === 'agentMessage',
      };
    case 'error':
      return {
        kind: 'error',
        willRetry: params['willRetry'] === true,
        message: str(obj(params['error'])?.['message']),
      };
    case 'serverRequest/resolved': {
      const id = params['requestId'];
      const known = typeof id === 'number' || typeof id === 'string';
      return { kind: 'request_resolved', requestId: known ? String(id) : null };
    }
    case 'turn/completed': {
      const turn = obj(params['turn']);
      const failed = turn?.['status'] === 'failed';
      return { kind: 'turn_completed', failed, error: str(obj(turn?.['error'])?.['message']) };
    }
    default:
      return OTHER;
  }
}

/** A change that is not an object still counts (a nameless update): skipped, it would pass unasked. */
function fileChanges(item: Json): FileChange[] {
  return arr(item['changes']).map((entry) => {
    const change = obj(entry) ?? {};
    return {
      path: str(change['path']) ?? '',
      kind: str(obj(change['kind'])?.['type']) ?? 'update',
      diff: str(change['diff']) ?? '',
    };
  });
}

function serverRequest(id: RequestId, method: string, params: Json): CodexControl {
  const itemId = str(params['itemId']);
  const reason = str(params['reason']);
  switch (method) {
    case 'item/commandExecution/requestApproval':
      return {
        kind: 'command_approval',
        id,
        itemId,
        command: str(params['command']) ?? '',
        reason,
      };
    case 'item/fileChange/requestApproval':
      return { kind: 'file_change_approval', id, itemId, reason };
    case 'item/tool/requestUserInput':
      return { kind: 'user_input', id, itemId, questions: questions(params['questions']) };
    default:
      return { kind: 'unhandled', id, method: method.slice(0, METHOD_ECHO) };
  }
}

function questions(value: unknown): Question[] {
  return arr(value).map((entry) => {
    const q = obj(entry) ?? {};
    return {
      id: str(q['id']),
      question: str(q['question']) ?? '',
      header: str(q['header']) ?? '',
      options: arr(q['options']).map((option) => ({
        label: str(obj(option)?.['label']) ?? '',
        description: str(obj(option)?.['description']) ?? '',
      })),
    };
  });
}
