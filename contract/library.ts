/** The library (skills and commands) and the permanent instructions. Pure zod. */
import * as z from 'zod';

export const LibraryKind = z.enum(['skill', 'command']);
export type LibraryKind = z.infer<typeof LibraryKind>;

/**
 * A name is one path segment the agents read as a command or skill name: ASCII letters, digits,
 * `-` and `_`, starting with a letter or digit. Nothing else (no dot, slash, percent, NUL or
 * other script), so it can never climb out of the folder it is placed in.
 */
export const LibraryName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/,
    'a name is 1 to 64 ASCII letters, digits, "-" or "_", starting with a letter or digit',
  );

export const LIBRARY_CONTENT_MAX = 200_000;
const content = z.string().max(LIBRARY_CONTENT_MAX);
const scope = z
  .string()
  .min(1)
  .max(200)
  .nullable()
  .describe('The subscription it belongs to; null for every subscription (common)');

export const LibraryItem = z.object({
  id: z.string(),
  kind: LibraryKind,
  name: z.string(),
  subscription_id: z.string().nullable(),
  enabled: z.boolean(),
  content: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LibraryItem = z.infer<typeof LibraryItem>;

export const LibraryList = z.object({ items: z.array(LibraryItem), next_cursor: z.null() });
export type LibraryList = z.infer<typeof LibraryList>;

export const LibraryQuery = z
  .object({
    kind: LibraryKind.optional(),
    subscription_id: z.string().max(200).optional().describe('Its own items and the common ones'),
  })
  .strict();

/** Written in the request, or imported from a file or folder of this machine (`import_path`). */
export const LibraryCreate = z
  .object({
    kind: LibraryKind,
    name: LibraryName.optional().describe(
      'Required unless imported (then the file or folder name)',
    ),
    subscription_id: scope.default(null),
    enabled: z.boolean().default(true),
    content: content.optional(),
    import_path: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('A command: a .md file. A skill: a folder holding SKILL.md, or that file'),
  })
  .strict()
  .refine(
    (body) => (body.content === undefined) !== (body.import_path === undefined),
    'give either content or import_path',
  )
  .refine(
    (body) => body.import_path !== undefined || body.name !== undefined,
    'a written item needs a name',
  );
export type LibraryCreate = z.input<typeof LibraryCreate>;

export const LibraryPatch = z
  .object({
    name: LibraryName.optional(),
    subscription_id: scope.optional(),
    enabled: z.boolean().optional(),
    content: content.optional(),
  })
  .strict();
export type LibraryPatch = z.input<typeof LibraryPatch>;

export const INSTRUCTIONS_MAX = 20_000;

/**
 * Why a text cannot be given to an agent as instructions, or null. They travel as one program
 * argument (Claude) or in a JSON-RPC line (Codex): a NUL cannot be in an argument at all, and the
 * other control characters (tab, line feed and carriage return aside) have no place in a prompt.
 */
export function instructionsProblem(text: string): string | null {
  const control = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.exec(text);
  if (!control) return null;
  const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return `text holds the control character U+${code} (only tab, line feed and carriage return are accepted)`;
}

export const Instructions = z.object({
  scope: z.string().describe('"common", or a subscription id'),
  text: z.string(),
  updated_at: z.string().nullable(),
});
export type Instructions = z.infer<typeof Instructions>;

export const InstructionsList = z.object({ items: z.array(Instructions) });

export const InstructionsPut = z
  .object({
    scope: z.string().min(1).max(200),
    text: z
      .string()
      .max(INSTRUCTIONS_MAX)
      .superRefine((text, context) => {
        const problem = instructionsProblem(text);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .describe(
        'Appended to the system prompt of new sessions; empty removes; no control characters but tab, LF, CR',
      ),
  })
  .strict();
export type InstructionsPut = z.infer<typeof InstructionsPut>;

/** What a session started with, as its start event records it. */
export const StartInstructions = z.object({
  common: z.string().nullable(),
  subscription: z.string().nullable(),
  skipped: z
    .array(z.object({ scope: z.string(), reason: z.string() }))
    .optional()
    .describe('Stored instructions left out because an agent cannot be given them'),
});
export type StartInstructions = z.infer<typeof StartInstructions>;
