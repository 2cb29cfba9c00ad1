import type { Rule, RuleSet } from './types.js';

/*
 * Bash patterns run on RE2 (linear time; no lookaround, no backreferences). Each is tested against
 * every simple command separately (split on && || ; | & and newlines, plus the inner commands of
 * $(…), `…` and bash -c '…'), so `.*` never spans two commands, and against each command's normal
 * forms: the command word by its base name with its quotes removed, and again after every wrapper
 * (`/usr/bin/sudo rm -rf x` is also read as `sudo rm -rf x` and `rm -rf x`). `^rm` thus means "rm is
 * the command", whatever path, quoting or wrapper it came with. `(?:.*\s)?` lets options sit anywhere:
 * `git -C dir push origin main --force`.
 */
const GIT = String.raw`\bgit\s+(?:.*\s)?`;
/** End of an option: a blank or the end of the command (a lookahead would not be linear). */
const END = String.raw`(?:\s|$)`;
/** Between SQL keywords: blanks, /* comments *\/ and -- comments, which SQL reads as blanks. */
const SQL_GAP = String.raw`(?:\s|/\*(?:[^*]|\*+[^*/])*\*+/|--[^\n]*\n)+`;
/** One SQL word other than WHERE (with the i flag, whatever its case). */
const NOT_WHERE = String.raw`(?:[^\Ww]\w*|w(?:[^\Wh]\w*)?|wh(?:[^\We]\w*)?|whe(?:[^\Wr]\w*)?|wher(?:[^\We]\w*)?|where\w+)\b`;

const rules: Rule[] = [
  {
    id: 'rm-recursive-or-forced',
    kind: 'bash',
    pattern: String.raw`^rm\s+(?:\S+\s+)*(?:-[a-zA-Z]*[rRf][a-zA-Z]*|--recursive|--force)${END}`,
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
    pattern: String.raw`${GIT}push\s(?:.*\s)?--force(?:$|[^\w-])`,
    action: 'deny',
    reason: 'git push --force overwrites commits others pushed; use --force-with-lease',
  },
  {
    id: 'git-push-f',
    kind: 'bash',
    pattern: String.raw`${GIT}push\s(?:.*\s)?-[a-zA-Z]*f[a-zA-Z]*${END}`,
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
    pattern: String.raw`${GIT}clean\s(?:.*\s)?(?:-[a-zA-Z]*f[a-zA-Z]*|--force)${END}`,
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
    pattern: String.raw`(?:^|[^\w./-])(?:sudo|doas)(?:$|[^\w.-])`,
    action: 'deny',
    reason: 'no superuser commands from an agent',
  },
  {
    id: 'chmod-777',
    kind: 'bash',
    pattern: String.raw`\bchmod\s+(?:-\S+\s+)*(?:0?777|a\+rwx|ugo\+rwx)${END}`,
    action: 'deny',
    reason: 'chmod 777 opens the file to every user of the machine',
  },
  {
    id: 'sql-drop-table',
    kind: 'bash',
    pattern: String.raw`\bDROP${SQL_GAP}TABLE\b`,
    flags: 'i',
    action: 'deny',
    reason: 'DROP TABLE destroys data',
  },
  {
    id: 'sql-delete-without-where',
    kind: 'bash',
    pattern: String.raw`\bDELETE${SQL_GAP}FROM${SQL_GAP}[^\s;'"]+(?:[^;'"\w]+|${NOT_WHERE})*(?:[;'"]|$)`,
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
    pattern: String.raw`${GIT}checkout\s(?:.*\s)?(?:--\s+)?\.\/?${END}`,
    action: 'ask',
    reason: 'git checkout -- . discards uncommitted work',
  },
  {
    id: 'git-restore-discard',
    kind: 'bash',
    pattern: String.raw`${GIT}restore\s(?:.*\s)?\.\/?${END}`,
    action: 'ask',
    reason: 'git restore . discards uncommitted work',
  },
  {
    id: 'git-branch-force-delete',
    kind: 'bash',
    pattern: String.raw`${GIT}branch\s(?:.*\s)?-[a-zA-Z]*D[a-zA-Z]*${END}`,
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
