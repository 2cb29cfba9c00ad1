import * as z from 'zod';
import { PermissionMode } from '../../../contract/api';

const KEY = 'relais.launch.last';

/** What the launch form offers again next time: where and how the last launch ran, not what it said. */
const Remembered = z
  .object({
    subscription: z.string().max(200),
    model: z.string().max(200),
    cwd: z.string().max(4096),
    permissionMode: PermissionMode,
  })
  .partial();
export type RememberedLaunch = z.infer<typeof Remembered>;

/** The last launch's choices; nothing when there are none or they cannot be read. */
export function recallLaunch(storage: Storage = localStorage): RememberedLaunch {
  try {
    const parsed = Remembered.safeParse(JSON.parse(storage.getItem(KEY) ?? 'null'));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export function rememberLaunch(choices: RememberedLaunch, storage: Storage = localStorage): void {
  try {
    storage.setItem(KEY, JSON.stringify(choices));
  } catch {
    // Storage full or refused (a private window): the form simply starts empty next time.
  }
}
