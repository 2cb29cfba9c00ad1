/** The daemon's own names for who settled a prompt or made a change; anything else is a key's or an app's name. */
const LABELS: Record<string, string> = {
  console: $localize`:decided by:the console`,
  terminal: $localize`:decided by:the terminal`,
  rules: $localize`:decided by:the rules`,
  nobody_listening: $localize`:decided by:nobody listening`,
  timeout: $localize`:decided by:the timeout`,
  agent: $localize`:decided by:the agent`,
  relais: $localize`:decided by:Relais`,
  owner: $localize`:decided by:the owner`,
};

/** Who decided, in the console's language: a name the daemon gives is translated, a key's name kept. */
export function decidedByLabel(by: string): string {
  return Object.hasOwn(LABELS, by) ? LABELS[by]! : by;
}
