import type { AgentKind, Subscription } from '../../../contract/api';

export const AGENT_LABELS: Record<AgentKind, string> = { claude: 'Claude', codex: 'Codex' };

/** How a person logs in once in a configuration folder, before adding it here. */
export function loginCommand(agent: AgentKind, folder: string): string {
  const shown = folder.trim() || '<folder>';
  return agent === 'codex'
    ? `CODEX_HOME=${shown} codex login`
    : `CLAUDE_CONFIG_DIR=${shown} claude   # then /login`;
}

/** The account detection read, as label and value pairs (scalars only, in a stable order). */
export function accountFacts(account: Subscription['account']): { label: string; value: string }[] {
  if (!account) return [];
  const labels: Record<string, string> = {
    email: 'Email',
    organization: 'Organization',
    subscriptionType: 'Plan',
    apiKeySource: $localize`Key source`,
    tokenSource: $localize`Token source`,
    apiProvider: 'Provider',
    plan_type: 'Plan',
    auth_mode: 'Sign-in',
  };
  return Object.entries(account)
    .filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))
    .map(([key, value]) => ({ label: labels[key] ?? key, value: String(value) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** The names of the subscriptions this one shares its account with ("Work, Home"), or null. */
export function sharedWith(subscription: Subscription, all: Subscription[]): string | null {
  if (subscription.shares_account_with.length === 0) return null;
  const names = subscription.shares_account_with.map(
    (id) => all.find((other) => other.id === id)?.name ?? id,
  );
  return names.join(', ');
}
