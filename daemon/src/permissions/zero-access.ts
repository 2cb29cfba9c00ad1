import { realpathSync } from 'node:fs';
import type { Circle } from '../fs/fence.js';
import type { RulesStore } from './engine/index.js';
import { evaluateRules } from './engine/rules-eval.js';

/**
 * The zero-access circles of the rules in force (`.env`, `*.pem`, `~/.ssh/`…), as a check for the
 * files Relais itself reads from a tree it does not own: the same rules, read against the tree's
 * root as the working folder, so an agent cannot have Relais read for it what it may not read.
 */
export function zeroAccessCircle(store: RulesStore, homeDir: string): Circle {
  let home = homeDir;
  try {
    home = realpathSync(homeDir);
  } catch {
    // a home that does not exist holds no circle to reach through a link
  }
  return (real, root) => {
    const decision = evaluateRules(store.current, {
      commandTexts: null,
      commandForms: null,
      paths: [
        {
          access: 'read',
          origin: 'Relais',
          raw: real,
          lexical: real,
          real,
          root,
          lexicalRoot: root,
        },
      ],
      cwd: { raw: root, real: root },
      home: { raw: homeDir, real: home },
    });
    return decision && decision.decision !== 'allow'
      ? `refused by the rules: ${decision.reason}`
      : null;
  };
}
