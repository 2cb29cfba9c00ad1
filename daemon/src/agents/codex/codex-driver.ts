import { writeConfined } from '../../fs/confined-files.js';
import { dirname, join } from 'node:path';
import { codexJailLaunch, JAIL_PROXY, jailedCommand } from '../../isolation/codex-jail.js';
import { NetworkGate } from '../../isolation/network-gate.js';
import { networkAsk } from '../../isolation/network-ask.js';
import { onPath } from '../../isolation/detect.js';
import type { IsolationPlanner, SessionIsolation } from '../../isolation/session-isolation.js';

/** The hosts a real Codex subscription's app server talks to (its model API and sign-in). */
const CODEX_SERVICE_HOSTS = ['api.openai.com', 'chatgpt.com', 'auth.openai.com'];
import type { ModelInfo } from '../../../../contract/api.js';
import type { AgentSubscription as StoredSubscription, LibraryLayout } from '../agent.js';
import { accountKeyOf } from '../kit/account-key.js';
import type { SpawnSpec } from '../../processes/spawn-agent.js';
import type { AgentDriver, AgentHost, AgentIdentity, AgentLaunch, AgentProcess } from '../agent.js';
import { codexBinary } from './binary.js';
import { CodexSession } from './codex-agent.js';
import { codexReader } from './codex-reader.js';
import { CodexRpc } from './codex-rpc.js';
import { codexConfig } from './config.js';
import { codexMcpOverride } from './mcp-overrides.js';
import { codexEnvironment } from './environment.js';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Json;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Codex through `codex app-server` (PROTOCOLS §3): one CODEX_HOME per subscription. */
export class CodexDriver implements AgentDriver {
  readonly kind = 'codex' as const;
  readonly reader = codexReader;
  /** CODEX_HOME/prompts/<name>.md (custom prompts) and CODEX_HOME/skills/<name>/SKILL.md. */
  readonly libraryLayout: LibraryLayout = {
    file: (kind, name) => (kind === 'command' ? `prompts/${name}.md` : `skills/${name}/SKILL.md`),
  };

  constructor(
    /** Where the scripted Responses API listens, for the built-in demo subscription. */
    private readonly demoModelUrl: () => string | null,
    private readonly agentHome: string,
    /** Confines the app server and every command it runs; null runs them unconfined. */
    private readonly isolation: IsolationPlanner | null = null,
  ) {}

  start(subscription: StoredSubscription, input: AgentLaunch, host: AgentHost): AgentProcess {
    const spec = this.spec(subscription, input.cwd, input.sessionTag, input.cage ?? null);
    spec.args.push(...codexMcpOverride(input.mcpServers));
    if (!this.isolation) return new CodexSession(spec, input, host);
    const plan = this.isolation.forSession(input.cwd, input.permissionMode);
    const socket = join(plan.tempDir, 'network.sock');
    const gate = NetworkGate.onSocket(socket, networkAsk(host), this.modelHosts(subscription));
    const closing: AgentHost = {
      ...host,
      onExit: (code, signal, stderr) => {
        gate.close();
        host.onExit(code, signal, stderr);
      },
    };
    try {
      return new CodexSession(this.jailed(spec, input, plan, socket), input, closing, true);
    } catch (error: unknown) {
      gate.close();
      throw error;
    }
  }

  /** Where the app server itself must reach (the model's API): open without a prompt. */
  private modelHosts(subscription: StoredSubscription): string[] {
    const demo = subscription.builtin ? this.demoModelUrl() : null;
    if (demo) {
      const url = new URL(demo);
      return [`${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`];
    }
    return CODEX_SERVICE_HOSTS.map((host) => `${host}:443`);
  }

