import { InstructionsRepo } from '../library/instructions-repo.js';
import { LibraryRepo } from '../library/library-repo.js';
import { LibraryService } from '../library/library-service.js';
import { PlacedFiles } from '../library/placed-files.js';
import { relaisPlugin } from './plugin.js';

export interface Library {
  repo: LibraryRepo;
  service: LibraryService;
  instructions: InstructionsRepo;
}

declare module 'fastify' {
  interface FastifyInstance {
    library: Library;
  }
}

/** Commands, skills and instructions, placed in a subscription's folder before a launch. */
export const libraryPlugin = relaisPlugin(
  'relais-library',
  ['relais-core', 'relais-permissions', 'relais-agents', 'relais-subscriptions'],
  async (app) => {
    const { db } = app.core;
    const repo = new LibraryRepo(db);
    const service = new LibraryService({
      repo,
      subscriptions: app.subscriptions.repo,
      agents: app.agents.registry,
      bounds: app.permissions.untrustedBounds,
      placed: new PlacedFiles(db),
    });
    app.decorate<Library>('library', { repo, service, instructions: new InstructionsRepo(db) });
  },
);
