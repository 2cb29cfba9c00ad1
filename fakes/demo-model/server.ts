import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { readConversation } from './conversation.js';
import { BodyError, readJsonBody, sendApiError, sendJson } from './http-io.js';
import { buildMessage, newId } from './message.js';
import { usageFor, type DemoUsage } from './plan.js';
import {
  quotaHeaders,
  readResponsesRequest,
  responsesEvents,
  responsesPlan,
  type ResponsesQuota,
} from './responses.js';
import { planFor } from './scripts.js';
import { sseEvents, writeSse } from './sse.js';

/**
 * How long an idle keep-alive connection is kept: an agent sends a tool's result on the connection
 * its last request used, after however long the person took to allow the tool; Node's default
 * (5 s) closes it just as that request is written, and the turn fails with ECONNRESET.
 */
const IDLE_CONNECTION_MS = 10 * 60_000;

export interface RecordedRequest {
  method: string;
  path: string;
  model?: string;
  lastUserText?: string;
  /** Script that answered (`echo`, `bash`, …) and its step; POST /v1/messages only. */
  script?: string;
  step?: number;
  /** Names of the tools the request offered the model (POST /v1/messages). */
  tools?: string[];
  /** The end of the system prompt it was given (the last SYSTEM_KEPT characters). */
  system?: string;
  /** Usage reported for this answer, so tests can predict the CLI's totals. */
  usage?: DemoUsage;
  status?: number;
}

export interface DemoModel {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** What the Responses side (Codex) reports in its x-codex-* quota headers; tests may change it. */
  codexQuota: ResponsesQuota;
  /** Listens to the usage of every Messages answer; returns the way to stop. */
  onUsage(listener: UsageListener): () => void;
  close(): Promise<void>;
}

export interface DemoModelOptions {
  port?: number;
  host?: string;
  /** Multiplies every scripted delay (demo:slow); 0 streams at once. */
  delayScale?: number;
}

/** Told the usage of every Messages answer: the demo subscription's quota endpoint counts it. */
export type UsageListener = (usage: DemoUsage) => void;

// The daemon keeps one demo model up for days; keep the log bounded.
const MAX_RECORDED = 1000;
const SYSTEM_KEPT = 4000;

export function startDemoModel(options: DemoModelOptions = {}): Promise<DemoModel> {
  const host = options.host ?? '127.0.0.1';
  const delayScale = options.delayScale ?? 1;
  const requests: RecordedRequest[] = [];
  const record = (entry: RecordedRequest): RecordedRequest => {
    requests.push(entry);
    if (requests.length > MAX_RECORDED) requests.splice(0, requests.length - MAX_RECORDED);
    return entry;
  };
  const codexQuota: ResponsesQuota = { primaryUsedPercent: 12.5, secondaryUsedPercent: 3 };
  const listeners = new Set<UsageListener>();
  const recordUsage = (entry: RecordedRequest): RecordedRequest => {
    const usage = entry.usage;
    if (usage) for (const listener of listeners) listener(usage);
    return entry;
  };
  const server = createServer(
    { noDelay: true, keepAliveTimeout: IDLE_CONNECTION_MS },
    (req, res) => {
      handle(req, res, record, delayScale, codexQuota, recordUsage).catch((error: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const status = error instanceof BodyError ? error.status : 500;
        const type =
          status === 413
            ? 'request_too_large'
            : status >= 500
              ? 'api_error'
              : 'invalid_request_error';
        sendApiError(res, status, type, error instanceof Error ? error.message : String(error));
      });
    },
  );
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${urlHost}:${port}`,
        port,
        requests,
        codexQuota,
        onUsage: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  record: (entry: RecordedRequest) => RecordedRequest,
  delayScale: number,
  codexQuota: ResponsesQuota,
  counted: (entry: RecordedRequest) => RecordedRequest,
): Promise<void> {
  const method = req.method ?? 'GET';
  const path = new URL(req.url ?? '/', 'http://demo.invalid').pathname;
  const requestId = newId('req');
  res.setHeader('request-id', requestId);

  if (method === 'HEAD') {
    record({ method, path, status: 200 });
    res.writeHead(200).end();
    return;
  }
  if (method === 'GET' && path === '/') {
    record({ method, path, status: 200 });
    sendJson(res, 200, { name: 'relais-demo-model', ok: true });
    return;
  }
  if (method === 'POST' && path === '/v1/responses') {
    await handleResponses(req, res, record, delayScale, codexQuota, requestId);
    return;
  }
  if (method !== 'POST' || path !== '/v1/messages') {
    record({ method, path, status: 404 });
    sendApiError(res, 404, 'not_found_error', `No route for ${method} ${path}.`);
    return;
  }

  await handleMessages(req, res, record, delayScale, counted);
}

/** POST /v1/messages: the scripted answer for the conversation, as JSON or as server-sent events. */
async function handleMessages(
  req: IncomingMessage,
  res: ServerResponse,
  record: (entry: RecordedRequest) => RecordedRequest,
  delayScale: number,
  counted: (entry: RecordedRequest) => RecordedRequest,
): Promise<void> {
  const method = 'POST';
  const path = '/v1/messages';
  const conversation = readConversation(await readJsonBody(req));
  const plan = planFor(conversation);
  const entry = record({
    method,
    path,
    model: conversation.model,
    ...(conversation.lastUserText === undefined ? {} : { lastUserText: conversation.lastUserText }),
    script: plan.script,
    step: plan.step,
    tools: conversation.tools,
    system: conversation.system.slice(-SYSTEM_KEPT),
  });

  if (plan.kind === 'error') {
    entry.status = plan.status;
    sendApiError(res, plan.status, plan.errorType, plan.message, plan.headers);
    return;
  }
  entry.status = 200;
  entry.usage = usageFor(plan);
  counted(entry);
  const message = buildMessage(plan, conversation.model);
  if (!conversation.stream) {
    sendJson(res, 200, message);
    return;
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
  });
  res.flushHeaders();
  await writeSse(res, sseEvents(message, plan.streamDurationMs ?? 0), delayScale);
}

/** The Responses API side, for the real Codex (PROTOCOLS §3.7). */
async function handleResponses(
  req: IncomingMessage,
  res: ServerResponse,
  record: (entry: RecordedRequest) => RecordedRequest,
  delayScale: number,
  quota: ResponsesQuota,
  requestId: string,
): Promise<void> {
  const conversation = readResponsesRequest(await readJsonBody(req));
  const plan = responsesPlan(conversation);
  const entry = record({
    method: 'POST',
    path: '/v1/responses',
    model: conversation.model,
    lastUserText: conversation.lastUserText,
    script: plan.script,
    step: plan.step,
  });
  const headers = quotaHeaders(quota, Date.now());
  if (plan.kind === 'error') {
    entry.status = plan.status;
    sendJson(
      res,
      plan.status,
      { error: { message: plan.message, type: 'demo_error', code: String(plan.status) } },
      headers,
    );
    return;
  }
  entry.status = 200;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...headers,
  });
  res.flushHeaders();
  await writeSse(res, responsesEvents(plan, requestId.replace(/^req_/, '')), delayScale);
}
