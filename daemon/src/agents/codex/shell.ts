// One reading of Codex's wrapped commands, shared with the conversation and the outline.
export { unwrapShell } from '../../../../contract/formats/codex-lines.js';