  /** The app server started inside bubblewrap, with the session's circles (isolation/). */
  private jailed(
    spec: SpawnSpec,
    input: AgentLaunch,
    plan: SessionIsolation,
    socket: string,
  ): SpawnSpec {
    const bwrap = onPath('bwrap', process.env);
    const find = onPath('find', process.env);
    if (!bwrap || !find) throw new Error('bubblewrap or find is missing from PATH');
    const jail = {
      circles: plan.circles,
      codexHome: spec.env['CODEX_HOME']!,
      binaryFolder: dirname(spec.binary),
      cwd: input.cwd,
      gateSocket: socket,
      wrapperFolder: join(plan.tempDir, '.relais-shell'),
      bwrap,
      find,
    };
    const proxy = Object.fromEntries(
      ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'].map(
        (name) => [name, JAIL_PROXY],
      ),
    );
    return {
      ...spec,
      binary: '/bin/sh',
      args: codexJailLaunch(jail, jailedCommand(socket, spec.binary, spec.args)),
      env: { ...spec.env, ...proxy, TMPDIR: plan.tempDir },
      tempDir: plan.tempDir,
    };
  }

  async detect(subscription: StoredSubscription): Promise<AgentIdentity> {
    const spec = this.spec(subscription, subscription.config_dir, `detect-${subscription.id}`);
    let exitNote = '';
    const rpc = new CodexRpc(spec, {
      onLine: () => undefined,
      onExit: (code, _signal, stderr) => {
        exitNote = stderr.findLast((line) => line.trim() !== '') ?? `exit code ${code}`;
      },
    });
    const ask = (method: string, params: Json): Promise<Json> =>
      rpc.request(method, params, 20_000).then(obj, (error: unknown) => {
        throw new Error(exitNote || (error instanceof Error ? error.message : String(error)));
      });
    try {
      const hello = await ask('initialize', {
        clientInfo: { name: 'relais', title: 'Relais', version: '0.1.0' },
        capabilities: { experimentalApi: false },
      });
      rpc.write({ method: 'initialized' });
      const account = obj((await ask('account/read', {}))['account']);
      const models = await ask('model/list', {});
      return {
        account,
        accountKey: accountKeyOf({ email: str(account['email']) }),
        models: modelsOf(models['data']),
        version: /\/(\d+\.\d+\.\d+)/.exec(str(hello['userAgent']) ?? '')?.[1] ?? null,
      };
    } finally {
      rpc.closeInput();
      setTimeout(() => rpc.killGroup('SIGKILL'), 2000).unref();
    }
  }

  private spec(
    subscription: StoredSubscription,
    cwd: string,
    sessionTag: string,
    cage: string | null = null,
  ): SpawnSpec {
    const demoUrl = subscription.builtin ? this.demoModelUrl() : null;
    writeConfig(
      subscription.config_dir,
      codexConfig({ demoBaseUrl: demoUrl, commandProxy: this.isolation ? JAIL_PROXY : null }),
    );
    return {
      binary: codexBinary().path,
      args: ['app-server', '--strict-config'],
      cwd,
      env: codexEnvironment({
        codexHome: subscription.config_dir,
        home: this.agentHome,
        sessionTag,
        demo: demoUrl !== null,
      }),
      cage,
    };
  }
}

/**
 * Written whole then renamed (two sessions starting at once never read half a file), through an
 * exclusive random temporary name: the folder is the agent's to write, so a link planted at a
 * guessable name would be written through.
 */
function writeConfig(codexHome: string, text: string): void {
  if (!writeConfined(codexHome, 'config.toml', text))
    throw new Error(`${join(codexHome, 'config.toml')} is not a plain file in a plain folder`);
}

function modelsOf(data: unknown): ModelInfo[] {
  return (Array.isArray(data) ? data : []).flatMap((entry): ModelInfo[] => {
    const model = obj(entry);
    const value = str(model['model']) ?? str(model['id']);
    if (!value || model['hidden'] === true) return [];
    const efforts = Array.isArray(model['supportedReasoningEfforts'])
      ? (model['supportedReasoningEfforts'] as unknown[])
          .map((e) => str(obj(e)['reasoningEffort']))
          .filter((e): e is string => e !== null)
      : [];
    return [
      {
        value,
        display_name: str(model['displayName']) ?? value,
        description: str(model['description']),
        supported_effort_levels: efforts,
      },
    ];
  });
}
