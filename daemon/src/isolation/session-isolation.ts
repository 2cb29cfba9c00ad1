import { mkdtempSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PermissionMode, RulesStore } from '../permissions/engine/index.js';
import { sessionCircles, type Circles } from './circles.js';
import { onPath } from './detect.js';
import { ToolchainMasks } from './toolchain-masks.js';

export interface IsolationSetting {
  store: RulesStore;
  dataDir: string;
  agentHomeDir: string;
  /** The user's home, for the rules' `~/` circles. */
  homeDir?: string;
}

export interface SessionIsolation {
  circles: Circles;
  /** The session's private temporary folder (0700), removed when its agent exits. */
  tempDir: string;
}

/** Plans the confinement of one session from the rules in force when it starts. */
export class IsolationPlanner {
  /** One search of the toolchains' names for the daemon, started now so that sessions find it done. */
  readonly toolchainMasks = new ToolchainMasks(onPath('find', process.env));

  constructor(private readonly setting: IsolationSetting) {
    this.circles('/', 'write', '/');
  }

  forSession(cwd: string, permissionMode: PermissionMode): SessionIsolation {
    const tempDir = mkdtempSync(join(tmpdir(), 'relais-session-tmp-'));
    return { circles: this.circles(cwd, permissionMode, tempDir), tempDir };
  }

  private circles(cwd: string, permissionMode: PermissionMode, tempDir: string): Circles {
    return sessionCircles({
      rules: this.setting.store.current,
      dataDir: this.setting.dataDir,
      homeDir: this.setting.homeDir ?? homedir(),
      agentHomeDir: this.setting.agentHomeDir,
      cwd,
      permissionMode,
      tempDir,
      toolchainMasks: this.toolchainMasks,
    });
  }
}
