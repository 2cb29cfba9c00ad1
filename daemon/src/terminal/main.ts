import { parseArgs, type ParseArgsConfig } from 'node:util';
import { attach } from './attach.js';
import { launch, listSessions } from './commands.js';
import { CliError, DaemonClient, findDaemon } from './daemon-client.js';
import { createKey, listKeys, revokeKey } from './keys-commands.js';

const USAGE = `relais: join and drive the sessions of the Relais daemon from a shell.

  relais sessions [--all]             the open sessions (--all: ended ones too)
  relais launch [options] [prompt…]   starts a session and prints its id
      -s, --subscription <id>         default: demo
      -m, --model <model>             default: the subscription's first detected model
      -C, --cwd <folder>              default: the current folder
      -e, --effort <level>            low, medium, high, xhigh, max
          --mode <mode>               write (default), read_only, dry_run
          --ttl <seconds>             the session's lifetime
      -a, --attach                    join it at once
  relais attach <session> [-n lines]  follows the conversation live and joins it:
                                      type to send, Ctrl-C interrupts the turn,
                                      Ctrl-C twice or Ctrl-D leaves (the session goes on)
  relais url                          the console's URL, holding the key
  relais keys create <name> [options] a key for one tool; prints its secret, this once
      -S, --scope <scope>             read, read:all, launch, steer, decide, decide_own,
                                      metrics (repeat it, or separate with commas)
      -s, --subscription <id>         where it may launch (repeat it)
          --expires <when>            30d, 12h, an ISO time, or never (default)
  relais keys list                    the keys, their scopes and last use
  relais keys revoke <id or name>     refuses the key from now on; its streams end

The daemon is found through $RELAIS_HOME/daemon.json and the key file (default ~/.relais).
`;

const out = (text: string) => process.stdout.write(text);

function parse(
  args: string[],
  options: ParseArgsConfig['options'],
): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args,
      options,
      allowPositionals: true,
      strict: true,
    });
    return {
      values: values as Record<string, string | boolean | string[] | undefined>,
      positionals,
    };
  } catch (error: unknown) {
    throw new CliError(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    out(USAGE);
    return;
  }
  switch (command) {
    case 'sessions': {
      const { values } = parse(rest, { all: { type: 'boolean' } });
      return listSessions(new DaemonClient(findDaemon()), values['all'] === true, out);
    }
    case 'url': {
      parse(rest, {});
      out(`${new DaemonClient(findDaemon()).consoleUrl}\n`);
      return;
    }
    case 'launch': {
      const { values, positionals } = parse(rest, {
        subscription: { type: 'string', short: 's' },
        model: { type: 'string', short: 'm' },
        cwd: { type: 'string', short: 'C' },
        effort: { type: 'string', short: 'e' },
        mode: { type: 'string' },
        ttl: { type: 'string' },
        attach: { type: 'boolean', short: 'a' },
      });
      const client = new DaemonClient(findDaemon());
      const session = await launch(client, {
        ...(values as Record<string, string | undefined>),
        prompt: positionals.join(' ') || undefined,
      });
      out(`${session.id}\n`);
      if (values['attach'] === true) await attachHere(client, session.id, 20);
      return;
    }
    case 'attach': {
      const { values, positionals } = parse(rest, { lines: { type: 'string', short: 'n' } });
      const [sessionId, ...extra] = positionals;
      if (!sessionId || extra.length) throw new CliError(`relais attach <session>\n\n${USAGE}`, 2);
      const lines = values['lines'] === undefined ? 30 : Number(values['lines']);
      if (!Number.isInteger(lines) || lines < 0)
        throw new CliError('-n takes a number of lines.', 2);
      return attachHere(new DaemonClient(findDaemon()), sessionId, lines);
    }
    case 'keys':
      return keysCommand(rest);
    default:
      throw new CliError(`Unknown command ${JSON.stringify(command)}.\n\n${USAGE}`, 2);
  }
}

async function keysCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const err = (text: string) => process.stderr.write(text);
  switch (sub) {
    case 'create': {
      const { values, positionals } = parse(rest, {
        scope: { type: 'string', short: 'S', multiple: true },
        subscription: { type: 'string', short: 's', multiple: true },
        expires: { type: 'string' },
      });
      const name = positionals.join(' ').trim();
      if (!name) throw new CliError(`relais keys create <name>\n\n${USAGE}`, 2);
      const list = (value: unknown) => (Array.isArray(value) ? (value as string[]) : []);
      return createKey(
        new DaemonClient(findDaemon()),
        {
          name,
          scopes: list(values['scope']),
          subscriptions: list(values['subscription']),
          expires: values['expires'] as string | undefined,
        },
        out,
        err,
      );
    }
    case 'list':
      parse(rest, {});
      return listKeys(new DaemonClient(findDaemon()), out);
    case 'revoke': {
      const { positionals } = parse(rest, {});
      if (positionals.length !== 1)
        throw new CliError(`relais keys revoke <id or name>\n\n${USAGE}`, 2);
      return revokeKey(new DaemonClient(findDaemon()), positionals[0]!, out);
    }
    default:
      throw new CliError(`relais keys create|list|revoke\n\n${USAGE}`, 2);
  }
}

function attachHere(client: DaemonClient, sessionId: string, history: number): Promise<void> {
  return attach(client, sessionId, { history, input: process.stdin, output: process.stdout });
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    const known = error instanceof CliError;
    process.stderr.write(`relais: ${known ? error.message : String(error)}\n`);
    process.exit(known ? error.exitCode : 1);
  },
);
