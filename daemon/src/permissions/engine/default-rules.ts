import type { Rule, RuleSet } from './types.js';

/*
 * Bash patterns are tested against each simple command separately (split on && || ; | & and
 * newlines, plus the inner commands of $(…), `…` and bash -c '…'), so `.*` never spans two commands.
 * `(?:.*\s)?` lets options sit anywhere: `git -C dir push origin main --force`.
 */
const GIT = String.raw`\bgit\s+(?:.*\s)?`;

const rules: Rule[] = [
  {
    id: 'rm-recursive-or-forced',
    kind: 'bash',
    pattern: String.raw`(?<!\bgit\s+)\brm\s+(?:\S+\s+)*?(?:-[a-zA-Z]*[rRf][a-zA-Z]*|--recursive|--force)(?=\s|$)`,
    action: 'deny',
    reason: 'rm recursive or forced deletes without recovery; delete files one by one, by name',
  },
  {
    id: 'git-reset-hard',
    kind: 'bash',
    pattern: String.raw`${GIT}reset\s(?:.*\s)?--hard\b`,
    action: 'deny',
    reason:
      'git reset --hard destroys uncommitted work; check git status and git worktree list, then ask the person',
  },
  {
    id: 'git-push-force',
    kind: 'bash',
    pattern: String.raw`${GIT}push\s(?:.*\s)?--force(?!-with-lease)(?![\w-])`,
    action: 'deny',
    reason: 'git push --force overwrites commits others pushed; use --force-with-lease',
  },
  {
    id: 'git-push-f',
    kind: 'bash',
    pattern: String.raw`${GIT}push\s(?:.*\s)?-[a-zA-Z]*f[a-zA-Z]*(?=\s|$)`,
    action: 'deny',
    reason: 'git push -f overwrites commits others pushed; use --force-with-lease',
  },
  {
    id: 'git-push-plus-refspec',
    kind: 'bash',
    pattern: String.raw`${GIT}push\s(?:.*\s)?\+[^\s]`,
    action: 'deny',
    reason: 'git push +refspec is a forced push; use --force-with-lease',
  },
  {
    id: 'git-clean-force',
    kind: 'bash',
    pattern: String.raw`${GIT}clean\s(?:.*\s)?(?:-[a-zA-Z]*f[a-zA-Z]*|--force)(?=\s|$)`,
    action: 'deny',
    reason: 'git clean -f deletes untracked files for good',
  },
  {
    id: 'git-stash-drop',
    kind: 'bash',
    pattern: String.raw`${GIT}stash\s+(?:drop|clear)\b`,
    action: 'deny',
    reason: 'git stash drop/clear deletes stashed work for good',
  },
  {
    id: 'sudo',
    kind: 'bash',
    pattern: String.raw`(?<![\w./-])(?:sudo|doas)(?![\w.-])`,
    action: 'deny',
    reason: 'no superuser commands from an agent',
  },
  {
    id: 'chmod-777',
    kind: 'bash',
    pattern: String.raw`\bchmod\s+(?:-\S+\s+)*(?:0?777|a\+rwx|ugo\+rwx)(?=\s|$)`,
    action: 'deny',
    reason: 'chmod 777 opens the file to every user of the machine',
  },
  {
    id: 'sql-drop-table',
    kind: 'bash',
    pattern: String.raw`\bDROP\s+TABLE\b`,
    flags: 'i',
    action: 'deny',
    reason: 'DROP TABLE destroys data',
  },
  {
    id: 'sql-delete-without-where',
    kind: 'bash',
    pattern: String.raw`\bDELETE\s+FROM\s+[^\s;'"]+(?![^;'"]*\bWHERE\b)`,
    flags: 'i',
    action: 'deny',
    reason: 'DELETE FROM without WHERE empties the whole table',
  },
  {
    id: 'secrets-env-files',
    kind: 'zero_access',
    paths: ['.env', '.env.local', '.env.*.local', '.env.production'],
    reason: 'environment files hold secrets; the agent needs no key',
  },
  {
    id: 'secrets-key-files',
    kind: 'zero_access',
    paths: ['*.pem', '*.key'],
    reason: 'private keys and certificates are secrets',
  },
  {
    id: 'secrets-ssh',
    kind: 'zero_access',
    paths: ['~/.ssh/'],
    reason: 'SSH keys are secrets',
  },
  {
    id: 'secrets-aws',
    kind: 'zero_access',
    paths: ['~/.aws/'],
    reason: 'cloud credentials are secrets',
  },
  {
    id: 'git-checkout-discard',
    kind: 'bash',
    pattern: String.raw`${GIT}checkout\s(?:.*\s)?(?:--\s+)?\.\/?(?=\s|$)`,
    action: 'ask',
    reason: 'git checkout -- . discards uncommitted work',
  },
  {
    id: 'git-restore-discard',
    kind: 'bash',
    pattern: String.raw`${GIT}restore\s(?:.*\s)?\.\/?(?=\s|$)`,
    action: 'ask',
    reason: 'git restore . discards uncommitted work',
  },
  {
    id: 'git-branch-force-delete',
    kind: 'bash',
    pattern: String.raw`${GIT}branch\s(?:.*\s)?-[a-zA-Z]*D[a-zA-Z]*(?=\s|$)`,
    action: 'ask',
    reason: 'git branch -D deletes a branch even if it is not merged',
  },
  {
    id: 'git-push',
    kind: 'bash',
    pattern: String.raw`${GIT}push\b`,
    action: 'ask',
    reason: 'pushing publishes commits to others',
  },
  {
    id: 'package-publish',
    kind: 'bash',
    pattern: String.raw`\b(?:npm|pnpm|yarn)\s+(?:.*\s)?publish\b`,
    action: 'ask',
    reason: 'publishing a package is public and cannot be fully undone',
  },
  {
    id: 'database-drop',
    kind: 'bash',
    pattern: String.raw`\bdotnet\s+ef\s+database\s+drop\b`,
    action: 'ask',
    reason: 'drops the whole database; confirm the target environment',
  },
];

export const DEFAULT_RULES: RuleSet = Object.freeze({
  version: 1,
  rules: Object.freeze(rules.map((r) => Object.freeze(r))),
});
